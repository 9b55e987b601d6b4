"""Heraldry's move log in sentences, and its seats' panel as tables: hand-checked steps of the
example logs and a bundled sample in both languages, every step of every bundled sample, and
every seat told the same (Heraldry hides nothing)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from dashboards.boards import board
from dashboards.boards.heraldry import tables
from dashboards.boards.heraldry.sentences import sentences
from dashboards.i18n import every_label
from replay.games.heraldry.events import Event
from replay.replayer import Match, Outcome, state_at
from tests.dashboards.boards import replayed as shared

ROOT = Path(__file__).parents[3]
SAMPLES = sorted((ROOT / "data" / "samples" / "heraldry").glob("*.jsonl.gz"))
LOGS = ROOT / "tests" / "heraldry" / "logs"
TWO = "he-example-2p"  # Fay and Ann, Ann first; Fay becomes duke and the match ends at once
THREE = "he-example-3p"  # Cid, Gus and Ann; Cid passes, Gus's dukedom ends it a turn later
SAMPLE = "he-08b08927-000000"  # Ann, Bob and Cid, with the log's final line


def replayed(name: str) -> tuple[Match, Outcome]:
    return shared.replayed("heraldry", name)


def told(name: str, lang: str, seat: int | None = None) -> list[str]:
    return shared.told("heraldry", name, lang, seat)


def test_the_game_tells_its_own_sentences() -> None:
    assert board("heraldry").sentences is sentences


# Worked out by hand from the logs, the map in their headers and the rules' standard values
# (promotion: forest 3, plains 4, field 5, mountain 6; titles 4, 6, 8, 12; a city 10).
EXPECTED = {
    TWO: {
        # [5, -4] is a field hex.
        1: (
            "Ann places a starting city with a knight in the field at (5, −4)",
            "Ann 在田野 (5, −4) 放置初始城市和一名骑士",
        ),
        7: (
            "Ann moves 2 knights from (5, −4) to (4, −4) and from (1, 1) to (1, 0)",
            "Ann 将 2 名骑士从 (5, −4) 移到 (4, −4)，从 (1, 1) 移到 (1, 0)",
        ),
        # [1, 0] is a field, [4, -4] a forest: a token of each.
        9: (
            "Ann builds villages at (1, 0) and (4, −4): +1 field token, +1 forest token",
            "Ann 在 (1, 0)、(4, −4) 建造村庄：田野资源 +1，森林资源 +1",
        ),
        # [3, -2] touches a lake: three knights (HE-6).
        15: (
            "Ann recruits 3 knights into the city at (3, −2)",
            "Ann 在 (3, −2) 的城市招募 3 名骑士",
        ),
        18: ("Fay moves 2 knights from (−1, 1) to (0, 0)", "Fay 将 2 名骑士从 (−1, 1) 移到 (0, 0)"),
        # Ann's village of step 9 at [1, 0], alone there: Fay takes the field token she names.
        22: (
            "Fay moves 2 knights from (0, 0) to (1, 0) and destroys Ann's village, "
            "looting a field token",
            "Fay 将 2 名骑士从 (0, 0) 移到 (1, 0)，摧毁 Ann 的村庄并夺走一个田野资源",
        ),
        # 3 + 3 + 5 + 4 = 15; the first points of the match.
        24: (
            "Fay takes the title of Viscount for 2 forest, 1 field and 1 plains tokens "
            "(worth 15): +4 points (4 in all), now leads",
            "Fay 支付 2 个森林、1 个田野、1 个平原资源（价值 15），晋升为子爵：+4 分（共 4 分），"
            "跃居领先",
        ),
        # 6 + 5 + 3 + 3 = 17; level with Fay, not ahead of her.
        27: (
            "Ann takes the title of Viscount for 1 mountain, 1 field and 2 forest tokens "
            "(worth 17): +4 points (4 in all)",
            "Ann 支付 1 个山脉、1 个田野、2 个森林资源（价值 17），晋升为子爵：+4 分（共 4 分）",
        ),
        28: (
            "Fay's expedition lands a knight in the forest at (4, −1); another leaves the game "
            "for good",
            "Fay 远征：一名骑士登上森林 (4, −1)，另一名永久离开游戏",
        ),
        # Fay had 4 + 6.
        38: (
            "Fay founds a city at (1, −1): +10 points (20 in all)",
            "Fay 在 (1, −1) 建立城市：+10 分（共 20 分）",
        ),
        66: (
            "Fay moves a knight from (0, 1) to (1, 0) and drives off Ann's knight",
            "Fay 将 1 名骑士从 (0, 1) 移到 (1, 0)，击退 Ann 的 1 名骑士",
        ),
        73: (
            "Ann moves 2 knights from (2, −1) to (2, 0) and from (3, −2) to (2, −1), "
            "and drives off Fay's knight at (2, 0)",
            "Ann 将 2 名骑士从 (2, −1) 移到 (2, 0)，从 (3, −2) 移到 (2, −1)，"
            "在 (2, 0) 击退 Fay 的 1 名骑士",
        ),
        # [-4, 2] and [-3, 1] are both mountains.
        92: (
            "Fay builds a fortress at (−4, 2) and a village at (−3, 1): +2 mountain tokens",
            "Fay 在 (−4, 2) 建造要塞，在 (−3, 1) 建造村庄：山脉资源 +2",
        ),
        # 4 + 6 + 6 = 16; Fay's turn closes the round, so the match ends there (HE-15) and
        # the log has no final line: the winner is told here.
        94: (
            "Fay takes the title of Duke for 1 plains and 2 mountain tokens (worth 16): "
            "+12 points (50 in all); the match ends and tokens score Fay +4 and Ann +4 "
            "— Fay wins",
            "Fay 支付 1 个平原、2 个山脉资源（价值 16），晋升为公爵：+12 分（共 50 分）；"
            "对局结束，手中资源计分：Fay +4、Ann +4——Fay 获胜",
        ),
    },
    THREE: {
        130: ("Cid has no legal action and passes", "Cid 无合法行动，跳过本回合"),
        # Gus's 40 passes Cid's 38; Ann still has her turn in the round.
        155: (
            "Gus takes the title of Duke for 1 plains, 1 mountain and 1 field tokens "
            "(worth 15): +12 points (40 in all), now leads; the match ends when this round "
            "is over",
            "Gus 支付 1 个平原、1 个山脉、1 个田野资源（价值 15），晋升为公爵：+12 分"
            "（共 40 分），跃居领先；本回合结束时对局结束",
        ),
    },
    SAMPLE: {
        85: (
            "Final scores: Ann 40, Bob 6 and Cid 38 — Ann wins",
            "最终得分：Ann 40、Bob 6、Cid 38——Ann 获胜",
        ),
    },
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(EXPECTED))
def test_hand_checked_steps(name: str, lang: str) -> None:
    said = told(name, lang)
    for index, (en, zh) in EXPECTED[name].items():
        assert said[index - 1] == (en if lang == "en" else zh), index


def test_a_move_names_each_leg_once_and_every_battle_it_wins() -> None:
    said = told(THREE, "en")
    # two knights the same way, then a village destroyed at one end of a two-ended move
    assert said[43] == (
        "Gus moves 2 knights from (4, −2) to (3, −1) and destroys Ann's village, "
        "looting a field token"
    )
    assert said[52] == (
        "Gus moves 2 knights from (3, −1) to (3, 0) and from (3, 0) to (2, 1), and destroys "
        "Cid's village at (3, 0), looting a plains token"
    )


def _words(*texts: str) -> set[str]:
    return {word for text in texts for word in re.findall(r"[A-Za-z]+", text)}


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name.split(".")[0])
def test_every_step_of_every_sample_in_both_languages(sample: Path) -> None:
    name = sample.name.split(".")[0]
    match, outcome = replayed(name)
    allowed = _words(*match.header.players)
    for lang in ("en", "zh"):
        said = told(name, lang)
        assert len(said) == len(outcome.steps)
        for step, text in zip(outcome.steps, said):
            where = (name, lang, step.index, text)
            assert text.strip(), where
            for bad in ("{", "}", "_", "None", "[", "{'", "<", "\n", "-"):
                assert bad not in text, where  # coordinates with a true minus sign
            if lang == "zh":
                foreign = [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in allowed]
                assert not foreign, where


@pytest.mark.parametrize("sample", SAMPLES[::20], ids=lambda p: p.name.split(".")[0])
def test_every_seat_is_told_what_everyone_is_told(sample: Path) -> None:
    """Heraldry hides nothing (`secrets` False): a seat's sentences are everyone's."""
    name = sample.name.split(".")[0]
    match, _ = replayed(name)
    assert not match.game.secrets
    for lang in ("en", "zh"):
        whole = told(name, lang)
        for seat in range(len(match.header.players)):
            assert told(name, lang, seat) == whole


def test_every_fact_key_and_event_kind_has_words_in_both_languages() -> None:
    words = every_label()
    keys = set()
    for sample in SAMPLES[:20]:
        _, outcome = replayed(sample.name.split(".")[0])
        for step in outcome.steps:
            keys.add(f"event_{type(step.event).__struct_config__.tag}")
            for fact in step.facts:
                row = msgspec.to_builtins(fact)
                keys.update(
                    row[k] for k in ("source", "track", "resource", "cause", "piece") if k in row
                )
    keys.discard("event_final")  # the claim every game's log may end with: shared words
    for kind in Event.__args__:
        keys.add(f"event_{kind.__struct_config__.tag}")
    for terrain in ("forest", "plains", "field", "mountain", "lake"):
        keys.update({terrain, f"he_in_{terrain}"})
    keys.update({"baron", "viscount", "count", "marquis", "duke"})
    missing = sorted(k for k in keys if set(words.get(k, {})) != {"en", "zh"})
    assert not missing


def _view(name: str, step: int, seat: int | None) -> dict[str, Any]:
    match, _ = replayed(name)
    return match.game.snapshot(match.game.view(state_at(match, step), seat))


def test_the_tables_have_headers_in_the_language_asked_for() -> None:
    match, _ = replayed(THREE)
    players = list(match.header.players)
    shown = tables(_view(THREE, 120, 0), players, "zh")
    assert [title for title, _ in shown] == [
        "爵位与得分",
        "持有资源",
        "棋子：版图上 / 储备中（− 远征中移出）。",
    ]
    for title, frame in shown:
        assert frame.height == len(players), title  # a row a player
        for column in frame.columns:
            assert re.search(r"[\u4e00-\u9fff]", column) and not re.search(
                r"[A-Za-z]{3,}", column
            ), (title, column)
    english = dict(tables(_view(THREE, 120, 0), players, "en"))
    assert list(english) == [
        "Titles and points",
        "Tokens held",
        "Pieces: on the map / in reserve (− gone on expeditions).",
    ]
    standing = english["Titles and points"]
    assert standing.row(0, named=True) == {
        "Player": "Cid",
        "Title": "Marquis",
        "Score": 38,
        "From cities": 20,
        "From titles": 18,
        "Tokens' end value": 0,
    }
    held = english["Tokens held"]
    assert held.columns == ["Player", "Forest", "Plains", "Field", "Mountain"]
    assert held.row(2) == ("Ann", 1, 0, 1, 0)
    pieces = english["Pieces: on the map / in reserve (− gone on expeditions)."]
    assert pieces.row(0) == ("Cid", "4 / 2 (−1)", "4 / 10", "2 / 0", "5 / 0")


def test_no_perspective_hides_anything_in_the_tables() -> None:
    """Nothing in Heraldry is hidden: every seat's tables are everyone's, tokens included."""
    match, _ = replayed(THREE)
    players = list(match.header.players)
    whole = tables(_view(THREE, 120, None), players, "en")
    for seat in range(len(players)):
        seen = tables(_view(THREE, 120, seat), players, "en")
        assert [(title, frame.rows()) for title, frame in seen] == [
            (title, frame.rows()) for title, frame in whole
        ]
        assert not any("hidden" in str(frame.rows()) for _, frame in seen)
