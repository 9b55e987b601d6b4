"""Paladins' move log in sentences, its board and its seats' panel: hand-checked steps of a
bundled sample and of the example log in both languages, every step of every bundled sample,
a chosen paladin left unsaid to the other seats, rewards in words, and every component by
its name on the board and in the tables."""

from __future__ import annotations

import functools
import gzip
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest
import streamlit as st

from dashboards.boards import board
from dashboards.boards.paladins import figure, tables, words
from dashboards.boards.paladins.labels import LABELS
from dashboards.boards.paladins.sentences import sentences
from dashboards.i18n import every_label
from ingest.files.catalogues import Library
from replay.game import HIDDEN
from replay.games.paladins.events import ChoosePaladin, Event
from replay.replayer import Match, Outcome, open_log, replay, state_at

ROOT = Path(__file__).parents[3]
SAMPLES = sorted((ROOT / "data" / "samples" / "paladins").glob("*.jsonl.gz"))
FIRST = "pa-74d8ee29-000000"  # Ann, Bob and Cid
EXAMPLE = ROOT / "tests" / "paladins" / "logs" / "pa-example-2p.jsonl"
CARD_ID = re.compile(r"\b(tf|out|pal|tav|ord|fav|sus|wall)-\d+\b|\br\d-\d\b")


@functools.cache
def replayed(name: str) -> tuple[Match, Outcome]:
    path = ROOT / "data" / "samples" / "paladins" / f"{name}.jsonl.gz"
    match = open_log(gzip.decompress(path.read_bytes()), str(path), catalogues=Library())
    return match, replay(match)


@functools.cache
def example() -> tuple[Match, Outcome]:
    match = open_log(EXAMPLE.read_bytes(), str(EXAMPLE), catalogues=Library())
    return match, replay(match)


def told(name: str, lang: str, seat: int | None = None) -> list[str]:
    match, outcome = replayed(name)
    return sentences(match, outcome.steps, lang, seat)


def test_the_game_tells_its_own_sentences() -> None:
    assert board("paladins").sentences is sentences


# Worked out by hand from the log, the catalogue (paladins-catalogue.md §5) and the rules.
EXPECTED = {
    3: (
        "The king's order 1: Border Watch (at the end: 4 VP for at least 4 outposts)",
        "国王第 1 道命令：边境守望（终局：至少 4 个前哨得 4 胜利分）",
    ),
    4: (
        "The tavern offers: white, red, black and purple; two blue, red and white; "
        "two white, green and blue; black, white, blue and red",
        "酒馆提供：白、红、黑、紫；蓝×2、红、白；白×2、绿、蓝；黑、白、蓝、红",
    ),
    5: (
        "Ann chooses Isembard, puts Lisette back on top and Delphine at the bottom",
        "Ann 选择伊森巴德，将莉塞特放回牌堆顶，德尔菲娜放到牌堆底",
    ),
    # Isembard's workers are black and blue (PA-11); tav-01's white, white, green and blue.
    8: (
        "Ann reveals Isembard (black and blue workers) and takes two white, green and blue "
        "workers from the tavern",
        "Ann 亮出伊森巴德（一个黑色和一个蓝色工人），从酒馆拿取两个白色、一个绿色和一个蓝色工人",
    ),
    # Almoner costs 2 silver; its quest gives 3 VP (one worker: the card is discarded, PA-21).
    12: (
        "Bob does Almoner's quest with a white worker: pays 2 silver, +3 VP",
        "Bob 用一个白色工人完成施赈官的任务：支付 2 银币，+3 胜利分",
    ),
    # Jar spot 7 gives 5 VP, then +1 faith (PA-34); the first jar's 1 silver is Isembard's
    # discount off.
    11: (
        "Ann absolves with black, white and blue workers, a jar on spot 7 (5 VP): "
        "faith 0 → 1, +5 VP",
        "Ann 用一个黑色、一个白色和一个蓝色工人赦罪，罐子放在第 7 格（5 胜利分）："
        "信仰 0 → 1，+5 胜利分",
    ),
    19: (
        "Bob draws a suspicion card (tax 1 silver): +1 silver",
        "Bob 抽到嫌疑卡（税 1 银币）：+1 银币",
    ),
    20: (
        "Cid does Carpenter's quest with a red worker, paying with a debt: +3 provisions, "
        "+1 white worker",
        "Cid 用一个红色工人完成木匠的任务，以欠债代替付款：+3 给养，+1 个白色工人",
    ),
    # Aldric's +2 strength against Longship Crew's 7: 5 missing, 3 silver (PA-53); the attack
    # gives 2 influence and 2 VP, Aldric 1 VP more.
    22: (
        "Bob attacks Longship Crew with purple and two red workers: pays 3 silver, "
        "influence 0 → 2, +2 VP, +1 VP (Aldric)",
        "Bob 用一个紫色和两个红色工人攻击长船船员：支付 3 银币，影响力 0 → 2，"
        "+2 胜利分，+1 胜利分（奥德里克）",
    ),
    # The last pass ends round 1: Ann's faith 2, Bob's influence 2 and 6 VP lead.
    28: (
        "Cid passes, keeping black and purple workers; round 1 ends, leading: faith Ann (2), "
        "influence Bob (2), VP Bob (6)",
        "Cid 跳过，保留一个黑色和一个紫色工人；第 1 轮结束，领先：信仰 Ann（2）、"
        "影响力 Bob（2）、胜利分 Bob（6）",
    ),
    29: (
        "New townsfolk: Abbess, Farmer, Baker and Scout Captain",
        "新市民：女修道院长、农夫、面包师和斥候队长",
    ),
    # r2-6 gives 2 VP; the first monk costs 1 provision and reveals +1 faith.
    41: (
        "Ann sends a monk with two green and black workers to region 2, square 6 (2 VP): "
        "pays 1 provision, faith 2 → 3, +2 VP",
        "Ann 用两个绿色和一个黑色工人派修士到第 2 区第 6 格（2 胜利分）：支付 1 给养，"
        "信仰 2 → 3，+2 胜利分",
    ),
    # Scout Captain (in Cid's team since step 40) gives 1 VP after Cid's garrison.
    55: (
        "Cid garrisons an outpost with purple, black and red workers in region 1, square 5 "
        "(2 silver): pays 1 provision, +2 silver, strength 0 → 1, +1 VP (Scout Captain)",
        "Cid 用一个紫色、一个黑色和一个红色工人在第 1 区第 5 格（2 银币）驻守前哨："
        "支付 1 给养，+2 银币，武力 0 → 1，+1 胜利分（斥候队长）",
    ),
    61: (
        "The king's favour: Open Court (workers: any; 2 silver; recruit a displayed "
        "townsfolk for free)",
        "国王恩惠：开放朝堂（工人：任意；2 银币；免费招募一名展示中的市民）",
    ),
    79: (
        "Cid takes the king's favour Open Court with a blue worker, recruiting Armourer: "
        "pays 2 silver, +1 red worker",
        "Cid 用一个蓝色工人使用国王恩惠开放朝堂，招募铸甲匠：支付 2 银币，+1 个红色工人",
    ),
    # sus-08 carries the inquisition: Cid (with it) and Ann hold 3 suspicion cards (PA-58).
    167: (
        "Cid draws a suspicion card (tax 2 silver, inquisition): +2 silver, "
        "−2 VP (inquisition), Ann −2 VP (inquisition)",
        "Cid 抽到嫌疑卡（税 2 银币，宗教审判）：+2 银币，−2 胜利分（宗教审判），"
        "Ann −2 胜利分（宗教审判）",
    ),
    181: (
        "Ann passes with no worker left; the game ends: Bob 44, Ann 39 and Cid -9",
        "Ann 跳过，手上已无工人；游戏结束：Bob 44 分、Ann 39 分和 Cid -9 分",
    ),
}


@pytest.mark.parametrize("index", sorted(EXPECTED))
def test_hand_checked_sentences_in_both_languages(index: int) -> None:
    english, chinese = EXPECTED[index]
    assert told(FIRST, "en")[index - 1] == english
    assert told(FIRST, "zh")[index - 1] == chinese


# The example of paladins-catalogue.md §6, written out beside the log.
EXAMPLE_EXPECTED = {
    # Lisette's +1 strength against Lost Legion's 8: 7 missing, 4 silver; it gives 2
    # influence, 1 strength and 2 silver.
    9: (
        "Bob attacks Lost Legion with green, blue and purple workers: pays 4 silver, "
        "+2 silver, influence 0 → 2, strength 0 → 1",
        "Bob 用一个绿色、一个蓝色和一个紫色工人攻击失落军团：支付 4 银币，+2 银币，"
        "影响力 0 → 2，武力 0 → 1",
    ),
    11: (
        "Ann draws a wall that gives 2 strength, 1 silver: +1 silver, strength 0 → 2",
        "Ann 抽到城墙：2 武力、1 银币：+1 银币，武力 0 → 2",
    ),
    # develop costs 4 silver, 1 less with Lisette (PA-59); workshop 2's worker is white.
    14: (
        "Bob develops a workshop on absolve with two white workers: pays 3 silver, +1 white worker",
        "Bob 用两个白色工人在“赦罪”上建工坊：支付 3 银币，+1 个白色工人",
    ),
    # Jorun's 3 strength and Bob's 1 against River Pirates' 5: 1 missing, 1 silver, which
    # Jorun's discount of 2 takes off.
    31: (
        "Bob attacks River Pirates with green and two red workers: +1 silver, influence 2 → 4",
        "Bob 用一个绿色和两个红色工人攻击河盗：+1 银币，影响力 2 → 4",
    ),
}


@pytest.mark.parametrize("index", sorted(EXAMPLE_EXPECTED))
def test_hand_checked_sentences_of_the_example_log(index: int) -> None:
    match, outcome = example()
    english, chinese = EXAMPLE_EXPECTED[index]
    assert sentences(match, outcome.steps, "en", None)[index - 1] == english
    assert sentences(match, outcome.steps, "zh", None)[index - 1] == chinese


def _allowed(match: Match) -> list[str]:
    """The words a Chinese sentence may hold in Latin letters: the players' names and the
    catalogue's card names, longest first."""
    names = {
        entry.name
        for kind in match.catalogue.entries.values()
        for entry in kind.values()
        if getattr(entry, "name", "")
    }
    return sorted({*match.header.players, *names}, key=len, reverse=True)


def _check(match: Match, lines: list[str], lang: str) -> None:
    allowed = _allowed(match)
    for line in lines:
        assert line, "a sentence for every step"
        for wrong in ("{", "}", "_", "None", "[", "{'", "<", ">"):
            assert wrong not in line, line
        assert not CARD_ID.search(line), line
        if lang == "zh":
            rest = line
            for word in allowed:
                rest = rest.replace(word, "")
            assert not re.search(r"[A-Za-z]{3,}", rest), line


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name.split(".")[0])
def test_every_step_of_every_sample_is_told_in_both_languages(path: Path) -> None:
    name = path.name.split(".")[0]
    match, outcome = replayed(name)
    for lang in ("en", "zh"):
        lines = told(name, lang)
        assert len(lines) == len(outcome.steps)
        _check(match, lines, lang)


def test_every_perspective_of_a_sample_is_told() -> None:
    match, outcome = replayed(FIRST)
    for seat in range(len(match.header.players)):
        for lang in ("en", "zh"):
            lines = told(FIRST, lang, seat)
            assert len(lines) == len(outcome.steps)
            _check(match, lines, lang)


@pytest.mark.parametrize("path", SAMPLES[:12], ids=lambda p: p.name.split(".")[0])
def test_a_paladin_chosen_by_another_seat_is_never_named_to_it(path: Path) -> None:
    name = path.name.split(".")[0]
    match, outcome = replayed(name)
    players = list(match.header.players)
    for seat, player in enumerate(players):
        lines = told(name, "en", seat)
        for step, line in zip(outcome.steps, lines, strict=True):
            event = step.event
            if not isinstance(event, ChoosePaladin):
                continue
            secret = [
                words.name(c, "en", match.catalogue)
                for c in (event.paladin, event.top, event.bottom)
            ]
            if event.player == player:
                assert all(n in line for n in secret), line
            else:
                assert line == f"{event.player} chooses a paladin face down"
                assert not any(n in line for n in secret), line


def test_a_chosen_paladin_shows_to_everyone_once_its_player_takes_the_tavern_card() -> None:
    assert told(FIRST, "en", 1)[4] == "Ann chooses a paladin face down"
    assert told(FIRST, "zh", 1)[4] == "Ann 面朝下选择了一名圣骑士"
    assert told(FIRST, "en", 0)[4] == EXPECTED[5][0]
    assert told(FIRST, "en", 1)[7] == EXPECTED[8][0]  # PA-11: revealed with the tavern card


def test_events_of_every_kind_have_their_words() -> None:
    kinds = {tag for tag in (t.__struct_config__.tag for t in Event.__args__)}
    labels = every_label()
    for kind in kinds:
        assert f"event_{kind}" in labels, kind
    for key, entry in LABELS.items():
        assert set(entry) == {"en", "zh"} and all(entry.values()), key
    # every source, track, cause and resource the facts use, in both languages (white and
    # black are Knight Academy's knights: the sentences say colours through pa_colour_*)
    keys: set[str] = set()
    for path in SAMPLES[:10]:
        _, outcome = replayed(path.name.split(".")[0])
        for step in outcome.steps:
            for fact in step.facts:
                data = msgspec.to_builtins(fact)
                keys |= {data[k] for k in ("source", "track", "cause", "piece") if k in data}
                if "resource" in data and data["resource"] not in ("white", "black"):
                    keys.add(data["resource"])
    missing = sorted(k for k in keys if k not in labels)
    assert missing == []


def test_rewards_in_words_as_a_square_shows_them() -> None:
    assert words.gives("1silver 2prov 1vp", "en") == "1 silver, 2 provisions · 1 VP"
    assert words.gives("1silver 2prov 1vp", "zh") == "1 银币、2 给养 · 1 胜利分"
    assert words.gives("1silver/2prov 1vp", "en") == "1 silver or 2 provisions · 1 VP"
    assert words.gives("1silver/2prov 1vp", "zh") == "1 银币或 2 给养 · 1 胜利分"
    assert words.gives("1red 2vp", "en") == "1 red worker · 2 VP"
    assert words.gives("2white", "en") == "2 white workers"
    assert words.gives("1repay 3vp", "en") == "1 debt repaid · 3 VP"
    assert words.gives("1faith 1str 1inf", "en") == "1 faith, 1 strength, 1 influence"
    assert words.gives("1faith 1str 1inf", "zh") == "1 信仰、1 武力、1 影响力"
    assert words.gives("4vp", "zh") == "4 胜利分"
    assert words.gives("-", "en") == "nothing"
    assert words.gives({"prov": 1}, "en") == "1 provision"
    assert words.workers(["red", "red"], "en") == "two red workers"
    assert words.workers(["black", "white", "blue"], "zh") == "一个黑色、一个白色和一个蓝色工人"


def _view(seat: int | None, step: int = 30) -> tuple[dict[str, Any], list[str]]:
    match = open_log(EXAMPLE.read_bytes(), str(EXAMPLE), catalogues=Library())
    state = state_at(match, step)
    return match.game.snapshot(match.game.view(state, seat)), list(match.header.players)


def test_the_board_draws_each_square_as_what_it_gives_and_names_it_on_hover() -> None:
    st.session_state["lang"] = "en"
    view, players = _view(None)
    fig = figure(view, players, None)
    squares, text = fig.data[0], list(fig.data[0].text)
    assert len(fig.layout.shapes) == len(view["board"]) == 30
    assert "2 silver<br>1 VP" in text  # r2-1 2silver 1vp, a line a thing
    assert not any(re.search(r"\d(silver|prov|vp|str|inf|faith)", s) for s in text)
    hovers = list(squares.hovertext)
    assert "Region 2, square 1 · 2 silver · 1 VP · monk: faith 2 · outpost: strength 3" in hovers
    # Ann's monk on r1-3 (step 30): named with the square on hover
    mine = next(trace for trace in fig.data[1:] if trace.name == "Ann")
    assert any("Ann's monk" in h and "1 white worker" in h for h in mine.hovertext)


def test_the_panel_names_every_card_with_what_it_costs_and_does() -> None:
    view, players = _view(None)
    frames = dict(tables(view, players, "en"))
    folk = frames["Townsfolk"]
    cat = next(c for c in words.catalogue() if c.name == "squire-sample")
    for card in view["townsfolk"]:
        if card:
            assert words.name(card, "en", cat) in folk["Name"].to_list()
    assert all(e and not CARD_ID.search(e) for e in folk["Effect"].to_list())
    king = frames["The king's orders and favours"]
    assert "Iron and Grace" in king["Name"].to_list()
    cells = " ".join(str(v) for _, f in tables(view, players, "en") for v in f.to_numpy().ravel())
    assert not CARD_ID.search(cells), CARD_ID.search(cells)


def test_tables_have_chinese_headers_and_keep_another_seats_paladin_hidden() -> None:
    # Step 6: both paladins chosen, none revealed yet (PA-10, PA-11).
    view, players = _view(1, step=6)
    assert view["seats"]["Ann"]["private"]["paladin"] == HIDDEN
    frames = tables(view, players, "zh")
    seats = frames[0][1]
    assert seats.columns[:3] == ["玩家", "圣骑士", "得分"]
    assert all(re.search(r"[\u4e00-\u9fff]", c) for _, f in frames for c in f.columns)
    row = dict(zip(seats["玩家"], seats["圣骑士"], strict=True))
    assert row["Ann"] == "隐藏" and row["Bob"].startswith("莉塞特")  # Lisette, in Chinese
    cells = " ".join(str(v) for _, f in frames for v in f.to_numpy().ravel())
    assert "德尔菲娜" not in cells and "Delphine" not in cells  # Ann's, face down to Bob
    english = dict(tables(view, players, "en"))
    assert "Delphine" not in " ".join(
        str(v) for f in english.values() for v in f.to_numpy().ravel()
    )


def test_a_run_of_steps_from_the_middle_reads_as_the_whole_match_does() -> None:
    match, outcome = replayed(FIRST)
    whole = told(FIRST, "en")
    assert sentences(match, outcome.steps[150:170], "en", None) == whole[150:170]
