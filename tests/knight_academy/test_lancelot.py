"""KA-20, Lancelot (seed 002): two players with two colours each, six cards dealt, split into
piles the other player chooses from, laid three under each colour, and each colour playing
its three cards in turn. Every number below is worked out from the seed's text as
docs/log-format.md reads it."""

from __future__ import annotations

import pytest

from replay.errors import RulesError
from replay.facts import ScoreChanged, TrackMoved
from replay.games import knight_academy as ka
from tests.support import refused

from .support import table

A = ["king-4", "sword-3", "courage-4", "charity-5", "sword-5", "sword-4"]
B = ["education-4", "sword-3", "charity-2", "education-3", "sword-3", "courage-2"]


def _lancelot(**fields: object) -> ka.State:
    return table("Ann Bob", variant="lancelot", **fields)


def _dealt() -> ka.State:
    state = _lancelot()
    ka.apply(state, ka.Deal(player="Ann", cards=A))
    ka.apply(state, ka.Deal(player="Bob", cards=B))
    return state


def _split(state: ka.State) -> None:
    ka.apply(state, ka.Split(player="Ann", piles=[A[:3], A[3:]]))
    ka.apply(state, ka.Split(player="Bob", piles=[B[:3], B[3:]]))


def test_ka20_two_players_sit_as_four_colours_round_the_table():
    state = _lancelot()
    assert state.players == ["blue", "yellow", "green", "red"]  # the seed's colours
    assert state.owners == [0, 1, 0, 1] and state.persons == ["Ann", "Bob"]
    assert state.players[state.start_player] == "blue"
    other = _lancelot(colours={"Ann": ["gold", "silver"], "Bob": ["black", "white"]})
    assert other.players == ["gold", "black", "silver", "white"]
    assert _lancelot(first_player="Bob").players[_lancelot(first_player="Bob").start_player] == (
        "yellow"
    )
    for bad in (
        {"colours": {"Ann": ["blue", "blue"], "Bob": ["yellow", "red"]}},
        {"colours": {"Ann": ["blue", "green"], "Bob": ["Ann", "red"]}},
        {"colours": {"Ann": ["blue"], "Bob": ["yellow", "red"]}},
    ):
        with pytest.raises(RulesError, match="KA-20"):
            _lancelot(**bad)
    with pytest.raises(RulesError, match="KA-20: lancelot seats two players, not 3"):
        table("Ann Bob Cid", variant="lancelot")
    with pytest.raises(RulesError, match="KA-20: only the lancelot variant names colours"):
        table("Ann Bob Cid", colours={"Ann": ["blue", "green"]})


def test_ka20_each_player_is_dealt_six_cards():
    state = _lancelot()
    message = refused(ka.apply, state, ka.Deal(player="Ann", cards=A[:5]), "KA-4")
    assert "is dealt 5 cards, not 6" in message
    refused(ka.apply, state, ka.Deal(player="blue", cards=A), "KA-4")  # a player, not a colour
    ka.apply(state, ka.Deal(player="Ann", cards=A))
    ka.apply(state, ka.Deal(player="Bob", cards=B))
    assert state.held == [A, B] and state.phase == "split"
    assert ka.expecting(state).detail["lancelot"] == ["Ann", "Bob"]


def test_ka20_a_hand_splits_into_two_piles_of_three_of_its_own_cards():
    state = _dealt()
    message = refused(ka.apply, state, ka.Split(player="Ann", piles=[A[:2], A[2:]]), "KA-20")
    assert "into two piles of 3" in message
    refused(ka.apply, state, ka.Split(player="Ann", piles=[B[:3], A[3:]]), "KA-20")
    refused(ka.apply, state, ka.Pick(player="Ann", card="king-4"), "KA-5")  # no draft
    # Every split once, the piles' cards in order: C(6,3) / 2 = 10 when all six differ.
    assert len([e for e in ka.legal_events(state) if e.player == "Ann"]) == 10  # type: ignore[union-attr]
    ka.apply(state, ka.Split(player="Ann", piles=[A[:3], A[3:]]))
    refused(ka.apply, state, ka.Split(player="Ann", piles=[A[3:], A[:3]]), "KA-20")  # once
    ka.apply(state, ka.Split(player="Bob", piles=[B[:3], B[3:]]))
    assert state.phase == "choose"


def test_ka20_the_start_player_chooses_first_and_each_keeps_its_pile_not_chosen():
    state = _dealt()
    _split(state)
    assert "Bob cannot choose now" in refused(
        ka.apply, state, ka.Choose(player="Bob", pile=1), "KA-20"
    )
    assert "1 or 2, not 3" in refused(ka.apply, state, ka.Choose(player="Ann", pile=3), "KA-20")
    ka.apply(state, ka.Choose(player="Ann", pile=2))  # Bob's second pile
    ka.apply(state, ka.Choose(player="Bob", pile=1))  # Ann's first pile
    assert state.held == [B[3:] + A[3:], A[:3] + B[:3]] and state.phase == "assign"


def test_ka20_a_player_lays_three_cards_under_each_colour_and_they_play_in_turn():
    state = _dealt()
    _split(state)
    ka.apply(state, ka.Choose(player="Ann", pile=1))
    ka.apply(state, ka.Choose(player="Bob", pile=1))
    ann, bob = state.held
    bad = ka.Assign(player="Ann", colours={"blue": ann[:2], "green": ann[2:]})
    assert "3 under each of blue and green" in refused(ka.apply, state, bad, "KA-20")
    bad = ka.Assign(player="Ann", colours={"blue": ann[:3], "red": ann[3:]})
    refused(ka.apply, state, bad, "KA-20")  # red is Bob's
    ka.apply(state, ka.Assign(player="Ann", colours={"blue": ann[:3], "green": ann[3:]}))
    ka.apply(state, ka.Assign(player="Bob", colours={"yellow": bob[:3], "red": bob[3:]}))
    assert state.phase == "play" and state.picked[0] == ann[:3]
    # Blue (the start colour) plays its three cards, then yellow, green, red.
    refused(ka.apply, state, ka.Play(player="yellow", card=bob[0]), "KA-6")
    assert ka.to_move(state) == 0  # Ann decides for blue
    assert {e.player for e in ka.legal_events(state, 0)} == {"blue"}  # type: ignore[union-attr]
    assert ka.legal_events(state, 1) == []
    for _ in range(3):
        assert state.turn == 0
        ka.apply(state, ka.legal_events(state, 0)[0])
    assert state.turn == 1 and state.picked[0] == [] and ka.to_move(state) == 1  # yellow, Bob's


def test_ka20_the_worked_round_scores_each_player_both_its_colours():
    """The one-round worked example (every board scoring in round 1): blue 3, green 1
    (Ann 4); yellow 17, red −9 (Bob 8)."""
    from ingest.files.read import read_log
    from replay.replayer import open_log, replay
    from tests.knight_academy.support import LOGS

    outcome = replay(open_log(read_log(LOGS / "ka-example-lancelot.jsonl"), "x"))
    state = outcome.state
    assert [sum(points.values()) for points in state.points] == [3, 17, 1, -9]
    assert outcome.result.scores == [4, 8] and outcome.result.winners == [1]
    facts = [f for step in outcome.steps for f in step.facts]
    # Facts name the header's players: a colour's points and discs are its player's.
    assert {f.seat for f in facts if isinstance(f, (ScoreChanged, TrackMoved))} == {0, 1}
    joust = [f for f in facts if isinstance(f, ScoreChanged) and f.source == "joust"]
    assert [(f.seat, f.points) for f in joust] == [(0, 3), (0, 2), (1, 1)]  # blue, green, red
    # Four colours: courage pays a 3rd place (none here: two colours on courage).
    bonuses = [f for f in facts if isinstance(f, TrackMoved) and f.cause == "bonus"]
    assert [(f.seat, f.track, f.after) for f in bonuses] == [(0, "quest", 2), (1, "quest", 3)]


def test_ka20_the_start_colour_passes_round_the_table_so_the_players_take_turns():
    state = _lancelot()
    state.round = 1
    state.phase = "play"
    state.picked = [["quest-2"], [], [], []]
    state.turn = 0
    ka.apply(state, ka.Play(player="blue", card="quest-2"))
    assert state.round == 2 and state.players[state.start_player] == "yellow"
    assert state.phase == "deal" and state.dealt == [False, False]
