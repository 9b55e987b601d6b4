"""Knight Academy's move log in sentences, and its seats' panel as tables: hand-checked steps of
the example logs in both languages (the base game, lancelot, the variant boards, the advanced
rules, gawain), every step of every bundled sample, and what a seat is told against what its
view shows."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from dashboards.boards import board
from dashboards.boards.knight_academy import tables
from dashboards.boards.knight_academy.sentences import sentences
from dashboards.i18n import every_label
from replay.game import HIDDEN
from replay.games.knight_academy.config import CARD_TRACKS, TRACKS
from replay.games.knight_academy.events import Event, Pick
from replay.games.knight_academy.scoring import SOURCES
from replay.log import Final
from replay.replayer import Match, Outcome, start, state_at
from tests.dashboards.boards import replayed as shared

ROOT = Path(__file__).parents[3]
SAMPLES = sorted((ROOT / "data" / "samples" / "knight-academy").glob("*.jsonl.gz"))
LOGS = ROOT / "tests" / "knight_academy" / "logs"
THREE = "ka-example-3p"  # Ann, Cid, Fay (in that seat order), Cid starts; no final line
LANCELOT = "ka-example-lancelot"  # Ann (blue, green) and Bob (yellow, red), one round
BOARDS = "ka-example-boards-3p"  # Ann, Bob, Cid; all six variant boards, two short rounds
ADVANCED = "ka-example-advanced-3p"  # the base example's first round with KA-21
GAWAIN = "ka-example-gawain"  # Ann and Dee with the neutral Gawain


def replayed(name: str) -> tuple[Match, Outcome]:
    return shared.replayed("knight-academy", name)


def told(name: str, lang: str, seat: int | None = None) -> list[str]:
    return shared.told("knight-academy", name, lang, seat)


def test_the_game_tells_its_own_sentences() -> None:
    assert board("knight-academy").sentences is sentences


# Worked out by hand from the logs and the rules (KA-n), told to everyone (seat None).
EXPECTED: dict[str, dict[int, tuple[str, str]]] = {
    THREE: {
        1: (
            "Round 1 (Cid starts): Fay is dealt Sword 3, Sword 5, Charity 5, Quest 2 and Quest 4",
            "第 1 轮（Cid 先手）：Fay 拿到剑 3、剑 5、慈善 5、任务 2 和任务 4",
        ),
        # round 1 passes left: Fay (the third seat) to Ann (the first)
        4: (
            "Fay keeps Sword 3 and passes Sword 5, Charity 5, Quest 2 and Quest 4 to Ann",
            "Fay 留下剑 3，把剑 5、慈善 5、任务 2 和任务 4 传给 Ann",
        ),
        25: ("Cid plays Sword 3 on Tournament: 0 → 3", "Cid 将剑 3 打在骑士竞技上：0 → 3"),
        # Fay's quest at 2, Cid's at 4: Ann lands on Cid's square, on top of it (KA-8)
        30: (
            "Ann plays Quest 4: Quest 0 → 4, passes Fay and Cid",
            "Ann 打出任务 4：任务 0 → 4，超过 Fay 和 Cid",
        ),
        # Cid alone has courage; joust Fay 3, tournament Cid 3, education Fay 4 and two at 0
        # (KA-12: both −3, nobody −1); totals Fay 3, Cid 0, Ann −3
        31: (
            "Cid, 1st in courage, moves 3 on Courage: 2 → 5. Round 1 scoring — Joust: Fay +3; "
            "Tournament: Cid +3; Education: Ann and Cid −3. After round 1, Fay leads with 3 points",
            "Cid（骑士风度第 1）在骑士风度上前进 3 格：2 → 5。第 1 轮计分——马上比武：Fay +3；"
            "骑士竞技：Cid +3；教育：Ann、Cid −3。第 1 轮后，Fay 以 3 分领先",
        ),
        62: ("Fay, 2nd in courage, declines the bonus of 2", "Fay（骑士风度第 2）放弃 2 格的奖励"),
        # Ann's king at 2 is passed; joust Cid 4, Fay 3; tournament Ann 5, Cid 3; education
        # Ann 9, Fay 7, Cid 2
        63: (
            "Cid, 1st in courage, moves 3 on King's service: 0 → 3, passes Ann. Round 2 scoring "
            "— Joust: Cid +3, Fay +2; Tournament: Ann +3, Cid +2; Education: Cid −3, Fay −1. "
            "After round 2, Fay leads with 4 points",
            "Cid（骑士风度第 1）在为国王服务上前进 3 格：0 → 3，超过 Ann。第 2 轮计分——"
            "马上比武：Cid +3、Fay +2；骑士竞技：Ann +3、Cid +2；教育：Cid −3、Fay −1。"
            "第 2 轮后，Fay 以 4 分领先",
        ),
        # Fay's king: 2, +4, +3, +4 = 12, the cap (KA-7)
        90: (
            "Fay plays King 5: King's service stays at its cap of 12",
            "Fay 打出国王 5：为国王服务已在上限 12，未前进",
        ),
        # KA-13: king 6 → +6, 12 → +12; KA-16: the resets; Fay 4 − 1 + 12 = 15
        95: (
            "Cid, 1st in courage, declines the bonus of 3. Round 3 scoring — Joust: Ann +3, "
            "Cid +2; Tournament: Ann +3, Cid +2; Education: Cid −3, Fay −1; King's service: "
            "Cid +6, Fay +12. Courage, Joust, Tournament, Education and King's service go back "
            "to 0. After round 3, Fay leads with 15 points",
            "Cid（骑士风度第 1）放弃 3 格的奖励。第 3 轮计分——马上比武：Ann +3、Cid +2；"
            "骑士竞技：Ann +3、Cid +2；教育：Cid −3、Fay −1；为国王服务：Cid +6、Fay +12。"
            "骑士风度、马上比武、骑士竞技、教育和为国王服务归零。第 3 轮后，Fay 以 15 分领先",
        ),
        # KA-4: 45 of 52 cards dealt, 7 left for 15
        96: (
            "Round 4 (Cid starts): the discards are shuffled into the deck; Fay is dealt "
            "Sword 4, Quest 2, King 2, Courage 2 and King 3",
            "第 4 轮（Cid 先手）：弃牌洗回牌堆；Fay 拿到剑 4、任务 2、国王 2、骑士风度 2 和国王 3",
        ),
        # no final line: the last step says who won (Ann 22, Cid 26, Fay 16)
        191: (
            "Cid, 1st in courage, moves 3 on Courage: 13 → 16. Round 6 scoring — Joust: Ann +3, "
            "Cid +2; Tournament: Cid +3, Fay +2; Education: Ann −3, Fay −1; King's service: "
            "Fay +12; Charity: Fay −10, Cid −5; Quest: Cid +17, Ann +10. The match is over: Cid "
            "wins with 26 points",
            "Cid（骑士风度第 1）在骑士风度上前进 3 格：13 → 16。第 6 轮计分——马上比武：Ann +3、"
            "Cid +2；骑士竞技：Cid +3、Fay +2；教育：Ann −3、Fay −1；为国王服务：Fay +12；"
            "慈善：Fay −10、Cid −5；任务：Cid +17、Ann +10。对局结束：Cid 以 26 分获胜",
        ),
    },
    LANCELOT: {
        3: (
            "Ann splits their hand: pile 1 (Charity 5, Courage 4 and King 4) and pile 2 "
            "(Sword 3, Sword 4 and Sword 5)",
            "Ann 将手牌分成两堆：第 1 堆（慈善 5、骑士风度 4 和国王 4）"
            "和第 2 堆（剑 3、剑 4 和剑 5）",
        ),
        4: (
            "Bob splits their hand: pile 1 (Charity 2, Courage 2 and Education 3) and pile 2 "
            "(Education 4, Sword 3 and Sword 3); the piles are turned face up",
            "Bob 将手牌分成两堆：第 1 堆（慈善 2、骑士风度 2 和教育 3）"
            "和第 2 堆（教育 4、剑 3 和剑 3）；双方的牌堆翻开",
        ),
        5: (
            "Ann takes Bob's pile 1 (Charity 2, Courage 2 and Education 3)",
            "Ann 拿走 Bob 的第 1 堆（慈善 2、骑士风度 2 和教育 3）",
        ),
        6: (
            "Bob takes Ann's pile 1 (Charity 5, Courage 4 and King 4); each keeps their own "
            "pile the other left",
            "Bob 拿走 Ann 的第 1 堆（慈善 5、骑士风度 4 和国王 4）；双方各自留下对方没选的那堆",
        ),
        # Bob's pile 1 and Ann's own pile 2
        7: (
            "Ann lays Charity 2, Education 3 and Sword 5 under blue; Courage 2, Sword 3 and "
            "Sword 4 under green",
            "Ann 摆牌：蓝色下放慈善 2、教育 3 和剑 5；绿色下放骑士风度 2、剑 3 和剑 4",
        ),
        12: (
            "Bob's yellow plays Charity 5: Charity 0 → 5, passes Ann's blue",
            "Bob 的黄色打出慈善 5：慈善 0 → 5，超过 Ann 的蓝色",
        ),
        # four colours: joust blue 5, green 4, red 3 (3rd place with four seats); a player
        # scores both its colours
        22: (
            "Bob's yellow, 1st in courage, moves 3 on Quest: 0 → 3, passes Ann's green. Round 1 "
            "scoring — Joust: Ann +5, Bob +1; Tournament: Bob +3, Ann +2; Education: Ann and "
            "Bob −3; Charity: Ann and Bob −10; Quest: Bob +17, Ann +10. The match is over",
            "Bob 的黄色（骑士风度第 1）在任务上前进 3 格：0 → 3，超过 Ann 的绿色。第 1 轮计分——"
            "马上比武：Ann +5、Bob +1；骑士竞技：Bob +3、Ann +2；教育：Ann、Bob −3；"
            "慈善：Ann、Bob −10；任务：Bob +17、Ann +10。对局结束",
        ),
        23: (
            "Final scores: Ann 4, Bob 8 — Bob wins with 8 points",
            "最终得分：Ann 4、Bob 8——Bob 以 8 分获胜",
        ),
    },
    BOARDS: {
        4: ("The codex is laid face down: −3, 0, −1", "秘密法典面朝下布置：−3、0、−1"),
        18: (
            "Bob plays Sword 3 on White Knight: 0 → 3, the grail stands 3 toward the White Knight",
            "Bob 将剑 3 打在白骑士上：0 → 3，圣杯偏向白骑士 3 格",
        ),
        21: (
            "Bob plays Education 3: Education 0 → 3, passes Ann, looks at codex slot 3 (−1)",
            "Bob 打出教育 3：教育 0 → 3，超过 Ann，查看法典第 3 格（−1）",
        ),
        # the grail from +3 by 5 toward the black knight; no knight scores in round 1 and the
        # codex scores education (KA-22a, KA-22c)
        22: (
            "Cid plays Sword 5 on Black Knight: 0 → 5, the grail stands 2 toward the Black "
            "Knight. Round 1 scoring — no points",
            "Cid 将剑 5 打在黑骑士上：0 → 5，圣杯偏向黑骑士 2 格。第 1 轮计分——无人得分",
        ),
        23: ("Bob takes the shield in codex slot 3: −1 point", "Bob 拿取法典第 3 格的盾徽：−1 分"),
        24: (
            "Ann takes the shield in codex slot 2: a blank, back to the codex",
            "Ann 拿取法典第 2 格的盾徽：空白盾徽，放回法典",
        ),
        # the grail back at 0: neither knight wins; KA-22e: Cid last in quest
        47: (
            "Ann plays Sword 3 on White Knight: 3 → 6, passes Cid, the grail is back in the "
            "middle. Round 2 scoring — White Knight: Ann +5, Cid +3; Black Knight: Cid +5, "
            "Bob +3; Quest by shields: Cid −1",
            "Ann 将剑 3 打在白骑士上：3 → 6，超过 Cid，圣杯回到中间。第 2 轮计分——白骑士：Ann +5、"
            "Cid +3；黑骑士：Cid +5、Bob +3；任务（按盾徽）：Cid −1",
        ),
        51: (
            "Cid shows mercy to Bob: gives a −3 shield to Bob, takes a shield of 3. Mercy swaps: "
            "Bob −6, Cid +6. White Knight and Black Knight go back to 0, the grail returns to "
            "the middle. The match is over",
            "Cid 对 Bob 施以仁慈：把一枚 −3 盾徽交给 Bob，拿走一枚 3 分的盾徽。仁慈交换：Bob −6、"
            "Cid +6。白骑士和黑骑士归零，圣杯回到中间。对局结束",
        ),
        52: (
            "Final scores: Ann 2, Bob −4, Cid 9 — Cid wins with 9 points",
            "最终得分：Ann 2、Bob −4、Cid 9——Cid 以 9 分获胜",
        ),
    },
    ADVANCED: {
        # KA-21a: Cid's quest disc under Ann's on square 4
        31: ("Cid lifts their Quest disc above Ann", "Cid 把任务上的圆盘抬到 Ann 之上"),
        # KA-21b: the rewarded disc steps back 1
        32: (
            "Cid, 1st in courage, moves 3 on Courage: 2 → 5. Courage discs step back: Cid 5 → 4. "
            "Round 1 scoring — Joust: Fay +3; Tournament: Cid +3; Education: Ann and Cid −3. "
            "After round 1, Fay leads with 3 points",
            "Cid（骑士风度第 1）在骑士风度上前进 3 格：2 → 5。勇气奖励者的骑士风度后退：Cid 5 → 4。"
            "第 1 轮计分——马上比武：Fay +3；骑士竞技：Cid +3；教育：Ann、Cid −3。"
            "第 1 轮后，Fay 以 3 分领先",
        ),
    },
    GAWAIN: {
        53: (
            "Dee plays King 5: King's service 10 → 12 (its cap)",
            "Dee 打出国王 5：为国王服务 10 → 12（已达上限）",
        ),
    },
}

# The same logs told to one seat: what its view showed then, no more (KA-5, KA-20, KA-22c).
TOLD_TO: dict[tuple[str, int], dict[int, tuple[str, str]]] = {
    (THREE, 1): {  # Cid
        1: ("Round 1 (Cid starts): Fay is dealt 5 cards", "第 1 轮（Cid 先手）：Fay 拿到 5 张牌"),
        3: (
            "Cid is dealt Courage 2, Sword 3, Quest 4, Sword 4 and Education 4",
            "Cid 拿到骑士风度 2、剑 3、任务 4、剑 4 和教育 4",
        ),
        4: (
            "Fay keeps a card and passes the other 4 to Ann",
            "Fay 留下一张牌，把其余 4 张传给 Ann",
        ),
        # the step's last pick: the hands move, and Cid sees the one Ann passed it
        6: (
            "Cid keeps Courage 2 and passes Sword 3, Quest 4, Sword 4 and Education 4 to Fay; "
            "Cid receives Charity 3, King 2, Education 3 and Charity 4 from Ann",
            "Cid 留下骑士风度 2，把剑 3、任务 4、剑 4 和教育 4 传给 Fay；Cid 从 Ann 处接到慈善 3、"
            "国王 2、教育 3 和慈善 4",
        ),
        # Ann's pick ends the step: what she passes is Cid's hand now
        9: (
            "Ann keeps a card and passes Sword 5, Quest 2 and Quest 4 to Cid",
            "Ann 留下一张牌，把剑 5、任务 2 和任务 4 传给 Cid",
        ),
        13: (
            "Ann keeps a card and passes the other card to Cid",
            "Ann 留下一张牌，把剩下的一张传给 Cid",
        ),
        17: ("Ann keeps a card", "Ann 留下一张牌"),
    },
    (LANCELOT, 0): {  # Ann
        2: ("Bob is dealt 6 cards", "Bob 拿到 6 张牌"),
        8: ("Bob lays 3 cards face down under each colour", "Bob 在每种颜色下面朝下放 3 张牌"),
    },
    (LANCELOT, 1): {  # Bob: Ann split first, face down; Bob's split turns both up
        3: ("Ann splits their hand into two piles face down", "Ann 将手牌面朝下分成两堆"),
        4: (
            "Bob splits their hand: pile 1 (Charity 2, Courage 2 and Education 3) and pile 2 "
            "(Education 4, Sword 3 and Sword 3); the piles are turned face up: Ann's pile 1 "
            "(Charity 5, Courage 4 and King 4) and pile 2 (Sword 3, Sword 4 and Sword 5)",
            "Bob 将手牌分成两堆：第 1 堆（慈善 2、骑士风度 2 和教育 3）"
            "和第 2 堆（教育 4、剑 3 和剑 3）；双方的牌堆翻开："
            "Ann 的第 1 堆（慈善 5、骑士风度 4 和国王 4）和第 2 堆（剑 3、剑 4 和剑 5）",
        ),
    },
    (BOARDS, 0): {  # Ann: she looked at slot 2 only, and keeps her own shields' worth
        4: ("The codex is laid: 3 shields face down", "布置秘密法典：3 枚盾徽面朝下"),
        20: (
            "Ann plays Education 2: Education 0 → 2, looks at codex slot 2 (0)",
            "Ann 打出教育 2：教育 0 → 2，查看法典第 2 格（0）",
        ),
        21: (
            "Bob plays Education 3: Education 0 → 3, passes Ann, looks at codex slot 3",
            "Bob 打出教育 3：教育 0 → 3，超过 Ann，查看法典第 3 格",
        ),
        23: ("Bob takes the shield in codex slot 3", "Bob 拿取法典第 3 格的盾徽"),
        # the round's end: no leader, as the others' codex points are hidden
        25: ("Cid takes the shield in codex slot 1", "Cid 拿取法典第 1 格的盾徽"),
        49: ("Ann takes the shield in codex slot 2: −3 points", "Ann 拿取法典第 2 格的盾徽：−3 分"),
    },
}


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", list(EXPECTED))
def test_hand_checked_steps(name: str, lang: str) -> None:
    said = told(name, lang)
    for index, (en, zh) in EXPECTED[name].items():
        assert said[index - 1] == (en if lang == "en" else zh), index


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("case", list(TOLD_TO), ids=lambda c: f"{c[0]}-seat{c[1]}")
def test_hand_checked_steps_told_to_a_seat(case: tuple[str, int], lang: str) -> None:
    name, seat = case
    said = told(name, lang, seat)
    for index, (en, zh) in TOLD_TO[case].items():
        assert said[index - 1] == (en if lang == "en" else zh), index


def test_a_part_of_the_log_is_told_as_the_whole_tells_it() -> None:
    """The viewer may ask for a stretch of steps: the state before its first is replayed."""
    match, outcome = replayed(THREE)
    part = outcome.steps[94:100]
    assert sentences(match, part, "en", None) == told(THREE, "en")[94:100]


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
            # "-" too: cards in words ("Sword 4", never "sword-4"), points with a true minus
            for bad in ("{", "}", "_", "None", "[", "{'", "<", "\n", "-"):
                assert bad not in text, where
            if lang == "zh":
                foreign = [w for w in re.findall(r"[A-Za-z]{3,}", text) if w not in allowed]
                assert not foreign, where


CARD = re.compile(r"\b(Sword|Courage|Education|King|Charity|Quest) (\d+)\b(?! →)")


def _seen(view: Any) -> set[str]:
    """The cards a view of the state shows by name: hands, picks, lancelot's cards and piles,
    the discard pile."""
    groups = [*view.hands, *view.picked, *view.held, *(p for ps in view.piles for p in ps)]
    return {c for cards in groups for c in cards if c != HIDDEN} | set(view.discard)


@pytest.mark.parametrize(
    "name",
    [
        THREE,
        LANCELOT,
        BOARDS,
        GAWAIN,
        "ka-9d706830-000000",  # lancelot on all the variant boards, with a lift
        "ka-66263d2e-000000",  # the codex
        *(p.name.split(".")[0] for p in SAMPLES[::53]),
    ],
)
def test_a_seat_is_never_told_a_card_its_view_hides(name: str) -> None:
    """Every card a sentence told to a seat names is one the engine's view of that seat shows
    just before the event or just after it; another seat's pick is "a card" (KA-5)."""
    match, outcome = replayed(name)
    game = match.game
    for seat in range(len(match.header.players)):
        said = told(name, "en", seat)
        state = start(match)
        mine = {s for s, owner in enumerate(state.owners) if owner == seat}
        for step, text in zip(outcome.steps, said):
            if isinstance(step.event, Final):
                continue
            before = _seen(game.view(state, seat))
            game.apply(state, step.event)
            shown = before | _seen(game.view(state, seat))
            named = {f"{kind.lower()}-{value}" for kind, value in CARD.findall(text)}
            assert named <= shown, (name, seat, step.index, text, named - shown)
            event = step.event
            if isinstance(event, Pick) and state.seats[event.player] not in mine:
                assert text.startswith(f"{event.player} keeps a card"), (name, step.index, text)


def test_codex_shields_others_keep_are_not_told() -> None:
    """KA-22c: a seat hears the slot another takes, never what lay in it; its own, it hears."""
    match, outcome = replayed(BOARDS)
    whole = told(BOARDS, "en")
    for seat, player in enumerate(match.header.players):
        said = told(BOARDS, "en", seat)
        for step, text in zip(outcome.steps, said):
            kind = type(step.event).__struct_config__.tag
            if kind == "shield" and step.event.player != player:
                assert "point" not in text and "blank" not in text, (seat, step.index, text)
            if kind == "codex":
                assert text == "The codex is laid: 3 shields face down"
            if kind == "shield" and step.event.player == player:
                assert text == whole[step.index - 1].split(". ")[0], (seat, step.index)


def test_every_fact_key_and_event_kind_has_words_in_both_languages() -> None:
    words = every_label()
    keys: set[str] = set()
    for sample in SAMPLES[::10]:
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
    keys.update(TRACKS, SOURCES, ("white", "black", "card", "bonus", "wager", "step_back", "reset"))
    keys.update(f"ka_card_{kind}" for kind in CARD_TRACKS)
    missing = sorted(k for k in keys if set(words.get(k, {})) != {"en", "zh"})
    assert not missing


def _view(name: str, step: int, seat: int | None) -> dict[str, Any]:
    match, _ = replayed(name)
    return match.game.snapshot(match.game.view(state_at(match, step), seat))


def test_the_tables_have_headers_in_the_language_asked_for() -> None:
    match, _ = replayed(BOARDS)
    players = list(match.header.players)
    shown = tables(_view(BOARDS, 21, 1), players, "zh")
    assert [title for title, _ in shown] == ["", "", "各来源得分", "秘密法典"]
    for title, frame in shown:
        for column in frame.columns:
            assert re.search(r"[\u4e00-\u9fff]", column) and not re.search(
                r"[A-Za-z]{3,}", column
            ), (title, column)
        for row in frame.rows():
            for cell in row:
                foreign = set(re.findall(r"[A-Za-z]{3,}", str(cell))) - set(players)
                assert not foreign, (title, row)
    counts, seats, points, codex = (frame for _, frame in shown)
    assert counts.columns == ["牌堆", "弃牌堆", "变体图板"]
    # what a seat holds first, its points by source in a table of their own
    assert seats.columns[:4] == ["玩家", "得分", "手牌", "已选"]
    assert "赌注" in seats.columns and "盾徽" in seats.columns
    assert points.columns[0] == "玩家" and "秘密法典" in points.columns
    # Bob looked at slot 3 (−1) and nothing else (KA-22c)
    assert codex.row(0) == ("(隐藏)", "(隐藏)", "−1")


def test_a_hidden_hand_stays_hidden_in_the_tables() -> None:
    """In the draft, Cid sees his own hand; Ann's and Fay's hands and picks are counted."""
    match, _ = replayed(THREE)
    players = list(match.header.players)
    shown = dict(tables(_view(THREE, 5, 1), players, "en"))
    seats = shown[""]
    assert seats.select("Player", "Hand", "Picked").rows() == [
        ("Ann", "4 cards (hidden)", "1 card (hidden)"),
        ("Cid", "Courage 2, Sword 3, Quest 4, Sword 4, Education 4", ""),
        ("Fay", "4 cards (hidden)", "1 card (hidden)"),
    ]
    whole = dict(tables(_view(THREE, 5, None), players, "en"))[""]
    assert whole.row(0, named=True)["Picked"] == "Charity 2"


def test_lancelot_tables_show_a_players_own_piles_and_colours() -> None:
    match, _ = replayed(LANCELOT)
    players = list(match.header.players)
    shown = tables(_view(LANCELOT, 3, 0), players, "en")
    assert [title for title, _ in shown] == ["", "Lancelot (colours)", "", "Points by source"]
    assert shown[1][1].rows() == [
        (
            "Ann",
            "King 4, Sword 3, Courage 4, Charity 5, Sword 5, Sword 4",
            "Charity 5, Courage 4, King 4 | Sword 3, Sword 4, Sword 5",
        ),
        ("Bob", "6 cards (hidden)", ""),
    ]
    assert shown[2][1]["Player"].to_list() == [
        "blue (Ann)",
        "yellow (Bob)",
        "green (Ann)",
        "red (Bob)",
    ]
    chinese = tables(_view(LANCELOT, 3, 0), players, "zh")
    assert chinese[1][0] == "兰斯洛特（颜色）"
    assert chinese[2][1]["玩家"].to_list() == [
        "蓝色 (Ann)",
        "黄色 (Bob)",
        "绿色 (Ann)",
        "红色 (Bob)",
    ]
