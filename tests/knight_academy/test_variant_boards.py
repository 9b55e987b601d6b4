"""KA-22, the variant boards (seed 002's white-edged sides; the rulesets knight-academy/knights,
/wager, /codex, /scrolls, /quest, /mercy and /all-boards). Every number below is worked out
from the seed's text as docs/log-format.md reads it."""

from __future__ import annotations

import msgspec
import pytest

from replay.errors import RulesError
from replay.facts import ScoreChanged, TrackMoved
from replay.games import knight_academy as ka
from replay.games.knight_academy.scoring import positive_shields, score_round
from tests.support import refused

from .support import ev, last_plays, run, set_track, table

FOUR = "Ann Bob Cid Dee"
BOARD = ka.VARIANT_BOARDS


def _points(facts: list[object], state: ka.State, source: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in facts:
        if isinstance(f, ScoreChanged) and f.source == source:
            name = state.players[f.seat]
            out[name] = out.get(name, 0) + f.points
    return out


def _moves(facts: list[object], state: ka.State, cause: str) -> dict[str, tuple[str, int, int]]:
    return {
        state.players[f.seat]: (f.track, f.before, f.after)
        for f in facts
        if isinstance(f, TrackMoved) and f.cause == cause
    }


def _quiet_round(state: ka.State, rnd: int, cards: dict[str, list[str]] | None = None) -> None:
    """Round `rnd` at its last play, nobody on courage (no bonus), every seat about to play
    the first card it holds."""
    state.round = rnd
    last_plays(state, cards or {p: ["quest-2", "quest-3"] for p in state.players})


# KA-22a White and Black Knight -------------------------------------------------------------


def test_ka22a_a_sword_moves_a_knight_and_the_grail_toward_it():
    state = table(FOUR, config=BOARD["knights"])
    assert list(state.progress) == [
        *("courage", "white", "black", "education", "king", "charity", "quest")
    ]
    last_plays(
        state,
        {
            "Ann": ["sword-4", "quest-2"],
            "Bob": ["sword-3", "quest-2"],
            "Cid": ["sword-5", "quest-2"],
            "Dee": ["quest-3", "quest-2"],
        },
    )
    state.played = [0] * 4  # the first plays of the round
    run(state, "Ann play sword-4 white")
    assert (state.progress["white"][0], state.grail) == (4, 4)
    run(state, "Bob play sword-3 black")
    assert (state.progress["black"][1], state.grail) == (3, 1)
    # KA-22a: the grail stops at the end of its track (10 squares each side).
    state.grail = 8
    run(state, "Cid play sword-5 white")
    assert state.grail == 10


def test_ka22a_a_sword_goes_to_a_knight_not_to_joust_and_only_with_the_board():
    state = table(FOUR, config=BOARD["knights"])
    last_plays(state, {p: ["sword-4", "quest-2"] for p in FOUR.split()})
    message = refused(ka.apply, state, ev("Ann play sword-4 joust"), "KA-6")
    assert "sword-4 moves white or black, not joust" in message
    refused(ka.apply, state, ev("Ann play sword-4"), "KA-6")
    base = table(FOUR)
    last_plays(base, {p: ["sword-4", "quest-2"] for p in FOUR.split()})
    assert "moves joust or tournament, not white" in refused(
        ka.apply, base, ev("Ann play sword-4 white"), "KA-6"
    )


def test_ka22a_the_grails_knight_pays_8_5_2_the_other_5_3_1_then_both_reset():
    state = table(FOUR, config=BOARD["knights"])
    _quiet_round(state, 2)
    set_track(state, "white", 6, 4, 2, 0)  # Ann 1st, Bob 2nd, Cid 3rd, Dee at the start
    set_track(state, "black", 1, 0, 3, 7)  # Dee 1st, Cid 2nd, Ann 3rd
    state.grail = 2  # toward the white knight: it wins
    facts = run(state, *(f"{p} play quest-2" for p in FOUR.split()))
    assert _points(facts, state, "white") == {"Ann": 8, "Bob": 5, "Cid": 2}
    assert _points(facts, state, "black") == {"Dee": 5, "Cid": 3, "Ann": 1}
    assert state.progress["white"] == state.progress["black"] == [0, 0, 0, 0]
    assert state.grail == 0 and state.round == 3
    resets = [f for f in facts if isinstance(f, TrackMoved) and f.cause == "reset"]
    assert {(f.track, state.players[f.seat]) for f in resets} == {
        ("white", "Ann"),
        ("white", "Bob"),
        ("white", "Cid"),
        ("black", "Ann"),
        ("black", "Cid"),
        ("black", "Dee"),
    }


def test_ka22a_with_three_seats_no_third_prize_and_a_middle_grail_makes_both_lose():
    state = table("Ann Bob Cid", config=BOARD["knights"])
    _quiet_round(state, 4)
    set_track(state, "white", 6, 4, 2)
    set_track(state, "black", 1, 5, 3)
    state.grail = 0  # in the middle: neither knight wins (the engine's reading)
    facts = run(state, "Ann play quest-2", "Bob play quest-2", "Cid play quest-2")
    assert _points(facts, state, "white") == {"Ann": 5, "Bob": 3}
    assert _points(facts, state, "black") == {"Bob": 5, "Cid": 3}


def test_ka22a_the_board_scores_only_in_rounds_2_4_6_and_round_3_does_not_reset_it():
    state = table(FOUR, config=BOARD["knights"])
    _quiet_round(state, 3)
    set_track(state, "white", 6, 4, 2, 0)
    state.grail = 3
    facts = run(state, *(f"{p} play quest-2" for p in FOUR.split()))
    assert _points(facts, state, "white") == {}
    assert state.progress["white"] == [6, 4, 2, 0] and state.grail == 3


# KA-22b Courage wager ----------------------------------------------------------------------


def test_ka22b_after_the_deal_each_seat_wagers_once_on_a_track_but_courage():
    state = table(FOUR, config=BOARD["wager"])
    hands = [
        "sword-3 sword-4 sword-5 quest-2 quest-3",
        "king-2 king-3 king-4 king-5 quest-4",
        "sword-3 sword-4 sword-5 quest-2 quest-3",
        "king-2 king-3 king-4 courage-5 quest-4",
    ]
    for player, cards in zip(FOUR.split(), hands):
        run(state, f"{player} deal {cards}")
    assert state.phase == "wager" and ka.expecting(state).seats == (0, 1, 2, 3)
    refused(ka.apply, state, ev("Ann pick sword-3"), "KA-5")  # no draft before the wagers
    assert "not courage" in refused(ka.apply, state, ev("Ann wager courage"), "KA-22b")
    run(state, "Ann wager quest")
    assert "Ann cannot wager now" in refused(ka.apply, state, ev("Ann wager king"), "KA-22b")
    run(state, "Bob wager king", "Cid wager quest", "Dee wager charity")
    assert state.phase == "draft" and state.wagers == ["quest", "king", "quest", "charity"]
    assert "Dee cannot wager now: the next event is pick" in refused(
        ka.apply, state, ev("Dee wager king"), "KA-22b"
    )


def test_ka22b_the_courage_podium_moves_its_wager_per_card_played_there():
    """The seed's example: Ann wagered on quest and played 3 quest cards; 2nd on courage,
    she moves her quest disc 3 × 2 = 6 squares."""
    state = table(FOUR, config=BOARD["wager"])
    state.wagers = ["quest", "king", "charity", "education"]
    state.played_on = [{"quest": 2}, {"king": 1}, {}, {"education": 3}]
    set_track(state, "courage", 5, 8, 3, 0)  # Bob 1st, Ann 2nd, Cid 3rd, Dee at the start
    set_track(state, "quest", 4, 0, 0, 0)
    last_plays(
        state,
        {"Ann": ["quest-2", "x"], "Bob": ["sword-3", "x"], "Cid": ["sword-3", "x"], "Dee": ["x"]},
    )
    state.picked = [["quest-2", "king-2"], ["sword-3", "king-2"], ["sword-3", "king-2"], ["king-3"]]
    facts = run(
        state,
        "Ann play quest-2",  # her third quest card
        "Bob play sword-3 joust",
        "Cid play sword-3 joust",
        "Dee play king-3",
    )
    assert _moves(facts, state, "wager") == {
        "Ann": ("quest", 6, 12),  # 3 cards × 2 squares
        "Bob": ("king", 0, 3),  # 1 card × 3 squares
    }  # Cid (3rd) played no charity card; Dee has no place on the podium
    assert not [f for f in facts if isinstance(f, TrackMoved) and f.cause == "bonus"]
    assert state.round == 2 and state.wagers == []


# KA-22c Education codex --------------------------------------------------------------------


def _codex_table() -> ka.State:
    state = table(FOUR, config=BOARD["codex"])
    hands = [
        "education-2 education-3 education-4 quest-2 quest-3",
        "education-2 education-3 education-4 quest-2 quest-3",
        "education-3 education-5 king-2 king-3 king-4",
        "charity-2 charity-3 charity-4 courage-2 courage-3",
    ]
    for player, cards in zip(FOUR.split(), hands):
        run(state, f"{player} deal {cards}")
    return state


def test_ka22c_the_codex_holds_the_negative_shields_and_a_zero_for_every_other_seat():
    state = _codex_table()
    assert state.phase == "codex" and ka.expecting(state).kind == "codex"
    bad = ka.Codex(shields=[-3, -1, -1, 0])
    assert "holds the shields -3, -1, 0, 0" in refused(ka.apply, state, bad, "KA-22c")
    refused(ka.apply, state, ka.Codex(shields=[-3, -1, 0]), "KA-22c")
    ka.apply(state, ka.Codex(shields=[0, -3, 0, -1]))
    assert state.codex == [0, -3, 0, -1] and state.phase == "draft"


def test_ka22c_an_education_card_may_peek_at_one_slot():
    state = _codex_table()
    ka.apply(state, ka.Codex(shields=[0, -3, 0, -1]))
    last_plays(state, {p: ["education-3", "quest-2"] for p in FOUR.split()})
    state.played = [0] * 4
    assert "slots 1 to 4, not 5" in refused(
        ka.apply, state, ev("Ann play education-3 peek=5"), "KA-22c"
    )
    assert "only an education card" in refused(
        ka.apply, state, ev("Ann play quest-2 peek=1"), "KA-22c"
    )
    run(state, "Ann play education-3 peek=2")
    assert state.peeked[0] == [2]
    view = ka.snapshot(state)
    assert view["codex"]["seen"] == {"Ann": {"2": -3}, "Bob": {}, "Cid": {}, "Dee": {}}
    base = table(FOUR)
    last_plays(base, {p: ["education-3", "quest-2"] for p in FOUR.split()})
    refused(ka.apply, base, ev("Ann play education-3 peek=1"), "KA-22c")


def test_ka22c_at_the_scoring_seats_take_shields_in_educations_order_and_zeros_go_back():
    state = table(FOUR, config=BOARD["codex"])
    state.codex = [0, -3, 0, -1]
    state.peeked = [[], [], [], []]
    set_track(state, "education", 2, 5, 7, 0)  # Cid 1st, Bob 2nd, Ann 3rd, Dee at the start
    _quiet_round(state, 1)
    facts = run(state, *(f"{p} play quest-2" for p in FOUR.split()))
    assert _points(facts, state, "education") == {}  # the codex replaces the -3/-1 ranks
    assert state.phase == "shield" and state.codex_order == [2, 1, 0, 3]
    refused(ka.apply, state, ev("Ann shield 1"), "KA-22c")  # Cid chooses first
    run(state, "Cid shield 1")  # a 0: back to the codex, no shield kept
    assert "slot 1 holds no shield; free: 2, 3, 4" in refused(
        ka.apply, state, ev("Bob shield 1"), "KA-22c"
    )
    facts = run(state, "Bob shield 4", "Ann shield 2", "Dee shield 3")
    assert _points(facts, state, "codex") == {"Bob": -1, "Ann": -3}
    assert [points["codex"] for points in state.points] == [-3, -1, 0, 0]
    assert state.phase == "deal" and state.round == 2


def test_ka22c_what_a_seat_looked_at_goes_with_its_rounds_codex():
    # A seat that peeked at slot 4 in round 1 knows nothing of round 2's codex: between the
    # rounds there is no codex, and the snapshot (replay --step, the viewer) says so.
    state = table(FOUR, config=BOARD["codex"])
    state.codex = [0, -3, 0, -1]
    state.peeked = [[4], [], [2], []]
    set_track(state, "education", 2, 5, 7, 0)  # Cid, Bob, Ann, Dee choose in that order
    _quiet_round(state, 1)
    run(state, *(f"{p} play quest-2" for p in FOUR.split()))
    run(state, "Cid shield 1", "Bob shield 4", "Ann shield 2", "Dee shield 3")
    assert state.round == 2 and state.codex == [] and state.peeked == [[], [], [], []]
    assert ka.snapshot(state)["codex"] == {"slots": 0, "taken": [], "shields": [], "seen": {
        "Ann": {}, "Bob": {}, "Cid": {}, "Dee": {}}}  # fmt: skip


# KA-22d Serve the King's scrolls -----------------------------------------------------------


def test_ka22d_a_king_card_takes_the_scrolls_its_disc_reaches_or_passes():
    state = table(FOUR, config=BOARD["scrolls"])
    set_track(state, "king", 4, 0, 0, 0)
    last_plays(state, {p: ["king-3", "quest-2"] for p in FOUR.split()})
    state.played = [0] * 4
    assert "reaches or passes scrolls on 6" in refused(
        ka.apply, state, ev("Ann play king-3 scrolls=12"), "KA-22d"
    )
    refused(ka.apply, state, ev("Ann play king-3 scrolls=6,6"), "KA-22d")
    run(state, "Ann play king-3 scrolls=6")
    assert state.scrolls == [12] and state.scrolls_taken == 1
    refused(ka.apply, state, ev("Bob play king-3 scrolls=6"), "KA-22d")  # 0 → 3: no scroll
    base = table(FOUR)
    set_track(base, "king", 4, 0, 0, 0)
    last_plays(base, {p: ["king-3", "quest-2"] for p in FOUR.split()})
    refused(ka.apply, base, ev("Ann play king-3 scrolls=6"), "KA-22d")


def test_ka22d_a_scroll_taken_scores_the_king_the_last_one_resets_the_board():
    state = table(FOUR, config=BOARD["scrolls"])
    set_track(state, "king", 4, 12, 6, 2)
    _quiet_round(
        state, 1, {"Ann": ["king-3", "x"], **{p: ["quest-2", "x"] for p in ["Bob", "Cid", "Dee"]}}
    )
    facts = run(
        state,
        "Ann play king-3 scrolls=6",
        "Bob play quest-2",
        "Cid play quest-2",
        "Dee play quest-2",
    )
    # Round 1 is no king round of the printed board; the scroll scores it: 6–11 → 6, 12 → 12.
    assert _points(facts, state, "king") == {"Ann": 6, "Bob": 12, "Cid": 6}
    assert state.scrolls == [12] and state.progress["king"] == [7, 12, 6, 2]  # no reset
    _quiet_round(
        state, 2, {"Ann": ["king-5", "x"], **{p: ["quest-2", "x"] for p in ["Bob", "Cid", "Dee"]}}
    )
    facts = run(  # Bob starts round 2 (KA-17)
        state,
        "Bob play quest-2",
        "Cid play quest-2",
        "Dee play quest-2",
        "Ann play king-5 scrolls=12",
    )
    assert _points(facts, state, "king") == {"Ann": 12, "Bob": 12, "Cid": 6}
    assert state.progress["king"] == [0, 0, 0, 0] and state.scrolls == [6, 12]  # full reset


def test_ka22d_both_scrolls_in_one_round_give_two_shields_and_no_scroll_no_scoring():
    state = table(FOUR, config=msgspec.structs.replace(BOARD["scrolls"], king_cap=20))
    set_track(state, "king", 5, 7, 0, 0)
    cards = {
        "Ann": ["king-2", "x"],
        "Bob": ["king-5", "x"],
        "Cid": ["quest-2", "x"],
        "Dee": ["quest-2", "x"],
    }
    _quiet_round(state, 3, cards)
    facts = run(
        state,
        "Ann play king-2 scrolls=6",
        "Bob play king-5 scrolls=12",
        "Cid play quest-2",
        "Dee play quest-2",
    )
    assert _points(facts, state, "king") == {"Ann": 12, "Bob": 24}  # two scorings of 6 and 12
    assert state.progress["king"] == [0, 0, 0, 0]
    state = table(FOUR, config=BOARD["scrolls"])
    set_track(state, "king", 8, 12, 0, 0)
    _quiet_round(state, 3)
    facts = run(state, *(f"{p} play quest-2" for p in FOUR.split()))
    assert _points(facts, state, "king") == {}  # round 3, no scroll: no scoring, no reset
    assert state.progress["king"] == [8, 12, 0, 0]


# KA-22e Quest ------------------------------------------------------------------------------


def test_ka22e_quest_pays_per_positive_shield_held_and_its_last_loses_per_two():
    config = msgspec.structs.replace(BOARD["quest"], scoring_rounds={"quest": (6,)})
    state = table(FOUR, config=config)
    state.round = 6
    set_track(state, "quest", 9, 5, 3, 0)  # Ann 1st, Bob 2nd, Cid 3rd, Dee at the start
    state.shields = [
        [("joust", 3), ("king", 6), ("tournament", 1), ("education", -3)],  # 3 positive
        [("joust", 2), ("king", 12), ("charity", -5)],  # 2 positive
        [("king", 6)],
        [("joust", 3), ("tournament", 3), ("king", 6), ("king", 6), ("joust", 1)],  # 5
    ]
    facts = score_round(state)
    # 1st: +1 a shield; 2nd: +1 for every two; last: -1 for every two; 3rd: nothing.
    assert _points(facts, state, "quest_shields") == {"Ann": 3, "Bob": 1, "Dee": -2}
    assert _points(facts, state, "quest") == {}


def test_ka22e_every_seat_at_the_start_is_last_and_loses():
    config = msgspec.structs.replace(BOARD["quest"], scoring_rounds={"quest": (6,)})
    state = table(FOUR, config=config)
    state.round = 6
    set_track(state, "quest", 4, 0, 0, 2)
    state.shields = [[("king", 6)] * 3, [("joust", 3)] * 2, [("joust", 3)] * 5, []]
    facts = score_round(state)
    assert _points(facts, state, "quest_shields") == {"Ann": 3, "Bob": -1, "Cid": -2}


# KA-22f Mercy ------------------------------------------------------------------------------


def _mercy_table(players: str = FOUR) -> ka.State:
    """Round 6 at its last play; on charity Ann is 1st, Bob 2nd, Cid 3rd, Dee last."""
    state = table(
        players, config=msgspec.structs.replace(BOARD["mercy"], scoring_rounds={"charity": (6,)})
    )
    n = len(players.split())
    set_track(state, "charity", *[9, 7, 4, 0][:n])
    state.shields = [
        [("education", -3), ("education", -1), ("joust", 3)],
        [("codex", -1)],
        [("king", 6)],
        [("joust", 3), ("tournament", 2), ("king", 6), ("white", 1)],
    ][:n]
    _quiet_round(state, 6)
    return state


def test_ka22f_charitys_first_gives_a_negative_shield_and_takes_two_small_ones():
    state = _mercy_table()
    facts = run(state, *(f"{p} play quest-2" for p in FOUR.split()))
    assert _points(facts, state, "charity") == {}  # mercy replaces charity's penalties
    assert state.phase == "mercy" and state.mercy_order == [0, 1]
    assert "not charity's last: Dee" in refused(ka.apply, state, ev("Ann mercy Cid -3 3"), "KA-22f")
    assert "takes at most 2 of Dee's shields of 3 points or less (1, 2, 3)" in refused(
        ka.apply, state, ev("Ann mercy Dee -3 3,2,1"), "KA-22f"
    )
    refused(ka.apply, state, ev("Ann mercy Dee -3 6"), "KA-22f")  # a king's 6 is over 3
    assert "gives one to Dee" in refused(ka.apply, state, ev("Ann mercy Dee - 3"), "KA-22f")
    refused(ka.apply, state, ev("Ann mercy Dee -5 3"), "KA-22f")  # she holds no -5
    refused(ka.apply, state, ev("Bob mercy Dee -1 1"), "KA-22f")  # Ann swaps first
    facts = run(state, "Ann mercy Dee -3 3,2")
    assert _points(facts, state, "mercy") == {"Ann": 8, "Dee": -8}
    # The 2nd gives to the second-last (Cid) and takes one from the last (the seed's words).
    assert "at most 1" in refused(ka.apply, state, ev("Bob mercy Dee -1 1,3"), "KA-22f")
    facts = run(state, "Bob mercy Dee -1 1")
    assert _points(facts, state, "mercy") == {"Bob": 2, "Cid": -1, "Dee": -1}
    assert ("education", -3) in state.shields[3] and ("codex", -1) in state.shields[2]
    assert state.phase == "over"
    assert ka.result(state).sources[3]["mercy"] == -9


def test_ka22f_with_three_seats_only_the_first_swaps():
    state = _mercy_table("Ann Bob Cid")
    run(state, "Ann play quest-2", "Bob play quest-2", "Cid play quest-2")
    assert state.mercy_order == [0]
    facts = run(state, "Ann mercy Cid -3")  # Cid holds no shield of 3 or less: none taken
    assert _points(facts, state, "mercy") == {"Ann": 3, "Cid": -3}
    assert state.phase == "over"


def test_ka22f_a_codex_shield_given_in_mercy_is_seen_by_its_giver_and_receiver_alone():
    # Ann kept a -3 from the codex, face down (KA-22c); at the last scoring she gives it to Cid
    # and takes his joust 3 (KA-22f): Ann +6, Cid -6 of mercy. Those points tell the -3.
    config = msgspec.structs.replace(
        BOARD["mercy"], boards=("codex", "mercy"), scoring_rounds={"charity": (6,)}
    )
    state = table("Ann Bob Cid", config=config)
    set_track(state, "charity", 9, 4, 0)
    state.shields = [[("codex", -3)], [("king", 6)], [("joust", 3)]]
    for seat, shields in enumerate(state.shields):
        for source, points in shields:
            state.points[seat][source] += points
    _quiet_round(state, 6)
    run(state, "Ann play quest-2", "Bob play quest-2", "Cid play quest-2", "Ann mercy Cid -3 3")
    assert [state.points[seat]["mercy"] for seat in range(3)] == [6, 0, -6]

    def mercy(seat: int) -> dict[str, int | None]:
        seats = ka.snapshot(ka.view(state, seat))["seats"]
        return {name: row["sources"]["mercy"] for name, row in seats.items()}

    # Each sees its own; nobody another's, the table's screen (a seat past the last) least of
    # all. The shield itself is Cid's now, his alone to see.
    assert mercy(0) == {"Ann": 6, "Bob": None, "Cid": None}
    assert mercy(1) == {"Ann": None, "Bob": 0, "Cid": None}
    assert mercy(2) == {"Ann": None, "Bob": None, "Cid": -6}
    assert set(mercy(3).values()) == {None}
    assert ka.snapshot(ka.view(state, 2))["shields"]["Cid"] == [-3]
    assert ka.snapshot(ka.view(state, 1))["shields"]["Cid"] == ["?"]
    assert ka.snapshot(ka.view(state, 1))["shields"]["Ann"] == [3]  # the joust's, won openly


def test_ka22_quest_counts_the_shields_a_seat_holds_before_mercy_swaps_them():
    # Round 6, three seats, only quest and mercy scoring. Before the scoring:
    #   Ann king 6, joust 3 (9 points, 2 positive shields); quest 1st (9), charity 2nd (4)
    #   Bob education -3, king 6 (3 points, 1 positive);    quest 2nd (5), charity 1st (8)
    #   Cid joust 3, tournament 2, king 6 (11, 3 positive);  quest last (3), charity last (2)
    # The engine counts quest first, in the boards' printed order (KA-22e): Ann +1 a shield,
    # +2; Bob +1 per two of 1, 0; Cid -1 per two of 3, -1. Then mercy (KA-22f, after every
    # other board): Bob gives his -3 to Cid and takes Cid's joust 3 and tournament 2: Bob +8,
    # Cid -8. Ann 9 + 2 = 11, Bob 3 + 8 = 11, Cid 11 - 1 - 8 = 2: Ann and Bob share the win.
    # Counted after the swaps, quest would find Bob with 3 positive shields (+1) and Cid with
    # 1 (0): Ann 11, Bob 12, Cid 3, and Bob alone would win.
    config = msgspec.structs.replace(
        ka.STANDARD, boards=("quest", "mercy"), scoring_rounds={"charity": (6,), "quest": (6,)}
    )
    state = table("Ann Bob Cid", config=config)
    state.round = 6
    set_track(state, "quest", 9, 5, 3)
    set_track(state, "charity", 4, 8, 2)
    state.shields = [
        [("king", 6), ("joust", 3)],
        [("education", -3), ("king", 6)],
        [("joust", 3), ("tournament", 2), ("king", 6)],
    ]
    for seat, shields in enumerate(state.shields):
        for source, points in shields:
            state.points[seat][source] += points
    # the last plays move the king's discs only: the king does not score in this ruleset
    last_plays(state, {p: ["king-2", "king-3"] for p in state.players})
    facts = run(state, "Ann play king-2", "Bob play king-2", "Cid play king-2")
    assert _points(facts, state, "quest_shields") == {"Ann": 2, "Cid": -1}
    assert state.phase == "mercy" and state.mercy_order == [1]
    facts = run(state, "Bob mercy Cid -3 3,2")
    assert _points(facts, state, "mercy") == {"Bob": 8, "Cid": -8}
    assert _points(facts, state, "quest_shields") == {}  # quest does not count again
    assert [len(positive_shields(state, seat)) for seat in range(3)] == [2, 3, 1]
    result = ka.result(state)
    assert (result.scores, result.winners) == ([11, 11, 2], [0, 1])


# All six -----------------------------------------------------------------------------------


def test_ka22_the_variant_boards_are_rulesets_and_a_header_may_name_them():
    game = ka.RULES
    assert game.rulesets["knight-academy/all-boards"].boards == ka.BOARDS
    for board in ka.BOARDS:
        assert game.rulesets[f"knight-academy/{board}"].boards == (board,)
    header = msgspec.json.decode(
        b'{"kind":"header","format":"squire-log/1","game":"knight-academy","game_id":"g",'
        b'"players":["Ann","Bob","Cid"],"rules":{"boards":["codex","mercy"]}}',
        type=ka.Header,
    )
    assert game.ruleset(header).boards == ("codex", "mercy")
    with pytest.raises(RulesError, match="LOG-3"):
        game.ruleset(msgspec.structs.replace(header, rules={"boards": ["grail"]}))
    assert ka.STANDARD.sources == ("joust", "tournament", "education", "king", "charity", "quest")
    assert ka.ALL_BOARDS.sources == ("white", "black", "codex", "king", "mercy", "quest_shields")
