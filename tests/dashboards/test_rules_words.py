"""Rules and refusals in words: every rule set, variant, option and setting a game registers has
a name in both languages, a rule set with changed settings reads "Albus Academy standard, final
turns: one each" wherever a page names it, and a refusal told to a person names components as
the move log does, where the command line keeps the engine's ids."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.boards.knight_academy.sentences import card
from dashboards.i18n import LANGUAGES, every_label
from dashboards.refusals import game_of_rule, in_game_words
from dashboards.rulesets import catalogue_words, key_words, played_under, rules_words, value_words
from ingest.warehouse.warehouse import open_reader
from replay.registry import GAMES

from .conftest import ROOT

APP = str(ROOT / "dashboards" / "app.py")
AA_ONE_EACH = 'albus-academy/standard {"final_turns":"one_each"}'


def _literals(kind: Any) -> Iterator[str]:
    """Every string a setting's type allows by name (a Literal anywhere inside it)."""
    if typing.get_origin(kind) is typing.Literal:
        yield from (v for v in typing.get_args(kind) if isinstance(v, str))
        return
    for inner in typing.get_args(kind):
        if not isinstance(inner, msgspec.Meta):
            yield from _literals(inner)


def test_every_rule_set_variant_option_and_setting_has_a_name_in_both_languages():
    labels = every_label()
    for name, game in GAMES.items():
        keys = [f"ruleset:{ruleset}" for ruleset in game.rulesets]
        keys += [*game.variants, *(game.simulation.variants if game.simulation else ())]
        keys += [f"option_{option}" for option in game.options]
        fields = msgspec.structs.fields(game.config_type)
        keys += [f"setting:{name}/{field.name}" for field in fields]
        for key in keys:
            assert set(LANGUAGES) <= set(labels.get(key, {})), f"{name}: no name for {key}"
        for field in fields:
            for value in _literals(field.type):
                for lang in LANGUAGES:
                    said = value_words(name, field.name, value, lang)
                    words = {entry[lang] for entry in labels.values()}
                    assert said in words, f"{name}: {field.name}={value} has no words in {lang}"


def test_a_rule_set_with_changed_settings_reads_in_words_in_both_languages():
    assert key_words(AA_ONE_EACH, "en") == "Albus Academy standard, final turns: one each"
    assert key_words(AA_ONE_EACH, "zh") == "阿不思学院标准规则，终局回合：其他玩家各一回合"
    assert key_words('knight-academy/standard {"quest_prizes":[12,8,4]}', "zh") == (
        "骑士学院标准规则，任务奖励：12、8、4"
    )
    assert key_words("knight-academy/advanced", "en") == "Knight Academy advanced"
    assert rules_words("knight-academy/standard", {"boards": ["quest"]}, "en", False) == (
        "standard, variant boards: Quest by shields"
    )
    # a rule set no game registers is named as it was given
    assert key_words("club/house-rules", "en") == "club/house-rules"


def test_a_match_caption_names_its_rules_and_catalogue_in_words():
    fields = {"format": "squire-log/1", "game_id": "x", "players": ["Ann", "Bob"]}
    header = msgspec.convert(
        {
            **fields,
            "game": "knight-academy",
            "variant": "lancelot",
            "ruleset": "knight-academy/all-boards",
            "rules": {"lifts": 1},
        },
        GAMES["knight-academy"].header_type,
    )
    said = played_under(header, None, "en")
    assert said == [
        "Lancelot (colours)",
        "with all six variant boards, lifts of the start player's disc: 1",
    ]
    header = msgspec.convert(
        {**fields, "game": "knight-academy"}, GAMES["knight-academy"].header_type
    )
    assert played_under(header, None, "zh") == ["基础版"]  # the standard rules go unsaid
    assert catalogue_words("paladins", "squire-sample", "1", "zh") == "squire 示例卡牌"
    assert catalogue_words("paladins", "my-cards", "2", "en") == "my-cards 2"


def test_a_refusal_names_cards_as_the_move_log_does():
    message = "Bob picks sword-3 but holds king-2, charity-3"
    assert in_game_words(message, "knight-academy", "en") == (
        "Bob picks Sword 3 but holds King 2, Charity 3"
    )
    assert in_game_words(message, "knight-academy", "zh") == (
        f"Bob picks {card('sword-3', 'zh')} but holds {card('king-2', 'zh')}, "
        f"{card('charity-3', 'zh')}"
    )
    # a player's name stays as it is, even where it reads like a card
    named = in_game_words("sword-3 passes", "knight-academy", "en", players=["sword-3"])
    assert named == "sword-3 passes"
    assert in_game_words("pal-01 is not in the townsfolk display", "paladins", "en") == (
        "Aldric is not in the townsfolk display"
    )
    assert in_game_words("S05 is not one of Ann's private homework", "albus-academy", "en") == (
        "the spell Second Wind is not one of Ann's private homework"
    )
    assert game_of_rule("KA-5") == "knight-academy" and game_of_rule("LOG-3") is None


@pytest.fixture
def app(warehouse, monkeypatch):
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(warehouse))

    def open_page(page: str, lang: str = "en", of: str | None = None, **params: str):
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params["lang"] = lang
        if of:
            at.session_state["filter-game"] = of
        for key, value in params.items():
            at.query_params[key] = value
        at.run()
        at.switch_page(f"app_pages/{page}.py")
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    return open_page


def _cells(at: AppTest) -> list[str]:
    return [str(v) for frame in at.dataframe for v in frame.value.to_numpy().ravel()]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("page", ["win_rates", "balance"])
def test_the_statistics_name_a_rule_set_in_words(app, page, lang):
    at = app(page, lang, "albus-academy")
    cells = _cells(at)
    assert key_words(AA_ONE_EACH, lang) in cells
    assert not [c for c in cells if "albus-academy/" in c or "final_turns" in c]
    chosen = at.multiselect(key="filter-ruleset")
    assert key_words(AA_ONE_EACH, lang) in chosen.options
    if page == "balance":
        assert key_words(AA_ONE_EACH, lang) in at.selectbox(key="ruleset-a").options


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_viewer_caption_names_rules_and_catalogue_in_words(app, warehouse, lang):
    reader = open_reader(warehouse)
    (lancelot,) = reader.execute(
        "SELECT min(game_id) FROM games WHERE ruleset_key = ? AND variant = 'lancelot'",
        ['knight-academy/all-boards {"lifts":1}'],
    ).fetchone()
    (paladins,) = reader.execute(
        "SELECT min(game_id) FROM games WHERE game = 'paladins'"
    ).fetchone()
    for game_id, words in (
        (lancelot, rules_words("knight-academy/all-boards", {"lifts": 1}, lang, False)),
        (paladins, "squire 示例卡牌" if lang == "zh" else "squire's sample cards"),
    ):
        at = app("viewer", lang, game=game_id, step="5")
        caption = " ".join(c.value for c in at.caption).replace("\\", "").replace("\u2060", "")
        assert words in caption
        assert "knight-academy/" not in caption and "squire-sample" not in caption


def test_the_record_form_names_the_rule_sets_in_words(app):
    at = app("record")
    options = at.selectbox(key="rec-ruleset-knight-academy").options
    assert "advanced" in options and "with all six variant boards" in options
    assert not [o for o in options if "knight-academy/" in o]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_upload_reject_is_shown_in_the_games_words(tmp_path, monkeypatch, lang):
    good = (ROOT / "tests" / "knight_academy" / "logs" / "ka-example-3p.jsonl").read_bytes()
    pick = b'{"kind": "pick", "player": "Fay", "card": "sword-3"}'
    bad = good.replace(pick, pick.replace(b"sword-3", b"quest-5"), 1)
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(tmp_path / "uploads"))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("app_pages/upload.py").run()
    at.get("file_uploader")[0].upload("bad.jsonl", bad)
    at.run()
    at.button(key="ingest").click().run()
    assert not at.exception, [e.value for e in at.exception]
    rejects = at.dataframe[0].value
    held = ["sword-3", "sword-5", "charity-5", "quest-2", "quest-4"]
    said = f"Fay picks {card('quest-5', lang)} but holds {', '.join(card(c, lang) for c in held)}"
    assert rejects["message"].tolist() == [said]
