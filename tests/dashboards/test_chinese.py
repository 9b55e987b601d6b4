"""What a Chinese page shows is Chinese: the components by Chinese names, a lancelot colour in
words, and every sentence spaced by one rule, a space where a Han character meets a Latin
letter or a digit (the common Chinese copywriting convention), none beside full-width
punctuation, never two."""

from __future__ import annotations

import gzip
import re
import tomllib
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboards.sentences import told
from dashboards.spacing import spaced
from ingest.files.catalogues import Library
from ingest.files.names import NAMES, decode, translated
from replay.registry import GAMES, PACKAGES
from replay.replayer import open_log, replay

from .conftest import ROOT
from .untranslated import shown, untranslated

HAN = r"[\u3400-\u4dbf\u4e00-\u9fff]"
UNSPACED = re.compile(rf"{HAN}[A-Za-z0-9]|[A-Za-z0-9]{HAN}")
APP = str(ROOT / "dashboards" / "app.py")


def _sample(game: str) -> list[Path]:
    """A sample of a game's matches: its worked examples and two of its bundled samples."""
    examples = sorted((ROOT / "tests" / PACKAGES[game] / "logs").glob("*.jsonl"))
    return [*examples, *sorted((ROOT / "data" / "samples" / game).glob("*.jsonl.gz"))[:2]]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_chinese_sentence_of_a_sample_of_each_game_spaces_names_and_numbers_from_han(game):
    for path in _sample(game):
        data = path.read_bytes()
        log = gzip.decompress(data) if path.suffix == ".gz" else data
        match = open_log(log, str(path), catalogues=Library())
        outcome = replay(match)
        seats = [None, *range(len(match.header.players))] if match.game.secrets else [None]
        for seat in seats:
            for index, sentence in enumerate(told(match, outcome.steps, "zh", seat), 1):
                where = (path.name, seat, index, sentence)
                assert not UNSPACED.search(sentence), where
                assert "  " not in sentence, where


def test_a_space_is_set_where_han_meets_latin_or_a_digit_and_nowhere_else():
    assert spaced("把剑 3传给 Ann") == "把剑 3 传给 Ann"
    assert spaced("Fay和Cid") == "Fay 和 Cid"
    assert spaced("下排左起第3格") == "下排左起第 3 格"
    assert spaced("（Ann）：碎片 8 → 1，+3 分") == "（Ann）：碎片 8 → 1，+3 分"
    assert spaced("Ann 和 Bob") == "Ann 和 Bob"  # spaced already: no second space
    assert spaced("Ann 选择 伊森巴德，将 莉塞特 放回") == "Ann 选择伊森巴德，将莉塞特放回"
    assert spaced("Sword 3 and Ann") == "Sword 3 and Ann"


def _catalogues() -> list[tuple[str, dict[str, object]]]:
    return [
        (path.parent.name, tomllib.loads(path.read_text("utf-8")))
        for path in sorted((ROOT / "data" / "catalogues").glob("*/*.toml"))
    ]


def _named(document: dict[str, object]) -> dict[str, dict[str, str]]:
    """kind → id → name of every named entry of a catalogue (Albus Academy's homework is a
    list under `homework`, Paladins' kinds arrays of tables)."""
    out: dict[str, dict[str, str]] = {}
    for kind, entries in document.items():
        if isinstance(entries, list):
            for entry in entries:
                if isinstance(entry, dict) and entry.get("name"):
                    out.setdefault(kind, {})[str(entry["id"])] = str(entry["name"])
    return out


@pytest.mark.parametrize(("game", "document"), _catalogues())
def test_every_named_component_of_a_shipped_catalogue_has_a_chinese_name(game, document):
    head = document.get("catalogue", document)
    assert isinstance(head, dict)
    zh = translated(game, str(head["name"]), str(head["version"]), "zh")
    named = _named(document)
    assert named, "the catalogue names components"
    for kind, entries in named.items():
        assert set(zh.get(kind, {})) == set(entries), kind  # every one, and no stray id
        for card, name in zh[kind].items():
            assert re.search(HAN, name) and not re.search("[A-Za-z]", name), (card, name)
    for path in (ROOT / "data" / "catalogues" / game / NAMES).glob("*.toml"):
        decode(path.read_bytes())  # every shipped names file reads


def test_a_names_file_changes_nothing_a_replay_reads():
    """The shipped catalogues are still the files their matches were played with."""
    for game in ("albus-academy", "paladins"):
        sample = sorted((ROOT / "data" / "samples" / game).glob("*.jsonl.gz"))[0]
        match = open_log(gzip.decompress(sample.read_bytes()), str(sample), catalogues=Library())
        assert replay(match).steps


@pytest.fixture
def zh_page(warehouse, monkeypatch):
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(warehouse))

    def open_page(page: str, **params: str) -> AppTest:
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params["lang"] = "zh"
        for key, value in params.items():
            at.query_params[key] = value
        at.run()
        at.switch_page(f"app_pages/{page}.py")
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    return open_page


# A match of each game with components or seats named in words, at a step where they show:
# Albus Academy's homework cards, Paladins' cards, a lancelot match's four colours.
SHOWN = [
    ("aa-example-3p", 40, {"Ann", "Bob", "Cid"}),
    ("pa-example-3p", 40, {"Ann", "Bob", "Cid"}),
    ("ka-example-lancelot", 21, {"Ann", "Bob"}),
]


@pytest.mark.parametrize(("game_id", "step", "players"), SHOWN)
def test_the_chinese_viewer_names_components_and_colours_in_chinese(
    zh_page, game_id, step, players
):
    """Only the players' names, the bots' and the ids the page means to show stay Latin: the
    catalogue's component names are not among them."""
    at = zh_page("viewer", game=game_id, step=str(step))
    texts = list(shown(at._tree))
    ids = {game_id, "albus-sample", "squire-sample", "greedy", "random"}
    left = untranslated(texts, players | ids)
    assert not left, sorted(left)
    unspaced = [text for text in texts if UNSPACED.search(text)]
    assert not unspaced, unspaced[:5]
