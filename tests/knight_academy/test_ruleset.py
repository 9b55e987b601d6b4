"""Every number of the ruleset is honoured at a value other than the printed one."""

from __future__ import annotations

import msgspec
import pytest

from replay.errors import IllegalEvent, RulesError
from replay.games import knight_academy as ka
from replay.games.knight_academy.scoring import courage_bonuses, score_round
from replay.log import Header

from .support import run, set_track, table


def rules(**changes: object) -> ka.Config:
    return msgspec.structs.replace(ka.STANDARD, **changes)


def points(state: ka.State) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for fact in score_round(state):
        out.setdefault(state.players[fact.seat], {})[fact.source] = fact.points
    return out


def test_courage_bonus_squares():
    state = table("Ann Bob Cid", config=rules(courage_bonus=(5, 4, 1)))
    set_track(state, "courage", 3, 2, 0)
    assert courage_bonuses(state) == [(1, 4), (0, 5)]


def test_podium_prizes_and_the_seats_each_place_needs():
    state = table(
        "Ann Bob Cid",
        config=rules(joust_prizes=(5, 3, 2), tournament_prizes=(9,), place_min_seats=(1, 1, 3)),
    )
    set_track(state, "joust", 6, 4, 2)
    set_track(state, "tournament", 1, 2, 0)
    set_track(state, "education", 1, 1, 1)
    got = points(state)
    assert [got.get(p, {}).get("joust") for p in ["Ann", "Bob", "Cid"]] == [5, 3, 2]
    assert got["Bob"]["tournament"] == 9 and "tournament" not in got["Ann"]


def test_quest_prizes_and_charity_penalties_in_their_rounds():
    state = table(
        "Ann Bob Cid",
        config=rules(
            quest_prizes=(30, 20),
            charity_penalties=(-7, -2),
            scoring_rounds={**ka.STANDARD.scoring_rounds, "charity": (2,), "quest": (2,)},
        ),
    )
    state.round = 2
    set_track(state, "quest", 5, 9, 1)
    set_track(state, "charity", 4, 1, 2)
    set_track(state, "education", 1, 1, 1)
    got = points(state)
    assert (got["Bob"]["quest"], got["Ann"]["quest"], got["Cid"].get("quest")) == (30, 20, None)
    assert (got["Bob"]["charity"], got["Cid"]["charity"]) == (-7, -2)


def test_education_penalties():
    state = table("Ann Bob Cid", config=rules(education_penalties=(-5, -4)))
    set_track(state, "education", 3, 1, 2)
    got = points(state)
    assert (got["Bob"]["education"], got["Cid"]["education"]) == (-5, -4)


def test_king_awards_and_cap():
    state = table("Ann Bob Cid", config=rules(king_awards=((4, 3), (8, 9)), king_cap=8))
    state.round = 3
    set_track(state, "king", 3, 5, 8)
    set_track(state, "education", 1, 1, 1)
    got = points(state)
    assert [got.get(p, {}).get("king", 0) for p in ["Ann", "Bob", "Cid"]] == [0, 3, 9]
    state.phase = "play"
    state.picked[2] = ["king-4", "quest-2"]
    state.turn = 2
    run(state, "Cid play king-4")
    assert state.progress["king"][2] == 8


def test_reset_rounds_and_tracks():
    state = table("Ann Bob Cid", config=rules(reset_rounds=(1,), reset_tracks=("quest",)))
    set_track(state, "quest", 4, 0, 0)
    set_track(state, "joust", 4, 0, 0)
    state.phase = "play"
    for seat in range(3):
        state.picked[seat] = ["king-2", "king-3"]
        state.played[seat] = 3
    run(state, "Ann play king-2", "Bob play king-2", "Cid play king-2")
    assert state.progress["quest"] == [0, 0, 0] and state.progress["joust"] == [4, 0, 0]


def test_pass_directions():
    state = table("Ann Bob Cid", config=rules(pass_directions=(-1, 1, -1, 1, -1, 1)))
    run(
        state,
        "Ann deal sword-5 quest-2 quest-3 king-2 king-3",
        "Bob deal sword-4 courage-2 courage-3 king-4 charity-2",
        "Cid deal sword-3 education-2 education-3 education-4 charity-3",
        "Ann pick sword-5",
        "Bob pick king-4",
        "Cid pick education-4",
    )
    assert state.hands[0] == ["sword-4", "courage-2", "courage-3", "charity-2"]  # from Bob


def test_hand_size_plays_per_round_and_rounds():
    config = rules(hand_size=3, plays_per_round=2, rounds=1, pass_directions=(1,))
    state = table("Ann Bob Cid", config=config)
    with pytest.raises(IllegalEvent, match="not 3"):
        run(state, "Ann deal sword-5 quest-2 quest-3 king-2")
    run(
        state,
        "Ann deal sword-5 quest-2 quest-3",
        "Bob deal sword-4 courage-2 courage-3",
        "Cid deal sword-3 education-2 education-3",
    )
    for _ in range(3):
        for seat, player in enumerate(state.players):
            ka.apply(state, ka.Pick(player=player, card=state.hands[seat][0]))
    assert state.phase == "play" and all(len(cards) == 3 for cards in state.picked)
    for _ in range(2):
        for seat in range(len(state.players)):
            ka.apply(state, ka.legal_events(state, seat)[0])
    while state.phase == "bonus":
        ka.apply(state, ka.legal_events(state)[0])
    assert ka.is_over(state)  # one round only
    assert sum(state.discard.values()) == 9


def test_player_counts():
    assert table("Ann Bob", config=rules(min_players=2)).players == ["Ann", "Bob"]
    with pytest.raises(RulesError, match="KA-3"):
        table("Ann Bob Cid Dee", config=rules(max_players=3))


def test_the_deck():
    state = table("Ann Bob Cid", config=rules(deck={"quest-5": 15, "king-2": 1}))
    run(state, "Ann deal quest-5 quest-5 quest-5 quest-5 quest-5")
    with pytest.raises(IllegalEvent, match="KA-2: 'sword-3' is not a card"):
        run(state, "Bob deal sword-3 quest-5 quest-5 quest-5 quest-5")


def test_track_length_sets_the_laps_shown():
    state = table("Ann Bob Cid", config=rules(track_length=10))
    set_track(state, "quest", 12, 0, 0)
    disc = ka.snapshot(state)["tracks"]["quest"][0]
    assert (disc["square"], disc["lap"]) == (2, 1)


def test_header_overrides_reach_the_engine():
    head = Header(
        format="squire-log/1",
        game="knight-academy",
        game_id="x",
        players=["Ann", "Bob", "Cid"],
        rules={"quest_prizes": [1, 1]},
    )
    assert ka.RULES.ruleset(head).quest_prizes == (1, 1)
