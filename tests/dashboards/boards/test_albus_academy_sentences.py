"""Albus Academy's move log in sentences, and its seats' panel as tables: hand-checked steps of
a bundled sample in both languages, every step of every bundled sample, and what a seat may
not see left unsaid."""

from __future__ import annotations

import functools
import gzip
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from dashboards.boards import board
from dashboards.boards.albus_academy import tables
from dashboards.boards.albus_academy.sentences import sentences
from dashboards.i18n import every_label, t
from ingest.files.catalogues import Library
from replay.game import HIDDEN
from replay.games.albus_academy.events import DrawHomework, Event, Rest
from replay.replayer import Match, Outcome, open_log, replay, state_at

ROOT = Path(__file__).parents[3]
SAMPLES = sorted((ROOT / "data" / "samples" / "albus-academy").glob("*.jsonl.gz"))
FIRST = "aa-0a002478-000000"  # Ann, Bob and Cid; the ruleset's one_each end
SWAPPED = "aa-be45fd9f-000003"  # Bob swaps Alchemy away on a rest (event 187)
CARD_ID = re.compile(r"\b[TSI]\d\d\b")


@functools.cache
def replayed(name: str) -> tuple[Match, Outcome]:
    path = ROOT / "data" / "samples" / "albus-academy" / f"{name}.jsonl.gz"
    match = open_log(gzip.decompress(path.read_bytes()), str(path), catalogues=Library())
    return match, replay(match)


def told(name: str, lang: str, seat: int | None = None) -> list[str]:
    match, outcome = replayed(name)
    return sentences(match, outcome.steps, lang, seat)


def test_the_game_tells_its_own_sentences():
    assert board("albus-academy").sentences is sentences


# Worked out by hand from the log, the catalogue and the rules.
EXPECTED = {
    9: (
        "Ann draws the item Focusing Lens (4 shards, 1 prestige)",
        "Ann 抽到物品聚焦透镜（4 碎片，1 声望）",
    ),
    18: (
        "Ann casts from the bottom-right corner (homework)",
        "Ann 从右下角施法（作业）",
    ),
    # I19 Piggy Bank: 3 shards, 1 prestige; her first homework.
    19: (
        "Ann completes the item Piggy Bank: Shards 3 → 0, +1 prestige (1 in all), "
        "Homework done 0 → 1",
        "Ann 完成物品存钱罐：碎片 3 → 0，声望 +1（共 1），已完成作业 0 → 1",
    ),
    20: (
        "Drawn to the public homework: the spell Meteor (9 will, 8 prestige)",
        "公共作业区翻出法术陨石术（9 意志，8 声望）",
    ),
    # Cid's cast closed when Ann's began: round 1 ended then. Bob and Cid have 3 shards
    # each and no homework: Bob leads as the first seat.
    24: (
        "Round 1 ends: Ann leads homework done 1 and prestige 1, Bob leads shards 3, "
        "Cid leads will 4. Ann casts from the top-right corner (will)",
        "第 1 回合结束：Ann 领先（已完成作业 1、声望 1），Bob 领先（碎片 3），"
        "Cid 领先（意志 4）。Ann 从右上角施法（意志）",
    ),
    27: (
        "Bob takes a tile (shard) from the public area",
        "Bob 从公共区拿取一块板块（碎片）",
    ),
    # T01 `ooo-` unturned at [1, 0]: its N half meets the nw corner's S, its S half the sw
    # corner's N; its E half faces an empty position.
    28: (
        "Bob places a tile (shard) on the middle row, 1st from left: Tiles placed 0 → 1, "
        "Whole links 0 → 2",
        "Bob 将一块板块（碎片）放在中排左起第 1 格：已放置板块 0 → 1，完整连接 0 → 2",
    ),
    # T19 `oo--` turned once is `-oo-`: its E half meets the se corner's W half.
    32: (
        "Cid places a tile (will + shard) on the bottom row, 3rd from left, turned 90°: "
        "Tiles placed 0 → 1, Whole links 0 → 1",
        "Cid 将一块板块（意志 + 碎片）放在下排左起第 3 格，旋转 90°：已放置板块 0 → 1，"
        "完整连接 0 → 1",
    ),
    39: (
        "Bob triggers the linked middle row, 1st from left (shard)",
        "Bob 触发相连的中排左起第 1 格（碎片）",
    ),
    40: ("Bob collects a shard: Shards 3 → 4", "Bob 收集碎片：碎片 3 → 4"),
    # S10 Renewal: 5 will, 2 prestige, ready+3; three positions chosen.
    44: (
        "Cid completes the spell Renewal: Will 5 → 0, +2 prestige (2 in all), "
        "Homework done 0 → 1, removes 3 exhaustion markers",
        "Cid 完成法术复苏术：意志 5 → 0，声望 +2（共 2），已完成作业 0 → 1，移除 3 个耗尽标记",
    ),
    59: (
        "Ann rests and clears the exhaustion markers",
        "Ann 休息，移除所有耗尽标记",
    ),
    # I09 Twin Chalice (6 shards, 2 prestige), Cid's 8th homework: the class dismissed card.
    366: (
        "Cid completes the item Twin Chalice: Shards 6 → 0, +2 prestige (11 in all), "
        "Homework done 7 → 8, takes the class dismissed card (+2 prestige, 13 in all) — the "
        "end is triggered",
        "Cid 完成物品双子圣杯：碎片 6 → 0，声望 +2（共 11），已完成作业 7 → 8，"
        "获得下课卡（声望 +2，共 13）——终局已触发",
    ),
    377: (
        "Final scores: Ann 12, Bob 25 and Cid 18 — Bob wins",
        "最终得分：Ann 12、Bob 25、Cid 18——Bob 获胜",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_hand_checked_steps(lang):
    said = told(FIRST, lang)
    for index, (en, zh) in EXPECTED.items():
        assert said[index - 1] == (en if lang == "en" else zh), index


def test_the_match_ends_with_the_end_of_game_prestige_and_the_scores():
    said = told(FIRST, "en")
    assert said[375] == (
        "Drawn to the public homework: the item Apprentice Wand (3 shards, 0 prestige): "
        "end-of-game abilities give Ann +1, Bob +3 and Cid +5 prestige; the match ends "
        "(Ann 12, Bob 25 and Cid 18)"
    )


def test_a_seat_hears_of_another_seats_private_homework_only_as_a_card():
    assert told(FIRST, "en", 1)[8] == "Ann draws a homework card"
    assert told(FIRST, "zh", 2)[8] == "Ann 抽了一张作业牌"
    assert told(FIRST, "en", 0)[8] == EXPECTED[9][0]  # her own, named
    assert told(SWAPPED, "en")[186] == (
        "Bob rests, clears the exhaustion markers and swaps the spell Alchemy for a new card"
    )
    assert told(SWAPPED, "en", 0)[186] == (
        "Bob rests, clears the exhaustion markers and swaps a homework card for a new one"
    )
    assert told(SWAPPED, "zh", 1)[186] == "Bob 休息，移除所有耗尽标记，并弃掉法术炼金术换一张新牌"


def _words(*texts: str) -> set[str]:
    return {word for text in texts for word in re.findall(r"[A-Za-z]+", text)}


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name.split(".")[0])
def test_every_step_of_every_sample_in_both_languages(sample):
    name = sample.name.split(".")[0]
    match, outcome = replayed(name)
    allowed = _words(*match.header.players)
    allowed |= _words(*(card.name for card in match.catalogue.homework.values()))
    for lang in ("en", "zh"):
        said = told(name, lang)
        assert len(said) == len(outcome.steps)
        for step, text in zip(outcome.steps, said):
            where = (name, lang, step.index, text)
            assert text.strip(), where
            for bad in ("{", "}", "_", "None", "[", "{'", "<", "\n"):
                assert bad not in text, where
            assert not CARD_ID.search(text), where  # components by name, never by id
            if lang == "zh":
                foreign = [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in allowed]
                assert not foreign, where


def _secrets(event: Event, seat: int, players: list[str]) -> list[str]:
    """The cards the event moves out of `seat`'s sight: another seat's private draw, or the
    card another seat swaps away on a rest."""
    if isinstance(event, DrawHomework) and event.to not in (None, players[seat]):
        return [event.card]
    if isinstance(event, Rest) and event.swap and event.player != players[seat]:
        return [event.swap]
    return []


@pytest.mark.parametrize("sample", SAMPLES[::10], ids=lambda p: p.name.split(".")[0])
def test_no_seat_hears_another_seats_hidden_card_named(sample):
    name = sample.name.split(".")[0]
    match, outcome = replayed(name)
    players = list(match.header.players)
    names = {card.id: card.name for card in match.catalogue.homework.values()}
    for seat in range(len(players)):
        for lang in ("en", "zh"):
            said = told(name, lang, seat)
            hidden = 0
            for step, text in zip(outcome.steps, said):
                for card in _secrets(step.event, seat, players):
                    hidden += 1
                    assert names[card] not in text and card not in text, (seat, step.index)
            assert hidden, "a sample where every other seat draws no private card"


def test_every_fact_key_and_event_kind_has_words_in_both_languages():
    words = every_label()
    keys = set()
    for sample in SAMPLES[:20]:
        _, outcome = replayed(sample.name.split(".")[0])
        for step in outcome.steps:
            keys.add(f"event_{type(step.event).__struct_config__.tag}")
            for fact in step.facts:
                row = msgspec.to_builtins(fact)
                keys.update(row[k] for k in ("source", "track", "resource", "cause") if k in row)
    keys.discard("event_final")  # the claim every game's log may end with: shared words
    for kind in Event.__args__:
        keys.add(f"event_{kind.__struct_config__.tag}")
    missing = sorted(k for k in keys if set(words.get(k, {})) != {"en", "zh"})
    assert not missing


def _view(name: str, step: int, seat: int | None) -> dict[str, Any]:
    match, _ = replayed(name)
    return match.game.snapshot(match.game.view(state_at(match, step), seat))


def test_the_tables_have_headers_in_the_language_asked_for():
    match, _ = replayed(FIRST)
    players = list(match.header.players)
    shown = tables(_view(FIRST, 63, 0), players, "zh")
    titles = [title for title, _ in shown]
    assert titles == [
        "施法中",
        "各座位",
        "Ann 的作业",
        "Bob 的作业",
        "Cid 的作业",
        "公共作业",
        "公共板块",
        "",
    ]
    for title, frame in shown:
        for column in frame.columns:
            assert re.search(r"[\u4e00-\u9fff]", column) and not re.search(
                r"[A-Za-z]{3,}", column
            ), (title, column)
    english = tables(_view(FIRST, 63, 0), players, "en")
    assert [title for title, _ in english][:3] == ["Casting", "The seats", "Ann's homework"]


def test_the_tables_name_the_cards_with_their_cost_and_effect():
    match, _ = replayed(FIRST)
    shown = dict(tables(_view(FIRST, 63, None), list(match.header.players), "en"))
    homework = shown["Ann's homework"]
    lens = homework.filter(homework["Name"] == "Focusing Lens").row(0, named=True)
    assert (lens["Held as"], lens["Cost"], lens["Prestige"]) == ("Item in hand", "4 shards", 1)
    assert lens["Effect"] == "use: pay 1 shard, +3 will"
    renewal = shown["Cid's homework"].row(0, named=True)  # Cid's hand is open to everyone
    assert renewal["Held as"] == "Spell in hand"
    done = shown["Cid's homework"].filter(shown["Cid's homework"]["Name"] == "Renewal")
    assert done.row(0, named=True)["Held as"] == "Spell completed"
    public = shown["Public homework"]
    assert public["Name"].to_list() == ["Focus", "Meteor", "Shard Rain"]
    assert public["Effect"].to_list()[0] == "once: +2 shards, remove an exhaustion marker"
    tiles = shown["Public tiles"]["Tile (what it does)"].to_list()
    assert not any(CARD_ID.search(tile) for tile in tiles)


def test_another_seats_hidden_hand_stays_hidden_in_the_tables():
    match, _ = replayed(FIRST)
    players = list(match.header.players)
    whole = _view(FIRST, 63, None)
    names = {card.id: card.name for card in match.catalogue.homework.values()}
    bobs = [names[c] for c in whole["seats"]["Bob"]["private"]["homework"]]
    seen = _view(FIRST, 63, 0)
    assert seen["seats"]["Bob"]["private"]["homework"] == [HIDDEN] * len(bobs)
    for lang, title, hidden in (
        ("en", "Bob's homework", "3 cards (hidden)"),
        ("zh", "Bob 的作业", "3 张（隐藏）"),
    ):
        shown = dict(tables(seen, players, lang))
        bob = shown[title]
        assert bob.rows() == [(t("aa_in_hand", lang), hidden, None, None, None)]
        assert not any(name in str(frame.rows()) for frame in shown.values() for name in bobs)
    ann = dict(tables(seen, players, "en"))["Ann's homework"]
    assert "Focusing Lens" in ann["Name"].to_list()
