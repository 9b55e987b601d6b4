"""Every kind of bad Knight Academy log is rejected at its first bad line, with its rule."""

from __future__ import annotations

import gzip
import json

import pytest

from replay.errors import ReplayError
from replay.replayer import open_log, replay

from .support import LOGS

FOUR = (LOGS / "ka-example-4p.jsonl").read_text().splitlines()  # Bob Cid Ann Fay; Cid starts
GAWAIN = (LOGS / "ka-example-gawain.jsonl").read_text().splitlines()


def edited(lines: list[str], changes: dict[int, str | dict[str, object] | None]) -> bytes:
    """The log with 1-based line N replaced by text, updated with fields, or removed (None)."""
    out = []
    for number, line in enumerate(lines, 1):
        change = changes.get(number, line)
        if change is None:
            continue
        if isinstance(change, dict):
            change = json.dumps({**json.loads(line), **change})
        out.append(change)
    return ("\n".join(out) + "\n").encode()


def rejection(data: bytes) -> ReplayError:
    with pytest.raises(ReplayError) as info:
        replay(open_log(data, "bad.jsonl"))
    return info.value


CASES = {
    "malformed JSON": (FOUR, {7: '{"kind": "pick", "player": "Ann"'}, 7, "LOG-1", "not a JSON"),
    "a wrong field type": (FOUR, {7: {"card": 5}}, 7, "LOG-2", "Expected `str`, got `int`"),
    "an unknown event kind": (FOUR, {7: {"kind": "draw"}}, 7, "LOG-2", "Invalid value 'draw'"),
    "an unknown player": (FOUR, {7: {"player": "Zed"}}, 7, "KA-5", "unknown player 'Zed'"),
    "an unknown card": (FOUR, {7: {"card": "sword-9"}}, 7, "KA-2", "'sword-9' is not a card"),
    "a card not held": (FOUR, {7: {"card": "quest-5"}}, 7, "KA-5", "Ann picks quest-5 but holds"),
    "a second pick in one step": (
        FOUR,
        {8: '{"kind": "pick", "player": "Ann", "card": "king-4"}'},
        8,
        "KA-5",
        "Ann cannot pick now: the next event is pick by",
    ),
    "a wrong deal size": (
        FOUR,
        {2: {"cards": ["charity-2", "quest-2", "quest-3", "king-2"]}},
        2,
        "KA-4",
        "Bob is dealt 4 cards, not 5",
    ),
    "a card the deck no longer holds": (
        FOUR,
        {2: {"cards": ["charity-2", "education-4", "courage-3", "quest-2", "quest-5"]}},
        3,
        "KA-4",
        "Cid is dealt 1× quest-5 but the deck holds 0",
    ),
    "a round that contradicts the state": (
        FOUR,
        {5: {"round": 2}},
        5,
        "KA-4",
        "the deal says round 2 but it is round 1",
    ),
    "a play before the draft ends": (
        FOUR,
        {25: '{"kind": "play", "player": "Cid", "card": "quest-3"}'},
        25,
        "KA-6",
        "Cid cannot play now: the next event is pick",
    ),
    "a play out of turn": (
        FOUR,
        {26: FOUR[26], 27: FOUR[25]},
        26,
        "KA-6",
        "Ann acts out of turn: it is Cid's turn",
    ),
    "a sword without a track": (
        FOUR,
        {29: {"track": None}},
        29,
        "KA-6",
        "sword-4 needs a track: joust or tournament",
    ),
    "a card sent to a foreign track": (
        FOUR,
        {28: {"track": "joust"}},
        28,
        "KA-6",
        "education-4 moves education, not joust",
    ),
    "a bonus by a seat not entitled": (
        FOUR,
        {42: {"player": "Bob"}},
        42,
        "KA-10",
        "Bob acts out of turn: it is",
    ),
    "bonuses out of 3rd-2nd-1st order": (
        FOUR,
        {83: FOUR[83], 84: FOUR[82]},
        83,
        "KA-10",
        "Ann acts out of turn",
    ),
    "the neutral not taking a highest card": (
        GAWAIN,
        {7: {"card": "quest-3"}},
        7,
        "KA-19",
        r"the neutral seat takes a card of the highest value \(4\), not quest-3",
    ),
    "a final claim before the end": (
        FOUR,
        {30: '{"kind": "final", "scores": {"Bob": 0}}'},
        30,
        "LOG-4",
        "before the game has ended",
    ),
    "a header without players": (
        FOUR,
        {
            1: json.dumps(
                {
                    "kind": "header",
                    "format": "squire-log/1",
                    "game": "knight-academy",
                    "game_id": "x",
                }
            )
        },
        1,
        "LOG-3",
        "missing required field `players`",
    ),
    "an unknown game": (FOUR, {1: {"game": "chess"}}, 1, "LOG-3", "unknown game 'chess'"),
    "another format": (FOUR, {1: {"format": "squire-log/9"}}, 1, "LOG-3", "squire-log/9"),
    "repeated player names": (
        FOUR,
        {1: {"players": ["Bob", "Cid", "Bob", "Fay"]}},
        1,
        "LOG-3",
        "player names repeat",
    ),
    "an unknown first player": (FOUR, {1: {"first_player": "Zed"}}, 1, "LOG-3", "first_player"),
    "an override of no parameter": (
        FOUR,
        {1: {"rules": {"quest_prize": [20, 10, 4]}}},
        1,
        "LOG-3",
        "unknown field `quest_prize`",
    ),
    "an unknown ruleset": (
        FOUR,
        {1: {"ruleset": "knight-academy/wild"}},
        1,
        "LOG-3",
        "unknown ruleset",
    ),
    "an event first": (FOUR, {1: None}, 1, "LOG-3", "must be the header, not a 'deal'"),
    "too few seats": (
        FOUR,
        {1: {"players": ["Bob", "Cid"], "first_player": "Bob"}},
        1,
        "KA-3",
        "seats 3 to 5, not 2",
    ),
}


@pytest.mark.parametrize("lines, changes, line, rule, message", CASES.values(), ids=CASES.keys())
def test_a_bad_log_is_rejected_at_its_line_with_its_rule(lines, changes, line, rule, message):
    err = rejection(edited(lines, changes))
    assert (err.line, err.rule) == (line, rule)
    assert err.path == "bad.jsonl"
    assert __import__("re").search(message, err.message), err.message
    assert str(err).startswith(f"bad.jsonl:{line}: {rule}: ")


def _scores(lines: list[str]) -> dict[str, int]:
    outcome = replay(open_log(edited(lines, {}), "good.jsonl"))
    return dict(zip(outcome.match.header.players, outcome.result.scores))


def test_a_final_claim_that_agrees_is_accepted_and_one_that_disagrees_is_not():
    scores = _scores(FOUR)
    good = [*FOUR, json.dumps({"kind": "final", "scores": scores})]
    assert replay(open_log(edited(good, {}), "x")).final_claim is not None
    bad = [*FOUR, json.dumps({"kind": "final", "scores": {**scores, "Fay": 33}})]
    err = rejection(edited(bad, {}))
    assert (err.line, err.rule) == (len(bad), "LOG-4")
    assert "Fay 33 (replay: 32)" in err.message


def test_nothing_follows_the_end_of_the_game():
    after_end = [*FOUR, '{"kind": "pick", "player": "Ann", "card": "king-4"}']
    err = rejection(edited(after_end, {}))
    assert (err.line, err.rule) == (len(after_end), "LOG-5")
    after_final = [
        *FOUR,
        json.dumps({"kind": "final", "scores": _scores(FOUR)}),
        '{"kind": "deal", "player": "Ann", "cards": []}',
    ]
    err = rejection(edited(after_final, {}))
    assert (err.line, err.rule) == (len(after_final), "LOG-5")


def test_a_log_that_stops_early_is_incomplete_not_wrong():
    outcome = replay(open_log(edited(FOUR[:100], {}), "x"))
    assert not outcome.result.complete and outcome.result.winners == []
    assert len(outcome.steps) == 99


def test_blank_lines_are_ignored_but_counted_and_gzip_is_read_as_its_text(tmp_path):
    data = edited([*FOUR[:1], "", "   ", *FOUR[1:]], {9: {"card": "quest-5"}})
    err = rejection(data)
    assert (err.line, err.rule) == (9, "KA-5")
    from ingest.files.read import read_log

    path = tmp_path / "bad.jsonl.gz"
    path.write_bytes(gzip.compress(data))
    with pytest.raises(ReplayError) as info:
        replay(open_log(read_log(path), str(path)))
    assert info.value.line == 9


def test_an_empty_log_is_rejected():
    assert rejection(b"\n\n").rule == "LOG-3"


def test_a_log_that_is_not_utf8_is_rejected_at_the_line_of_the_bad_byte():
    # A field no engine reads is still part of the log: the warehouse stores every line.
    note = FOUR[6][:-1] + ', "note": "%s"}'
    data = edited(FOUR, {7: note % "é"}).replace("é".encode(), b"\xff")
    err = rejection(data)
    assert (err.line, err.rule) == (7, "LOG-1")
    assert "not UTF-8" in err.message
    accepted = edited(FOUR, {7: note % "骑士学院 é"})  # UTF-8 beyond ASCII is welcome
    assert replay(open_log(accepted, "x")).result.scores == list(_scores(FOUR).values())
