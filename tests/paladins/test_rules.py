"""One test (at least) per rule of rules/paladins.md, on hand-built situations with the
sample catalogue `squire-sample` v1; every expected number is worked out in the comments.

`table_in()` is a match in round 1's actions with displays tf-01…tf-05 and out-01…out-05,
no king's card, no paladin (so no bonus or ability), and empty supplies: each test gives
what it needs.
"""

from __future__ import annotations

import gzip

import msgspec
import pytest

from ingest.files.read import read_log
from replay.errors import IllegalEvent, ReplayError
from replay.facts import ScoreChanged, TrackMoved
from replay.games import paladins as pa
from replay.games.paladins import ledger
from replay.games.paladins.config import Config
from replay.games.paladins.scoring import end_points, result
from replay.replayer import open_log, state_at
from tests.support import CATALOGUES

from .support import LOGS, PALADINS, give, header, new, rejects, run, seat, table_in, turn

# --- names and the round (PA-1 to PA-15) ------------------------------------------------------


def test_pa1_workers_are_named_by_six_colours():
    from replay.games.paladins.words import COLOURS

    assert COLOURS == ("white", "green", "blue", "red", "black", "purple")
    line = b'{"kind": "hunt", "player": "Ann", "workers": ["orange"]}'
    data = msgspec.json.encode(header()) + b"\n" + line + b"\n"
    with pytest.raises(ReplayError) as caught:
        from replay.replayer import replay

        replay(open_log(data, "x", catalogues=CATALOGUES))
    assert caught.value.rule == "LOG-2" and caught.value.line == 2


def test_pa2_resources_and_three_attribute_tracks():
    me = seat(new(), "Ann")
    assert (me.silver, me.provisions) == (5, 3)
    assert me.tracks == {"faith": 0, "strength": 0, "influence": 0}


def test_pa3_personal_board_spaces_hold_workers_from_the_supply():
    state = table_in()
    give(state, "Ann", white=1, green=1)
    run(state, "Ann hunt white green")
    assert seat(state, "Ann").spaces == {"hunt": ["white", "green"]}
    assert sum(seat(state, "Ann").supply.values()) == 0


def test_pa4_a_round_runs_king_tavern_paladins_workers_actions():
    state = new()
    run(
        state,
        "reveal_townsfolk tf-01 tf-02 tf-03 tf-04 tf-05",
        "reveal_outsiders out-01 out-02 out-03 out-04 out-05",
    )
    assert (state.round, state.phase) == (1, "king")
    rejects(state, "reveal_tavern tav-01 tav-02 tav-03", "PA-9")  # the order comes first
    run(state, "reveal_king ord-1")
    assert state.phase == "tavern"
    run(state, "reveal_tavern tav-01 tav-02 tav-03")
    assert state.phase == "paladins"
    run(state, "Bob choose_paladin pal-02 pal-01 pal-03", "Ann choose_paladin pal-01 pal-02 pal-03")
    assert state.phase == "take_tavern" and state.turn == 0
    run(state, "Ann take_tavern tav-01", "Bob take_tavern tav-02")
    assert state.phase == "actions" and state.turn == 0


def test_pa5_the_start_player_passes_clockwise_from_round_2():
    state = table_in()
    assert state.start_player == 0
    run(state, "Ann pass", "Bob pass")  # clean-up: one townsfolk and one outsider refill
    run(state, "reveal_townsfolk tf-06", "reveal_outsiders out-06")
    assert state.round == 2 and state.start_player == 1


def test_pa6_kings_cards_orders_in_rounds_1_to_3_favours_from_round_3():
    state = table_in(round_=2)
    run(state, "Ann pass", "Bob pass", "reveal_townsfolk tf-06", "reveal_outsiders out-06")
    assert state.round == 3 and state.king_due == ["order", "favour"]
    rejects(state, "reveal_king fav-1", "PA-6")  # the order first in round 3
    run(state, "reveal_king ord-1", "reveal_king fav-1")
    assert (state.orders, state.favours, state.phase) == (["ord-1"], ["fav-1"], "tavern")


def test_pa7_orders_score_4_6_8_for_whoever_meets_them_at_the_end():
    state = table_in()
    state.orders = ["ord-2", "ord-3", "ord-5"]  # monks >= 4, outposts >= 4, lowest >= 6
    me = seat(state, "Ann")
    me.monks, me.outposts = 4, 4  # meets the 1st (4) and the 2nd (6), not the 3rd
    assert end_points(state, 0)["orders"] == 10
    seat(state, "Bob").tracks = {"faith": 6, "strength": 6, "influence": 6}
    assert end_points(state, 1)["orders"] == 8


def test_pa8_a_favour_once_a_round_its_workers_stay_until_clean_up():
    state = table_in()
    state.favours = ["fav-1"]
    give(state, "Ann", white=1, blue=1)
    give(state, "Bob", white=1, blue=1)
    run(state, "Ann favour fav-1 white blue")
    assert seat(state, "Ann").provisions == 3 + 4
    rejects(state, "Bob favour fav-1 white blue", "PA-8")
    assert state.favour_workers == {"fav-1": [(0, "white"), (0, "blue")]}
    run(state, "Bob pass white blue", "Ann pass")
    assert state.favour_workers == {}  # back at clean-up


def test_pa9_the_tavern_reveals_players_plus_one():
    state = table_in()
    state.phase = "tavern"
    rejects(state, "reveal_tavern tav-01 tav-02", "PA-9")
    run(state, "reveal_tavern tav-01 tav-02 tav-03")
    assert state.tavern == ["tav-01", "tav-02", "tav-03"]


def test_pa10_each_player_keeps_one_of_their_top_three_paladins():
    state = table_in()
    state.phase = "paladins"
    for me in state.board:
        me.paladin = None
    rejects(state, "Ann choose_paladin pal-04 pal-01 pal-02", "PA-10")  # pal-04 is 4th
    run(state, "Ann choose_paladin pal-02 pal-03 pal-01")
    assert seat(state, "Ann").deck == ["pal-03", *PALADINS[3:], "pal-01"]
    rejects(state, "Ann choose_paladin pal-03 pal-04 pal-05", "PA-10")  # once a round


def _to_take_tavern(state: pa.State) -> pa.State:
    state.phase = "paladins"
    state.tavern, state.taken = ["tav-01", "tav-02", "tav-03"], {}
    for me in state.board:
        me.paladin = None
    run(state, "Ann choose_paladin pal-01 pal-02 pal-03", "Bob choose_paladin pal-02 pal-01 pal-03")
    return state


def test_pa11_clockwise_each_reveals_the_paladin_and_takes_a_tavern_card():
    state = _to_take_tavern(table_in())
    assert not seat(state, "Ann").revealed
    rejects(state, "Bob take_tavern tav-01", "PA-11")  # Ann first
    facts = run(state, "Ann take_tavern tav-01")
    # PA-12: Aldric's 2str shows in the effective value from the reveal on.
    assert (
        TrackMoved(round=1, seat=0, track="effective_strength", before=0, after=2, cause="paladin")
        in facts
    )
    # Aldric's red red, then tav-01's white white green blue.
    assert seat(state, "Ann").supply == {"red": 2, "white": 2, "green": 1, "blue": 1}
    assert seat(state, "Ann").revealed
    rejects(state, "Bob take_tavern tav-01", "PA-11")  # taken
    run(state, "Bob take_tavern tav-03")
    assert state.phase == "actions"


def test_pa12_a_paladins_bonus_raises_effective_values_never_the_track():
    state = table_in(paladin="pal-01")  # Aldric: 2str
    assert ledger.effective(state, 0, "strength") == 2
    assert seat(state, "Ann").tracks["strength"] == 0


def test_pa13_a_paladins_ability_fires_on_its_action():
    state = table_in(paladin="pal-01")  # action attack: 1vp
    give(state, "Ann", green=1, white=1, red=1)
    run(state, "Ann attack out-01 green white red")  # strength 2 meets Hill Bandits' 2
    assert seat(state, "Ann").vp == 1


def test_pa14_the_supply_is_kept_workers_plus_paladin_plus_tavern():
    state = _to_take_tavern(table_in())
    seat(state, "Ann").supply = {"black": 2, "purple": 1}  # kept from last round
    run(state, "Ann take_tavern tav-02")  # Aldric red red + white white red black
    assert sum(seat(state, "Ann").supply.values()) == 3 + 2 + 4


def test_pa15_turns_go_clockwise_skipping_passed_players():
    state = table_in("Ann Bob Cid")
    give(state, "Bob", white=2)
    give(state, "Cid", white=2)
    run(state, "Ann pass", "Bob hunt white", "Cid hunt white")
    assert state.turn == 1  # Ann is skipped
    rejects(state, "Ann trade white", "PA-15")


# --- placing workers (PA-16 to PA-19) -------------------------------------------------------


def test_pa16_slots_take_their_colour_any_takes_all_and_a_criminal_fits_anywhere():
    state = table_in()
    give(state, "Ann", white=2, purple=1, green=1)
    rejects(state, "Ann hunt white white", "PA-16")  # the second slot is green
    rejects(state, "Ann hunt red green", "PA-16")  # no red held
    run(state, "Ann hunt white purple")  # the criminal fills the green slot
    assert seat(state, "Ann").provisions == 3 + 3


def test_pa17_a_space_with_workers_is_not_available():
    state = table_in()
    give(state, "Ann", white=2)
    run(state, "Ann hunt white", "Bob pass")
    rejects(state, "Ann hunt white", "PA-17")


def test_pa18_costs_are_paid_in_full():
    state = table_in()
    give(state, "Ann", white=2, silver=3)
    rejects(state, "Ann develop attack white white", "PA-18")  # 4 silver


def test_pa19_each_workshop_takes_one_worker_off_a_main_action():
    state = table_in()
    give(state, "Ann", white=2, red=1, silver=8)
    run(state, "Ann develop attack white white", "Bob pass")
    me = seat(state, "Ann")
    assert me.workshops["attack"] == 1
    me.workshops["attack"] = 2  # and a second, placed the same way
    rejects(state, "Ann attack out-01 white red", "PA-16")  # one slot is left
    run(state, "Ann attack out-01 red")  # only the rightmost red slot
    assert me.attacked == ["out-01"]


# --- personal-board actions (PA-20 to PA-28) ------------------------------------------------


def test_pa20_develop_moves_the_next_workshop_and_gives_its_worker():
    state = table_in()
    give(state, "Ann", white=2, silver=6)
    me = seat(state, "Ann")
    me.spaces["commission"] = ["green", "red", "black"]  # workers already on the action
    run(state, "Ann develop commission white white")
    assert me.silver == 2 and me.workshops["commission"] == 1 and me.developed == 1
    assert me.supply["white"] == 1  # workshop 1 gives a white worker (ruleset)
    assert me.spaces["commission"] == ["red", "black"]  # the covered slot's worker left


def test_pa21_recruit_with_one_worker_takes_the_quest_reward_and_discards():
    state = table_in()
    give(state, "Ann", white=1)
    run(state, "Ann recruit tf-01 white")  # Baker: cost 1, quest 3prov
    me = seat(state, "Ann")
    assert (me.silver, me.provisions, me.team) == (4, 6, [])
    assert state.townsfolk[0] is None


def test_pa22_recruit_with_two_workers_any_then_red_joins_the_team():
    state = table_in()
    give(state, "Ann", white=2, red=1)
    rejects(state, "Ann recruit tf-03 white white", "PA-16")
    run(state, "Ann recruit tf-03 white red")  # Mason: cost 2, recruit 1str
    me = seat(state, "Ann")
    assert (me.silver, me.tracks["strength"], me.team) == (3, 1, ["tf-03"])


def test_pa23_a_debt_may_pay_for_the_two_leftmost_townsfolk():
    state = table_in()
    give(state, "Ann", white=2, silver=0)
    rejects(state, "Ann recruit tf-03 white debt", "PA-23")  # slot 3
    run(state, "Ann recruit tf-02 white debt")
    assert (seat(state, "Ann").debts, seat(state, "Ann").silver) == (1, 3)  # quest 3silver


def test_pa24_hunt_one_worker_one_provision_two_three():
    state = table_in()
    give(state, "Ann", white=1)
    run(state, "Ann hunt white")
    assert seat(state, "Ann").provisions == 3 + 1


def test_pa25_trade_one_worker_one_silver_two_three():
    state = table_in()
    give(state, "Ann", white=1, blue=1)
    run(state, "Ann trade white blue")
    assert seat(state, "Ann").silver == 5 + 3


def test_pa26_the_worker_count_is_chosen_with_the_action():
    state = table_in()
    give(state, "Ann", white=3)
    rejects(state, "Ann trade white white white", "PA-16")


def test_pa27_pray_clears_another_space_for_a_cleric_and_two_silver():
    state = table_in()
    give(state, "Ann", white=1, black=1)
    run(state, "Ann hunt white", "Bob pass")
    run(state, "Ann pray hunt black")
    me = seat(state, "Ann")
    assert me.spaces == {"pray": ["black"]} and me.silver == 3


def test_pa28_scheme_gains_a_criminal_then_draws_suspicion_and_its_tax():
    state = table_in()
    give(state, "Ann", white=1)
    run(state, "Ann scheme white")
    assert state.phase == "draw_suspicion" and seat(state, "Ann").supply["purple"] == 1
    rejects(state, "Bob hunt white", "PA-15")
    run(state, "Ann draw_suspicion sus-06")  # tax 2
    assert seat(state, "Ann").silver == 7 and seat(state, "Ann").suspicion == ["sus-06"]


# --- main actions (PA-29 to PA-37) ----------------------------------------------------------


def test_pa29_main_actions_take_three_workers_in_their_slots():
    state = table_in()
    give(state, "Ann", blue=1, white=2, black=1, purple=1)
    rejects(state, "Ann commission r1-1 blue white black", "PA-16")  # first slot is green
    run(state, "Ann commission r1-1 purple white black")


def test_pa30_commission_pays_the_monk_takes_the_square_then_plus_one():
    state = table_in()
    give(state, "Ann", green=1, white=1, black=1)
    facts = run(state, "Ann commission r1-1 green white black")  # r1-1: 1silver
    me = seat(state, "Ann")
    assert (me.provisions, me.silver, me.monks) == (2, 6, 1)
    assert me.tracks["faith"] == 1  # the first monk reveals faith (ruleset)
    assert state.squares == {"r1-1": (0, "monk")}
    assert TrackMoved(round=1, seat=0, track="faith", before=0, after=1, cause="monk") in facts
    give(state, "Bob", green=1, white=1, black=1)
    rejects(state, "Bob commission r2-1 green white black", "PA-30")  # faith 2 needed


def test_pa31_a_square_is_free_of_monks_and_outposts_and_open_at_this_count():
    state = table_in()
    state.squares["r1-2"] = (1, "outpost")
    give(state, "Ann", green=2, white=2, black=2)
    rejects(state, "Ann commission r1-2 green white black", "PA-31")
    rejects(state, "Ann commission r1-5 green white black", "PA-31")  # 3-4 players only


def test_pa32_build_wall_needs_influence_pays_provisions_and_draws_a_wall():
    state = table_in()
    give(state, "Ann", blue=1, white=1, green=1)
    run(state, "Ann build_wall blue white green")
    assert state.phase == "draw_wall" and seat(state, "Ann").provisions == 2
    run(state, "Ann draw_wall wall-01")  # 1str 1vp
    assert seat(state, "Ann").tracks["strength"] == 1 and seat(state, "Ann").vp == 1
    seat(state, "Bob").walls = ["wall-02"]  # the 2nd wall needs influence 1
    give(state, "Bob", blue=1, white=1, green=1)
    rejects(state, "Bob build_wall blue white green", "PA-32")


def test_pa33_garrison_needs_strength():
    state = table_in()
    give(state, "Ann", blue=1, white=1, red=1, strength=1)
    run(state, "Ann garrison r1-4 blue white red")  # region 1 needs strength 1; 1vp
    me = seat(state, "Ann")
    assert (me.outposts, me.vp, me.tracks["strength"]) == (1, 1, 2)  # +1 strength revealed


def test_pa34_absolve_puts_a_jar_on_a_spot_plus_faith_less_suspicion():
    state = table_in()
    me = seat(state, "Ann")
    me.suspicion = ["sus-01", "sus-02"]
    give(state, "Ann", black=1, white=1, blue=1)
    run(state, "Ann absolve 2 black white blue")  # jar 1: 1 silver; spot 2: 1faith 1inf
    assert (me.silver, me.tracks["faith"], me.tracks["influence"]) == (4, 2, 1)
    assert me.suspicion == ["sus-02"] and state.suspicion_discard == ["sus-01"]
    give(state, "Ann", black=1, white=1, blue=1)
    rejects(turn(state, "Ann"), "Ann absolve 2 black white blue", "PA-17")


def test_pa35_attack_pays_silver_for_missing_strength_and_takes_the_reward():
    state = table_in()
    give(state, "Ann", green=1, white=1, red=1)
    run(state, "Ann attack out-04 green white red")  # strength 3 missing: 2 silver
    me = seat(state, "Ann")
    assert (me.silver, me.provisions, me.tracks["influence"]) == (3, 5, 1)
    assert me.attacked == ["out-04"] and state.outsiders[3] is None


def test_pa36_convert_needs_faith_and_pays_the_next_place():
    state = table_in()
    give(state, "Ann", red=1, white=1, black=1)
    rejects(state, "Ann convert out-01 red white black", "PA-36")  # faith 2 needed
    give(state, "Ann", faith=2)
    run(state, "Ann convert out-01 red white black")  # first convert place costs 0; 1str
    assert seat(state, "Ann").converts == ["out-01"] and seat(state, "Ann").silver == 5


def test_pa37_a_favour_takes_its_workers_and_cost_and_gives_its_effect():
    state = table_in()
    state.favours = ["fav-6"]  # black any, 2 silver: 2faith 1vp
    give(state, "Ann", black=1, white=1)
    run(state, "Ann favour fav-6 black white")
    me = seat(state, "Ann")
    assert (me.silver, me.tracks["faith"], me.vp) == (3, 2, 1)


# --- passing and clean-up (PA-38 to PA-40) --------------------------------------------------


def test_pa38_passing_returns_the_board_and_keeps_three():
    state = table_in()
    give(state, "Ann", white=4, blue=1)
    run(state, "Ann hunt white", "Bob pass", "Ann pass white blue white")
    me = seat(state, "Ann")
    assert me.spaces == {} and me.supply == {"white": 2, "blue": 1} and me.passed


def test_pa39_clean_up_shifts_the_displays_and_refills_them():
    state = table_in()
    state.townsfolk[1] = None  # a gap left during the round
    run(state, "Ann pass", "Bob pass")
    # Townsfolk: tf-05 (rightmost) goes, the rest pack right; 2 empty slots on the left.
    assert state.townsfolk == [None, None, "tf-01", "tf-03", "tf-04"]
    assert state.outsiders == ["out-02", "out-03", "out-04", "out-05", None]
    run(state, "reveal_townsfolk tf-10 tf-11", "reveal_outsiders out-09")
    assert state.townsfolk[:2] == ["tf-10", "tf-11"] and state.outsiders[-1] == "out-09"


def test_pa40_townsfolk_and_outsider_decks_are_never_rebuilt():
    state = table_in()
    state.townsfolk_deck = ["tf-10"]
    state.townsfolk[1] = None  # tf-02 recruited this round: two slots will be empty
    run(state, "Ann pass", "Bob pass")
    rejects(state, "reveal_townsfolk tf-10 tf-11", "PA-54")  # one card left: one slot filled
    run(state, "reveal_townsfolk tf-10")
    assert state.townsfolk == [None, "tf-10", "tf-01", "tf-03", "tf-04"]


# --- rulings (PA-41 to PA-65) ---------------------------------------------------------------


def test_pa41_one_to_four_players_each_with_five_silver_three_provisions():
    with pytest.raises(Exception) as caught:
        new("A B C D E")
    assert "PA-41" in str(caught.value)
    assert seat(new("Ann"), "Ann").silver == 5


def test_pa42_a_header_names_decks_that_are_each_one_copy_of_every_paladin():
    deck = {"Ann": PALADINS[:-1] + PALADINS[:1], "Bob": PALADINS}
    data = msgspec.json.encode(header(paladin_decks=deck)) + b"\n"
    with pytest.raises(ReplayError) as caught:
        open_log(data, "x", catalogues=CATALOGUES)
    assert (caught.value.rule, caught.value.line) == ("PA-42", 1)
    unknown = header(catalogue={"name": "nope", "version": "1"})
    with pytest.raises(ReplayError, match="no paladins catalogue 'nope'"):
        open_log(msgspec.json.encode(unknown) + b"\n", "x", catalogues=CATALOGUES)


def test_pa43_workshops_cover_from_the_left_and_the_rightmost_slot_stays():
    state = table_in()
    me = seat(state, "Ann")
    me.workshops["commission"] = 1
    give(state, "Ann", white=1, black=1)
    run(state, "Ann commission r1-1 white black")  # any·black left


def test_pa44_tracks_stop_at_15_and_team_bonuses_count_in_effective_values():
    state = table_in()
    me = seat(state, "Ann")
    me.tracks["faith"] = 14
    ledger.gain(state, 0, {"faith": 3}, "test", [])
    assert me.tracks["faith"] == 15
    me.team = ["tf-07"]  # Drillmaster: bonus 1str
    assert ledger.effective(state, 0, "strength") == 1


def test_pa45_after_the_seventh_monk_or_eighth_workshop_the_action_is_illegal():
    state = table_in()
    me = seat(state, "Ann")
    me.developed = 8
    give(state, "Ann", white=2, silver=10)
    rejects(state, "Ann develop attack white white", "PA-45")
    me.monks = 7
    give(state, "Ann", green=1, black=1)
    rejects(state, "Ann commission r1-1 green white black", "PA-45")


def test_pa46_revealed_favours_stay_for_the_rest_of_the_game():
    state = table_in(round_=5)
    state.favours = ["fav-2"]  # revealed in an earlier round
    give(state, "Ann", blue=1, white=1)
    run(state, "Ann favour fav-2 blue white")
    assert seat(state, "Ann").silver == 9


def test_pa47_once_a_round_per_card_or_per_player_with_the_switch():
    state = table_in(rules={"favour_per_player": True})
    state.favours = ["fav-1"]
    give(state, "Ann", white=2, blue=2)
    give(state, "Bob", white=1, blue=1)
    run(state, "Ann favour fav-1 white blue", "Bob favour fav-1 white blue")
    rejects(turn(state, "Ann"), "Ann favour fav-1 white blue", "PA-8")


def test_pa48_a_short_tavern_deck_is_revealed_then_refilled_from_its_discard():
    state = table_in()
    state.phase = "tavern"
    state.tavern_deck = ["tav-01"]
    state.tavern_discard = ["tav-02", "tav-03", "tav-04"]
    rejects(state, "reveal_tavern tav-02 tav-03 tav-04", "PA-48")  # tav-01 comes first
    run(state, "reveal_tavern tav-01 tav-03 tav-04")
    assert state.tavern_deck == ["tav-02"] and state.tavern_discard == []


def test_pa49_top_and_bottom_are_the_players_choice_and_the_paladin_played_leaves():
    state = _to_take_tavern(table_in())
    assert seat(state, "Ann").deck[0] == "pal-02" and seat(state, "Ann").deck[-1] == "pal-03"
    assert "pal-01" not in seat(state, "Ann").deck


def test_pa50_a_pass_keeps_exactly_min_3_and_supply():
    state = table_in()
    give(state, "Ann", white=2)
    rejects(state, "Ann pass white", "PA-50")  # 2 held: keep both
    rejects(state, "Ann pass white white white", "PA-50")
    run(state, "Ann pass white white")


def test_pa51_pray_never_clears_itself_a_favour_pray_clears_any_space():
    state = table_in()
    give(state, "Ann", black=1, white=1)
    state.favours = ["fav-4"]  # any, 1 silver: pray
    rejects(state, "Ann pray pray black", "PA-51")
    seat(state, "Ann").spaces["hunt"] = ["white"]
    run(state, "Ann favour fav-4 black hunt")
    assert seat(state, "Ann").spaces == {} and seat(state, "Ann").silver == 4


def test_pa52_a_favour_recruit_takes_any_displayed_townsfolk_free():
    state = table_in()
    state.favours = ["fav-3"]  # any, 2 silver: recruit
    give(state, "Ann", white=1)
    run(state, "Ann favour fav-3 white tf-05")  # Quartermaster, cost 2, not paid
    me = seat(state, "Ann")
    assert me.team == ["tf-05"] and me.silver == 3 and me.provisions == 4  # recruit 1prov


def test_pa53_missing_strength_costs_one_silver_per_two_rounded_up():
    state = table_in()
    assert ledger.attack_silver(state, 0, "out-05") == 2  # 4 missing
    assert ledger.attack_silver(state, 0, "out-04") == 2  # 3 missing
    give(state, "Ann", green=1, white=1, red=1)
    bad = pa.events.Attack(player="Ann", workers=["green", "white", "red"], card="out-05", silver=1)
    with pytest.raises(IllegalEvent) as caught:
        pa.apply(state, bad)
    assert caught.value.rule == "PA-53"


def test_pa54_gaps_stay_during_the_round_and_a_refill_sits_next_to_the_packed_cards():
    state = table_in()
    state.outsiders = ["out-01", None, "out-03", None, "out-05"]
    state.outsider_deck = ["out-20"]
    state.townsfolk_deck = []
    run(state, "Ann pass", "Bob pass")
    assert state.outsiders == ["out-03", "out-05", None, None, None]
    run(state, "reveal_outsiders out-20")
    assert state.outsiders == ["out-03", "out-05", "out-20", None, None]


def test_pa55_no_free_square_in_an_allowed_region_no_commission():
    state = table_in()
    for n in range(1, 5):
        state.squares[f"r1-{n}"] = (1, "monk")
    give(state, "Ann", green=1, white=1, black=1)
    from replay.games.paladins.legal import legal_events

    assert not any(isinstance(e, pa.events.Commission) for e in legal_events(state))


def test_pa56_an_empty_wall_deck_stops_walls_and_suspicion_reshuffles_its_discard():
    state = table_in()
    state.wall_deck = []
    give(state, "Ann", blue=1, white=2, green=1)
    rejects(state, "Ann build_wall blue white green", "PA-56")
    state.suspicion_deck, state.suspicion_discard = [], ["sus-03"]
    run(state, "Ann scheme white")
    # A card not in the discard is refused before the discard becomes the deck.
    rejects(state, "Ann draw_suspicion sus-01", "PA-56")
    assert state.suspicion_deck == [] and state.suspicion_discard == ["sus-03"]
    run(state, "Ann draw_suspicion sus-03")
    assert state.suspicion_deck == [] and state.suspicion_discard == []


def test_pa57_abilities_fire_actor_first_and_a_new_member_only_from_the_next_action():
    state = table_in(paladin=None)
    give(state, "Ann", white=2, red=1, blue=1)
    run(state, "Ann recruit tf-02 white red")  # Moneychanger: recruit 1silver; action trade
    assert seat(state, "Ann").silver == 5 - 1 + 1
    seat(state, "Bob").team = ["tf-19"]  # Gossip: rival attack: 1silver
    run(state, "Bob pass", "Ann trade white")  # Moneychanger fires now: 1 + 1
    assert seat(state, "Ann").silver == 5 + 1 + 1


def test_pa58_the_inquisition_costs_two_vp_to_every_holder_of_three_suspicion():
    state = table_in()
    seat(state, "Ann").suspicion = ["sus-01", "sus-02"]
    seat(state, "Bob").suspicion = ["sus-03", "sus-05", "sus-06"]
    give(state, "Ann", white=1)
    facts = run(state, "Ann scheme white", "Ann draw_suspicion sus-04")  # inquisition, tax 2
    assert (seat(state, "Ann").vp, seat(state, "Bob").vp) == (-2, -2)
    assert ScoreChanged(round=1, seat=1, source="vp", points=-2) in facts


def test_pa59_round_start_round_end_discounts_and_bonuses():
    state = _to_take_tavern(table_in())
    seat(state, "Ann").team = ["tf-11", "tf-10"]  # Farmer round_start 1prov; Tax Collector
    run(state, "Ann take_tavern tav-01")
    assert seat(state, "Ann").provisions == 4
    run(state, "Bob take_tavern tav-02", "Ann pass white white red", "Bob pass black black black")
    assert seat(state, "Ann").silver == 6  # round_end: 1silver at clean-up
    state2 = table_in()
    seat(state2, "Ann").team = ["tf-03", "tf-04"]  # discount build_wall / commission 1prov
    give(state2, "Ann", green=1, white=1, black=1)
    run(state2, "Ann commission r1-1 green white black")
    assert seat(state2, "Ann").provisions == 3  # 1 - 1 = 0 paid


def test_pa60_round_seven_ends_after_its_clean_up_without_refills():
    state = table_in(round_=7)
    run(state, "Ann pass", "Bob pass")
    assert pa.is_over(state) and state.townsfolk[-1] == "tf-05"


def test_pa61_the_final_score_adds_its_sources():
    state = table_in(round_=7)
    me = seat(state, "Ann")
    me.vp, me.debts, me.repaid = 5, 2, 1
    me.tracks = {"faith": 8, "strength": 3, "influence": 15}
    me.suspicion = ["sus-01"]
    me.converts = ["out-02"]  # 2vp
    me.walls = ["wall-01", "wall-02"]
    run(state, "Ann pass", "Bob pass")
    outcome = result(state)
    assert outcome.sources[0] == {
        "vp": 5,
        "orders": 0,
        "outsiders": 2,
        "faith": 5,
        "strength": 1,
        "influence": 12,
        "debts": -6,
        "suspicion": -2,
    }
    assert outcome.scores[0] == 17


def test_pa62_ties_go_to_silver_and_provisions_then_are_shared():
    state = table_in(round_=7)
    seat(state, "Bob").silver = 6
    run(state, "Ann pass", "Bob pass")
    assert result(state).winners == [1]
    state = table_in(round_=7)
    run(state, "Ann pass", "Bob pass")
    assert result(state).winners == [0, 1]


def test_pa63_discounts_add_up_and_never_go_below_zero():
    state = table_in(paladin="pal-10")  # discount attack: 2silver
    seat(state, "Ann").team = ["tf-26"]  # discount attack: 1silver
    assert ledger.attack_silver(state, 0, "out-05") == 0  # 1 missing (3str bonus) → 1 − 3


def test_pa64_an_empty_rightmost_townsfolk_slot_discards_nothing():
    state = table_in()
    state.townsfolk[4] = None
    state.outsiders[0] = None
    run(state, "Ann pass", "Bob pass")
    assert state.townsfolk == [None, "tf-01", "tf-02", "tf-03", "tf-04"]
    assert state.outsiders == ["out-02", "out-03", "out-04", "out-05", None]


def test_pa65_rival_abilities_fire_for_passed_players_and_scheme_fires_at_its_draw():
    state = table_in(paladin="pal-06")  # Fiora: action scheme: 1silver
    seat(state, "Bob").team = ["tf-19"]  # Gossip: rival attack: 1silver
    run(turn(state, "Bob"), "Bob pass")
    give(state, "Ann", green=1, white=2, red=1)
    run(turn(state, "Ann"), "Ann attack out-01 green white red")  # Bob passed, still paid
    assert seat(state, "Bob").silver == 6
    run(turn(state, "Ann"), "Ann scheme white")
    assert seat(state, "Ann").silver == 5  # not yet: at the draw
    run(state, "Ann draw_suspicion sus-07")  # tax 0, Fiora +1
    assert seat(state, "Ann").silver == 6


def test_config_rejects_inconsistent_numbers():
    with pytest.raises(ValueError):
        Config(order_vp=(4, 6))


def test_bobs_first_attack_by_hand():
    # Line 10: Bob (paladin Lisette: +1 strength this round) attacks Lost Legion (strength 8)
    # with strength 0 + 1: 7 missing, so ceil(7 / 2) = 4 silver of his 5 (PA-53). Its attack
    # reward 2inf 1str 2silver: influence 2, strength 1, silver 1 + 2 = 3.
    match = open_log(read_log(LOGS / "pa-example-2p.jsonl"), "2p", catalogues=CATALOGUES)
    before, after = state_at(match, 8), state_at(match, 9)
    bob_before, bob = before.board[1], after.board[1]
    assert bob_before.silver == 5 and bob.silver == 3
    assert bob.tracks == {"faith": 0, "strength": 1, "influence": 2}
    assert bob.attacked == ["out-30"] and "out-30" not in after.outsiders
    assert bob.spaces["attack"] == ["green", "blue", "purple"]


def test_the_simulator_deals_every_player_a_paladin_deck_from_the_catalogue():
    # PA-42: the match names its catalogue; each player has a paladin deck.
    from ingest.simulation.simulate import Spec, simulate_chunk

    spec = Spec(game="paladins", players=3, bots=("random",), seed=3)
    for written in simulate_chunk((spec, 0, 3)):
        header = open_log(gzip.decompress(written.data), "s", catalogues=CATALOGUES).header
        assert header.catalogue.name == "squire-sample" and len(header.catalogue.sha256) == 64
        assert set(header.paladin_decks) == set(header.players) == set(header.agents)
