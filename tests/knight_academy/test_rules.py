"""One or more scenarios per rule id of rules/knight-academy.md, numbers worked out by hand."""

from __future__ import annotations

import pytest

from ingest.files.read import read_log
from replay.errors import IllegalEvent, RulesError
from replay.facts import ScoreChanged, TrackMoved
from replay.games import knight_academy as ka
from replay.games.knight_academy.config import TRACKS
from replay.games.knight_academy.scoring import courage_bonuses, ranked, score_round
from replay.replayer import open_log, replay

from .support import LOGS, ev, last_plays, run, set_track, table


def points(facts: list[object], state: ka.State) -> dict[str, dict[str, int]]:
    """Score facts as {player: {source: points}}."""
    out: dict[str, dict[str, int]] = {}
    for fact in facts:
        if isinstance(fact, ScoreChanged):
            by_source = out.setdefault(state.players[fact.seat], {})
            by_source[fact.source] = by_source.get(fact.source, 0) + fact.points
    return out


# KA-1 ---------------------------------------------------------------------------------------


def test_there_are_seven_tracks_and_a_courage_bonus_may_move_any_of_them():
    state = table("Ann Bob Cid")
    set_track(state, "courage", 3, 0, 0)
    last_plays(
        state,
        {"Ann": ["king-2", "king-3"], "Bob": ["king-2", "quest-2"], "Cid": ["king-4", "quest-3"]},
    )
    run(state, "Ann play king-2", "Bob play king-2", "Cid play king-4")
    assert len(TRACKS) == 7
    assert {e.track for e in ka.legal_events(state)} == {None, *TRACKS}


# KA-2 ---------------------------------------------------------------------------------------


def test_the_deck_holds_52_cards_of_six_types():
    deck = ka.STANDARD.deck
    assert sum(deck.values()) == 52
    assert {c: n for c, n in deck.items() if c.startswith("sword")} == {
        "sword-5": 2,
        "sword-4": 4,
        "sword-3": 6,
    }
    assert {c: n for c, n in deck.items() if c.startswith("quest")} == {
        "quest-5": 1,
        "quest-4": 2,
        "quest-3": 3,
        "quest-2": 2,
    }


def test_a_card_that_is_not_in_the_game_is_rejected():
    state = table()
    with pytest.raises(IllegalEvent, match="KA-2: 'sword-9' is not a card"):
        run(state, "Ann deal sword-9 quest-2 quest-3 king-2 king-3")


# KA-3 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", ["Ann Bob", "Ann Bob Cid Dee Eve Fay"])
def test_the_base_game_seats_three_to_five(players):
    with pytest.raises(RulesError, match="KA-3"):
        table(players)


def test_hands_pass_to_the_left_neighbour_in_round_one():
    state = table("Ann Bob Cid")
    run(
        state,
        "Ann deal sword-5 quest-2 quest-3 king-2 king-3",
        "Bob deal sword-4 courage-2 courage-3 king-4 charity-2",
        "Cid deal sword-3 education-2 education-3 education-4 charity-3",
        "Ann pick sword-5",
        "Bob pick king-4",
        "Cid pick education-4",
    )
    assert state.hands == [
        ["sword-3", "education-2", "education-3", "charity-3"],
        ["quest-2", "quest-3", "king-2", "king-3"],
        ["sword-4", "courage-2", "courage-3", "charity-2"],
    ]


def test_hands_pass_to_the_right_in_round_two():
    state = table("Ann Bob Cid")
    state.round = 2
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


# KA-4 ---------------------------------------------------------------------------------------


def test_each_seat_is_dealt_five_cards():
    state = table()
    with pytest.raises(IllegalEvent, match="KA-4: Ann is dealt 4 cards, not 5"):
        run(state, "Ann deal sword-5 quest-2 quest-3 king-2")


def test_a_card_dealt_more_often_than_the_deck_holds_it_is_rejected():
    state = table()
    run(state, "Ann deal sword-5 sword-5 quest-3 king-2 king-3")
    with pytest.raises(IllegalEvent, match="KA-4: Bob is dealt 1× sword-5 but the deck holds 0"):
        run(state, "Bob deal sword-5 quest-2 quest-4 king-4 charity-2")


def test_a_seat_is_dealt_once_per_round_and_the_round_must_agree():
    state = table()
    run(state, "Ann deal sword-5 quest-2 quest-3 king-2 king-3")
    with pytest.raises(IllegalEvent, match="KA-4: Ann cannot deal now: the next event is deal for"):
        run(state, "Ann deal sword-4 quest-4 quest-5 king-4 king-5")
    with pytest.raises(IllegalEvent, match="KA-4: the deal says round 2 but it is round 1"):
        ka.apply(state, ka.Deal(player="Bob", cards=["sword-4"] * 4 + ["quest-4"], round=2))


def _spent_deck(state: ka.State, left_in_deck: int) -> list[str]:
    """Move all but `left_in_deck` cards to the discard pile; return the discarded names."""
    cards = sorted(card for card, copies in ka.STANDARD.deck.items() for _ in range(copies))
    discarded = cards[left_in_deck:]
    state.deck = {}
    for card in cards[:left_in_deck]:
        state.deck[card] = state.deck.get(card, 0) + 1
    state.discard = {}
    for card in discarded:
        state.discard[card] = state.discard.get(card, 0) + 1
    return discarded


def test_a_short_deck_takes_the_discards_back_before_the_first_hand():
    # Round 4 of a 3-seat game: 52 - 3 × 15 = 7 cards left, fewer than 5 × 3 = 15.
    state = table("Ann Bob Cid")
    state.round = 4
    discarded = _spent_deck(state, 7)
    hand = sorted(set(discarded))[:5]
    run(state, "Ann deal " + " ".join(hand))
    assert sum(state.deck.values()) == 52 - 5
    assert state.discard == {}


def test_a_full_enough_deck_is_not_reshuffled():
    state = table("Ann Bob Cid")
    discarded = _spent_deck(state, 15)  # exactly 5 × 3: enough
    with pytest.raises(IllegalEvent, match="not reshuffled yet"):
        run(state, "Ann deal " + " ".join(sorted(set(discarded))[-5:]))


def test_no_deal_during_the_draft():
    state = table()
    state.phase = "draft"
    with pytest.raises(IllegalEvent, match="KA-4: Ann cannot deal now: the next event is pick"):
        run(state, "Ann deal sword-5 quest-2 quest-3 king-2 king-3")


# KA-5 ---------------------------------------------------------------------------------------


def _dealt(players: str = "Ann Bob Cid") -> ka.State:
    state = table(players)
    run(
        state,
        "Ann deal sword-5 quest-2 quest-3 king-2 king-3",
        "Bob deal sword-4 courage-2 courage-3 king-4 charity-2",
        "Cid deal sword-3 education-2 education-3 education-4 charity-3",
    )
    return state


def test_picks_within_a_step_come_in_any_order_but_one_per_seat():
    state = _dealt()
    run(state, "Cid pick sword-3", "Ann pick quest-2")
    with pytest.raises(IllegalEvent, match="KA-5: Ann cannot pick now: the next event is pick by"):
        run(state, "Ann pick quest-3")
    run(state, "Bob pick courage-2")
    assert state.step == 1  # all three picked: hands passed


def test_a_seat_picks_only_from_the_hand_it_holds():
    state = _dealt()
    with pytest.raises(IllegalEvent, match="KA-5: Ann picks sword-4 but holds sword-5, quest-2"):
        run(state, "Ann pick sword-4")


def test_after_five_steps_each_seat_holds_its_five_picks_and_play_begins():
    state = _dealt()
    for _ in range(5):
        for seat, player in enumerate(state.players):
            ka.apply(state, ka.Pick(player=player, card=state.hands[seat][0]))
    assert state.phase == "play"
    assert [len(cards) for cards in state.picked] == [5, 5, 5]
    # Each seat takes the first card of what it holds; hands go left (worked out by hand).
    assert state.picked == [
        ["sword-5", "education-2", "courage-3", "king-2", "charity-3"],
        ["sword-4", "quest-2", "education-3", "king-4", "king-3"],
        ["sword-3", "courage-2", "quest-3", "education-4", "charity-2"],
    ]


# KA-6 ---------------------------------------------------------------------------------------


def test_no_play_before_the_draft_ends():
    state = _dealt()
    with pytest.raises(IllegalEvent, match="KA-6: Ann cannot play now: the next event is pick"):
        run(state, "Ann play sword-5 joust")


def test_play_goes_clockwise_from_the_start_player():
    state = table("Ann Bob Cid", first_player="Bob")
    last_plays(
        state,
        {
            "Ann": ["king-2", "king-3"],
            "Bob": ["quest-2", "quest-3"],
            "Cid": ["charity-2", "charity-3"],
        },
    )
    with pytest.raises(IllegalEvent, match="KA-6: Ann acts out of turn: it is Bob's turn"):
        run(state, "Ann play king-2")
    run(state, "Bob play quest-2", "Cid play charity-2")
    assert ka.expecting(state).seats == (0,)


def test_a_sword_needs_joust_or_tournament_and_other_cards_move_only_their_own_track():
    state = table()
    last_plays(
        state,
        {
            "Ann": ["sword-3", "education-4"],
            "Bob": ["quest-2", "quest-3"],
            "Cid": ["charity-2", "charity-3"],
        },
    )
    with pytest.raises(IllegalEvent, match="KA-6: sword-3 needs a track: joust or tournament"):
        run(state, "Ann play sword-3")
    with pytest.raises(IllegalEvent, match="KA-6: education-4 moves education, not joust"):
        run(state, "Ann play education-4 joust")
    facts = run(state, "Ann play sword-3 tournament")
    assert facts == [
        TrackMoved(round=1, seat=0, track="tournament", before=0, after=3, cause="card")
    ]


def test_the_fifth_card_is_discarded_unplayed():
    state = table()
    last_plays(
        state,
        {
            "Ann": ["king-2", "king-3"],
            "Bob": ["quest-2", "quest-3"],
            "Cid": ["charity-2", "charity-3"],
        },
    )
    run(state, "Ann play king-2", "Bob play quest-2", "Cid play charity-2")
    assert state.picked == [[], [], []]
    assert state.discard == {
        "king-2": 1,
        "king-3": 1,
        "quest-2": 1,
        "quest-3": 1,
        "charity-2": 1,
        "charity-3": 1,
    }


# KA-7 ---------------------------------------------------------------------------------------


def test_a_disc_past_the_end_keeps_counting_and_ranks_ahead():
    state = table("Ann Bob Cid")
    set_track(state, "quest", 18, 20, 0)
    last_plays(
        state,
        {"Ann": ["quest-5", "king-2"], "Bob": ["king-2", "king-3"], "Cid": ["king-4", "king-5"]},
    )
    run(state, "Ann play quest-5")
    assert state.progress["quest"][0] == 23  # lap 2, square 3
    assert ranked(state, "quest") == [0, 1]
    view = ka.snapshot(state)
    assert view["tracks"]["quest"][0] == {
        "player": "Ann",
        "progress": 23,
        "square": 3,
        "lap": 1,
        "order": 0,
    }


def test_the_king_track_stops_at_twelve():
    state = table()
    set_track(state, "king", 10, 12, 0)
    last_plays(
        state,
        {"Ann": ["king-5", "quest-2"], "Bob": ["king-3", "quest-3"], "Cid": ["king-4", "quest-4"]},
    )
    facts = run(state, "Ann play king-5", "Bob play king-3")
    assert state.progress["king"][:2] == [12, 12]
    assert [(f.before, f.after) for f in facts] == [(10, 12), (12, 12)]


# KA-8 ---------------------------------------------------------------------------------------


def test_the_disc_that_arrives_last_on_a_square_ranks_higher():
    state = table("Ann Bob Cid")
    last_plays(
        state,
        {
            "Ann": ["sword-4", "quest-2"],
            "Bob": ["sword-4", "quest-3"],
            "Cid": ["king-2", "quest-4"],
        },
    )
    facts = run(state, "Ann play sword-4 joust", "Bob play sword-4 joust", "Cid play king-2")
    # Both at 4; Bob came last and sits on top: Bob +3, Ann +2 (3 seats: no 3rd prize).
    # Education: all three at 0, each −3.
    assert points(facts, state) == {
        "Ann": {"joust": 2, "education": -3},
        "Bob": {"joust": 3, "education": -3},
        "Cid": {"education": -3},
    }


def test_a_bonus_move_is_an_arrival_and_lands_on_top():
    state = table("Ann Bob Cid")
    set_track(state, "courage", 5, 2, 0)
    set_track(state, "joust", 1, 4, 0)  # Ann 1, Bob 4
    last_plays(
        state,
        {"Ann": ["king-2", "quest-2"], "Bob": ["king-3", "quest-3"], "Cid": ["king-4", "quest-4"]},
    )
    run(state, "Ann play king-2", "Bob play king-3", "Cid play king-4")
    # Courage: Ann 1st (+3), Bob 2nd (+2). Bob moves courage; Ann moves joust 1 → 4, on Bob.
    facts = run(state, "Bob bonus courage", "Ann bonus joust")
    assert points(facts, state)["Ann"]["joust"] == 3
    assert points(facts, state)["Bob"]["joust"] == 2


# KA-9 ---------------------------------------------------------------------------------------


def test_discs_at_zero_tie_for_last_and_earn_nothing():
    state = table("Ann Bob Cid Dee")
    set_track(state, "joust", 2, 0, 0, 0)
    set_track(state, "tournament", 0, 0, 0, 0)
    set_track(state, "education", 1, 1, 1, 1)
    # Joust: only Ann moved, so only the 1st prize is paid. Education: all at 1, stacked in
    # seat order, so Ann is at the bottom (−3) and Bob above her (−1).
    assert points(score_round(state), state) == {
        "Ann": {"joust": 3, "education": -3},
        "Bob": {"education": -1},
    }


def test_a_disc_at_zero_gets_no_courage_bonus():
    state = table("Ann Bob Cid Dee")
    set_track(state, "courage", 4, 0, 0, 0)
    assert courage_bonuses(state) == [(0, 3)]


# KA-10 --------------------------------------------------------------------------------------


def test_courage_bonuses_go_third_then_second_then_first_with_four_seats():
    state = table("Ann Bob Cid Dee")
    set_track(state, "courage", 5, 3, 4, 0)  # Ann 1st, Cid 2nd, Bob 3rd, Dee at 0
    assert courage_bonuses(state) == [(1, 1), (2, 2), (0, 3)]


def test_three_seats_have_no_third_courage_bonus():
    state = table("Ann Bob Cid")
    set_track(state, "courage", 5, 3, 4)
    assert courage_bonuses(state) == [(2, 2), (0, 3)]


def test_the_courage_ranking_is_not_recomputed_after_bonus_moves():
    state = table("Ann Bob Cid Dee")
    set_track(state, "courage", 5, 3, 4, 0)
    last_plays(
        state,
        {
            "Ann": ["king-2", "quest-2"],
            "Bob": ["king-3", "quest-3"],
            "Cid": ["king-4", "quest-4"],
            "Dee": ["king-5", "quest-5"],
        },
    )
    run(state, "Ann play king-2", "Bob play king-3", "Cid play king-4", "Dee play king-5")
    with pytest.raises(IllegalEvent, match="KA-10: Ann acts out of turn: it is Bob's turn"):
        run(state, "Ann bonus quest")
    run(state, "Bob bonus courage")  # Bob 3 → 4, on top of Cid: would now rank above Cid
    assert state.bonuses == [(2, 2), (0, 3)]
    run(state, "Cid bonus -", "Ann bonus quest")  # Cid declines
    assert state.progress["quest"] == [3, 0, 0, 0]
    assert state.phase == "deal" and state.round == 2


def test_no_bonus_event_when_none_is_owed():
    state = table()
    with pytest.raises(IllegalEvent, match="KA-10: Ann cannot bonus now: the next event is deal"):
        run(state, "Ann bonus joust")


# KA-11 --------------------------------------------------------------------------------------


def test_joust_and_tournament_pay_3_2_and_1_only_with_four_seats():
    three = table("Ann Bob Cid")
    set_track(three, "joust", 6, 4, 2)
    set_track(three, "tournament", 1, 2, 3)
    # Education: all three at 0, each −3 (KA-12).
    assert points(score_round(three), three) == {
        "Ann": {"joust": 3, "education": -3},
        "Bob": {"joust": 2, "tournament": 2, "education": -3},
        "Cid": {"tournament": 3, "education": -3},
    }
    four = table("Ann Bob Cid Dee")
    set_track(four, "joust", 6, 4, 2, 0)
    got = points(score_round(four), four)
    assert [got[p].get("joust", 0) for p in ["Ann", "Bob", "Cid", "Dee"]] == [3, 2, 1, 0]


# KA-12 --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "progress, expected",
    [
        ((5, 2, 3), (0, -3, -1)),  # nobody at 0: lowest −3, next −1
        ((5, 0, 3), (0, -3, -1)),  # one at 0: it is last; second-last is the lowest of the rest
        ((5, 0, 0), (0, -3, -3)),  # two at 0: each −3, nobody −1
        ((0, 0, 0), (-3, -3, -3)),
    ],
)
def test_education_costs_the_last_three_and_the_second_last_one(progress, expected):
    state = table("Ann Bob Cid")
    set_track(state, "education", *progress)
    got = points(score_round(state), state)
    assert tuple(got.get(p, {}).get("education", 0) for p in ["Ann", "Bob", "Cid"]) == expected


def test_an_education_tie_puts_the_earlier_arrival_below():
    state = table("Ann Bob Cid")
    set_track(state, "education", 3, 5, 3)  # Cid arrived after Ann: Ann at the bottom
    got = points(score_round(state), state)
    assert got["Ann"]["education"] == -3 and got["Cid"]["education"] == -1


# KA-13 --------------------------------------------------------------------------------------


def test_king_pays_six_from_six_and_twelve_at_twelve_in_rounds_three_and_six():
    state = table("Ann Bob Cid Dee")
    set_track(state, "education", 1, 1, 1, 1)
    set_track(state, "king", 5, 6, 11, 12)
    assert "king" not in str(points(score_round(state), state))  # round 1: no king scoring
    state.round = 3
    got = points(score_round(state), state)
    assert [got.get(p, {}).get("king", 0) for p in ["Ann", "Bob", "Cid", "Dee"]] == [0, 6, 6, 12]


# KA-14 --------------------------------------------------------------------------------------


def test_charity_is_scored_in_round_six_only_like_education_with_ten_and_five():
    state = table("Ann Bob Cid")
    set_track(state, "education", 1, 1, 1)
    set_track(state, "charity", 7, 0, 4)
    state.round = 5
    assert all("charity" not in by for by in points(score_round(state), state).values())
    state.round = 6
    got = points(score_round(state), state)
    assert [got.get(p, {}).get("charity", 0) for p in ["Ann", "Bob", "Cid"]] == [0, -10, -5]


# KA-15 --------------------------------------------------------------------------------------


def test_quest_pays_17_10_and_4_in_round_six_with_four_seats():
    state = table("Ann Bob Cid Dee")
    set_track(state, "quest", 9, 12, 0, 3)
    state.round = 6
    got = points(score_round(state), state)
    assert [got.get(p, {}).get("quest", 0) for p in ["Ann", "Bob", "Cid", "Dee"]] == [10, 17, 0, 4]
    three = table("Ann Bob Cid")
    set_track(three, "quest", 9, 12, 3)
    three.round = 6
    got = points(score_round(three), three)
    assert [got.get(p, {}).get("quest", 0) for p in ["Ann", "Bob", "Cid"]] == [10, 17, 0]


# KA-16 / KA-17 ------------------------------------------------------------------------------


def test_round_three_resets_five_tracks_but_keeps_quest_and_charity():
    state = table("Ann Bob Cid")
    state.round = 3
    for track in TRACKS:
        set_track(state, track, 2, 0, 1)
    last_plays(
        state,
        {
            "Ann": ["quest-2", "quest-3"],
            "Bob": ["charity-2", "charity-3"],
            "Cid": ["quest-4", "charity-4"],
        },
    )
    run(state, "Ann play quest-2", "Bob play charity-2", "Cid play quest-4")
    facts = run(state, "Cid bonus -", "Ann bonus -")
    resets = {
        (f.track, state.players[f.seat])
        for f in facts
        if isinstance(f, TrackMoved) and f.cause == "reset"
    }
    assert resets == {
        (t, p)
        for t in ["courage", "joust", "tournament", "education", "king"]
        for p in ["Ann", "Cid"]
    }
    assert all(
        state.progress[t] == [0, 0, 0]
        for t in ["courage", "joust", "tournament", "education", "king"]
    )
    assert state.progress["quest"] == [4, 0, 5] and state.progress["charity"] == [2, 2, 1]


def test_the_start_player_passes_to_the_left_each_round():
    state = table("Ann Bob Cid", first_player="Cid")
    last_plays(
        state,
        {
            "Ann": ["quest-2", "quest-3"],
            "Bob": ["charity-2", "charity-3"],
            "Cid": ["quest-4", "charity-4"],
        },
    )
    run(state, "Cid play quest-4", "Ann play quest-2", "Bob play charity-2")
    assert state.round == 2 and state.players[state.start_player] == "Ann"


# KA-18 --------------------------------------------------------------------------------------


def test_equal_totals_share_the_win():
    state = table("Ann Bob Cid")
    state.phase = "over"
    state.points[0]["quest"] = 17
    state.points[1].update(joust=12, tournament=5)
    state.points[2]["quest"] = 10
    outcome = ka.result(state)
    assert outcome.scores == [17, 17, 10] and outcome.winners == [0, 1]
    assert outcome.ranks == [1, 1, 3]


def test_an_unfinished_game_has_no_winner():
    state = table("Ann Bob Cid")
    state.points[0]["quest"] = 17
    assert ka.result(state).winners == [] and not ka.result(state).complete


# KA-19 --------------------------------------------------------------------------------------


def _gawain(first: str = "Ann") -> ka.State:
    return table("Ann Bob Gawain", variant="gawain", neutral="Gawain", first_player=first)


def test_the_neutral_seat_takes_a_card_of_the_highest_value():
    state = _gawain()
    run(
        state,
        "Ann deal sword-5 quest-2 quest-3 king-2 king-3",
        "Bob deal sword-4 courage-2 courage-3 king-4 charity-2",
        "Gawain deal sword-3 education-2 education-3 education-4 charity-4",
    )
    neutral_picks = [e.card for e in ka.legal_events(state) if e.player == "Gawain"]
    assert neutral_picks == ["education-4", "charity-4"]  # in hand order
    with pytest.raises(
        IllegalEvent,
        match=r"KA-19: the neutral seat takes a card of the highest "
        r"value \(4\), not sword-3",
    ):
        run(state, "Gawain pick sword-3")
    run(state, "Gawain pick charity-4")


def test_the_two_real_players_alternate_as_start_player():
    state = _gawain(first="Bob")
    starts = []
    for _ in range(3):
        starts.append(state.players[state.start_player])
        last_plays(
            state,
            {
                "Ann": ["quest-2", "quest-3"],
                "Bob": ["charity-2", "charity-3"],
                "Gawain": ["king-2", "king-3"],
            },
        )
        order = [state.players[(state.start_player + i) % 3] for i in range(3)]
        plays = {
            "Ann": "Ann play quest-2",
            "Bob": "Bob play charity-2",
            "Gawain": "Gawain play king-2",
        }
        run(state, *(plays[p] for p in order))
        while state.phase == "bonus":
            ka.apply(state, ka.Bonus(player=state.players[state.bonuses[0][0]], track=None))
        state.progress = {t: [0, 0, 0] for t in TRACKS}
    assert starts == ["Bob", "Ann", "Bob"]


def test_the_start_player_decides_for_the_neutral_seat():
    state = _gawain(first="Bob")
    set_track(state, "courage", 0, 0, 4)
    last_plays(
        state,
        {
            "Ann": ["quest-2", "quest-3"],
            "Bob": ["charity-2", "charity-3"],
            "Gawain": ["king-2", "king-3"],
        },
    )
    run(state, "Bob play charity-2", "Gawain play king-2", "Ann play quest-2")
    expect = ka.expecting(state)
    assert expect.seats == (2,) and expect.decider == 1  # Gawain's bonus, chosen by Bob


def test_the_neutral_seat_scores_but_never_wins():
    state = _gawain()
    state.phase = "over"
    state.points[2]["quest"] = 30
    state.points[0]["quest"] = 10
    assert ka.result(state).winners == [0]


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"variant": "gawain", "neutral": "Gawain", "first_player": "Gawain"}, "never starts"),
        ({"variant": "gawain", "neutral": "Zed"}, "gawain seats two players"),
        ({"neutral": "Gawain"}, "only the gawain variant"),
    ],
)
def test_gawain_headers_are_checked(fields, message):
    with pytest.raises(RulesError, match=f"KA-19: .*{message}"):
        table("Ann Bob Gawain", **fields)


# KA-20 --------------------------------------------------------------------------------------


def test_ev_helper_reads_a_declined_bonus():
    assert ev("Ann bonus -") == ka.Bonus(player="Ann", track=None)


def test_round_one_of_the_three_seat_example_by_hand():
    # After Ann's last play (line 31) the discs stand: courage Cid 2; joust Fay 3;
    # tournament Cid 3; education Fay 4, Ann 0, Cid 0; king Fay 2; charity Ann 11, Cid 3;
    # quest Ann 4 on Cid 4, Fay 2. Only Cid has courage: 1st, 3 squares (line 32, courage).
    # Joust: Fay alone → +3. Tournament: Cid alone → +3. Education: Ann and Cid both at 0 →
    # −3 each, nobody −1 (KA-12). King, charity and quest do not score in round 1.
    outcome = replay(open_log(read_log(LOGS / "ka-example-3p.jsonl"), "3p"))
    bonus = next(step for step in outcome.steps if step.line == 32)
    players = outcome.match.header.players
    scored = [(players[f.seat], f.source, f.points) for f in bonus.facts if hasattr(f, "points")]
    assert scored == [
        ("Fay", "joust", 3),
        ("Cid", "tournament", 3),
        ("Ann", "education", -3),
        ("Cid", "education", -3),
    ]
    moved = [
        (players[f.seat], f.track, f.before, f.after)
        for f in bonus.facts
        if isinstance(f, TrackMoved)
    ]
    assert moved == [("Cid", "courage", 2, 5)]
