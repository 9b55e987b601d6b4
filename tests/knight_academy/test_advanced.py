"""KA-21, the advanced rules (seed 002; the ruleset knight-academy/advanced): the start
player's lift before scoring (KA-21a), the courage step back (KA-21b) and round three's reset
by rank (KA-21c). Every number below is worked out from the rules digest."""

from __future__ import annotations

import pytest

from replay.errors import RulesError
from replay.facts import ScoreChanged, TrackMoved, TrackRanked
from replay.games import knight_academy as ka
from replay.games.knight_academy.scoring import ranked
from tests.support import refused

from .support import ev, last_plays, run, set_track, table

KINGS = {"Ann": ["king-2", "king-3"], "Bob": ["king-3", "king-4"], "Cid": ["king-4", "king-5"]}


def _tied_joust(config: ka.Config = ka.ADVANCED) -> ka.State:
    """Round 1 at its last play: Ann (the start player) and Bob both on joust square 3, Bob's
    disc on top; nobody has courage, so no bonus comes between the lift and the scoring."""
    state = table("Ann Bob Cid", config=config)
    set_track(state, "joust", 3, 3, 0)  # set in seat order: Bob arrived later, on top
    last_plays(state, KINGS)
    run(state, "Ann play king-2", "Bob play king-3", "Cid play king-4")
    return state


def _joust_points(facts: list[object], state: ka.State) -> dict[str, int]:
    return {
        state.players[f.seat]: f.points
        for f in facts
        if isinstance(f, ScoreChanged) and f.source == "joust"
    }


# KA-21a -------------------------------------------------------------------------------------


def test_ka21a_the_start_player_lifts_its_disc_and_wins_the_tie():
    state = _tied_joust()
    expect = ka.expecting(state)
    assert (expect.kind, expect.seats, expect.detail["tracks"]) == ("lift", (0,), ["joust"])
    assert ka.legal_events(state) == [ev("Ann lift -"), ev("Ann lift joust")]
    facts = run(state, "Ann lift joust")
    # Three seats: joust pays 3 and 2 (KA-11); lifted, Ann is first and Bob second.
    assert _joust_points(facts, state) == {"Ann": 3, "Bob": 2}
    assert state.phase == "deal" and state.round == 2


def test_ka21a_a_declined_lift_leaves_the_tie_as_it_stands():
    state = _tied_joust()
    facts = run(state, "Ann lift -")
    assert _joust_points(facts, state) == {"Bob": 3, "Ann": 2}


def test_ka21a_a_lift_moves_no_disc_but_the_rounds_end_ranks_the_lifted_one_first():
    facts = run(_tied_joust(), "Ann lift joust")
    assert not [f for f in facts if isinstance(f, TrackMoved)]
    joust = [(f.seat, f.progress, f.place, f.leads) for f in facts if _on(f, "joust")]
    assert joust == [(0, 3, 1, True), (1, 3, 2, False), (2, 0, 3, False)]


def _on(fact: object, track: str) -> bool:
    return isinstance(fact, TrackRanked) and fact.track == track


def test_ka21a_only_the_start_player_lifts_only_a_disc_under_another_and_only_then():
    state = _tied_joust()
    message = refused(ka.apply, state, ev("Bob lift joust"), "KA-21")
    assert "Bob acts out of turn: it is Ann's turn" in message
    message = refused(ka.apply, state, ev("Ann lift quest"), "KA-21")
    assert "under no disc on its square; it may lift on joust" in message
    refused(ka.apply, state, ev("Ann bonus -"), "KA-10")  # the lift comes first
    run(state, "Ann lift joust")
    message = refused(ka.apply, state, ev("Ann lift joust"), "KA-21")  # once a round
    assert "Ann cannot lift now: the next event is deal" in message


def test_ka21a_no_lift_without_the_advanced_rules_or_without_a_tie_lost():
    base = _tied_joust(ka.STANDARD)
    assert base.phase == "deal"  # scored at once: Bob, on top, won the tie
    state = table("Ann Bob Cid", config=ka.ADVANCED)
    set_track(state, "joust", 3, 3, 0)
    state.arrival["joust"] = [5, 4, 0]  # Ann's disc is the one on top: nothing to win
    last_plays(state, KINGS)
    run(state, "Ann play king-2", "Bob play king-3", "Cid play king-4")
    assert state.phase == "deal"
    start = table("Ann Bob Cid", config=ka.ADVANCED)
    set_track(start, "joust", 0, 0, 2)  # at the start every disc ties for last (KA-9)
    last_plays(start, KINGS)
    run(start, "Ann play king-2", "Bob play king-3", "Cid play king-4")
    assert start.phase == "deal"


# KA-21b -------------------------------------------------------------------------------------


def test_ka21b_the_rewarded_seats_move_their_courage_disc_back_one_square():
    state = table("Ann Bob Cid", config=ka.ADVANCED)
    set_track(state, "courage", 5, 3, 4)  # Ann 1st (3 squares), Cid 2nd (2); no 3rd at three
    last_plays(state, KINGS)
    run(state, "Ann play king-2", "Bob play king-3", "Cid play king-4")
    assert state.phase == "bonus"  # no tie for Ann to lift
    facts = run(state, "Cid bonus quest", "Ann bonus -")
    back = [
        (state.players[f.seat], f.before, f.after)
        for f in facts
        if isinstance(f, TrackMoved) and f.cause == "step_back"
    ]
    assert back == [("Cid", 4, 3), ("Ann", 5, 4)]  # in the order the bonuses were taken
    assert state.progress["courage"] == [4, 3, 3]
    assert ranked(state, "courage") == [0, 2, 1]  # Cid landed on Bob's square, on top


# KA-21c -------------------------------------------------------------------------------------


def test_ka21c_round_three_resets_by_rank_except_the_king():
    state = table("Ann Bob Cid Dee", config=ka.ADVANCED)
    state.round = 3
    set_track(state, "joust", 7, 4, 0, 0)
    set_track(state, "education", 2, 5, 9, 1)
    set_track(state, "king", 6, 2, 0, 1)
    last_plays(
        state,
        {
            "Ann": ["quest-2", "quest-3"],
            "Bob": ["charity-2", "charity-3"],
            "Cid": ["quest-4", "charity-4"],
            "Dee": ["quest-5", "charity-5"],
        },
    )
    run(state, "Ann play quest-2", "Bob play charity-2", "Cid play quest-4", "Dee play quest-5")
    assert state.round == 4
    # Joust: Cid and Dee at the start tie for last and stay there; Bob has two seats below
    # him (square 2), Ann three (square 3).
    assert state.progress["joust"] == [3, 2, 0, 0]
    # Education, from the last up: Dee 0, Ann 1, Bob 2, Cid 3.
    assert state.progress["education"] == [1, 2, 3, 0]
    assert state.progress["king"] == [0, 0, 0, 0]  # "not for the Serve-the-King board"
    assert ranked(state, "education") == [2, 1, 0]


def test_ka21c_a_rank_reset_never_moves_a_disc_forward():
    state = table("Ann Bob Cid Dee", config=ka.ADVANCED)
    state.round = 3
    set_track(state, "joust", 0, 1, 1, 6)  # Cid on top of Bob on square 1
    set_track(state, "tournament", 0, 0, 1, 2)
    last_plays(
        state,
        {
            "Ann": ["quest-2", "quest-3"],
            "Bob": ["charity-2", "charity-3"],
            "Cid": ["quest-4", "charity-4"],
            "Dee": ["quest-5", "charity-5"],
        },
    )
    facts = run(
        state, "Ann play quest-2", "Bob play charity-2", "Cid play quest-4", "Dee play quest-5"
    )
    # Joust, from the last up: Ann 0, Bob 1, Cid 2, Dee 3. The discs go back (退回): Bob and
    # Cid, at or below their squares, stay as they were stacked; only Dee goes back, 6 → 3.
    assert state.progress["joust"] == [0, 1, 1, 3]
    assert ranked(state, "joust") == [3, 2, 1]
    # Tournament: Ann and Bob tie for last at the start; Cid's square would be 2, Dee's 3.
    assert state.progress["tournament"] == [0, 0, 1, 2]
    resets = [
        (f.seat, f.track, f.before, f.after)
        for f in facts
        if isinstance(f, TrackMoved) and f.cause == "reset" and f.track in ("joust", "tournament")
    ]
    assert resets == [(3, "joust", 6, 3)]
    # The round's end ranks the discs where they stood before the reset.
    joust = [(f.seat, f.progress, f.leads) for f in facts if _on(f, "joust")]
    assert joust == [(3, 6, True), (2, 1, False), (1, 1, False), (0, 0, False)]


def test_ka21c_the_rank_reset_tracks_must_be_reset_tracks():
    with pytest.raises(RulesError, match="LOG-3"):
        ka.RULES.resolve(None, {"rank_reset_tracks": ["quest"]})
    assert ka.RULES.resolve("knight-academy/advanced", {}) is ka.ADVANCED
    assert ka.ADVANCED.lifts == 1 and ka.ADVANCED.courage_step_back == 1


def test_ka21_round_one_of_the_three_seat_example_under_the_advanced_rules_by_hand():
    # ka-example-3p's round 1 with the advanced rules. After Ann's last play (line 31), quest
    # has Ann 4 on top of Cid 4, and Cid, the start player, lifts (line 32): Cid tops quest.
    # Only Cid has courage: 1st, 3 squares (line 33: courage 2 → 5), then back 1 (KA-21b).
    # The scoring is the base game's: joust Fay +3, tournament Cid +3, education Ann and Cid
    # at 0, −3 each (KA-12).
    from ingest.files.read import read_log
    from replay.replayer import open_log, replay

    from .support import LOGS

    outcome = replay(open_log(read_log(LOGS / "ka-example-advanced-3p.jsonl"), "adv"))
    by_line = {step.line: step for step in outcome.steps}
    assert by_line[32].event == ka.Lift(player="Cid", track="quest")
    moved = [
        (f.cause, f.before, f.after)
        for f in by_line[33].facts
        if isinstance(f, TrackMoved) and f.track == "courage"
    ]
    assert moved == [("bonus", 2, 5), ("step_back", 5, 4)]
    assert ranked(outcome.state, "quest")[:2] == [1, 0]  # Cid above Ann
    assert outcome.result.scores == [-3, 0, 3] and not outcome.result.complete
