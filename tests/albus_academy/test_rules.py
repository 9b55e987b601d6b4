"""One test (at least) per rule of rules/albus-academy.md, on hand-built boards with the sample
catalogue `albus-sample` v1; every expected number is worked out in the comments.

`table_in()`: setup drawn (public tiles T04 T13 T07 T22, public homework S03 I02 S07 I10,
Ann holds S01 I08 S12, Bob I15 S04 I03), Ann to move in round 1 with 3 will and 3 shards.
Corners: nw [0,0] shard `-oo-`, ne [0,3] will `--oo`, sw [2,0] tile `oo--`, se [2,3]
homework `o--o`. T04 `ooo-` will; T13 `oo--` will/shard; T22 `oo--` chaos; T23 `----`
will+will+shard; T11 `oo--` homework; T09 `ooo-` item.
"""

from __future__ import annotations

import msgspec
import pytest

from ingest.files.read import read_log
from replay.errors import ReplayError
from replay.facts import ScoreChanged
from replay.games import albus_academy as aa
from replay.games.albus_academy.board import edges_at, links, links_at
from replay.games.albus_academy.scoring import result
from replay.games.albus_academy.turns import is_over
from replay.replayer import open_log, replay, state_at
from tests.support import CATALOGUES

from .support import LOGS, header, new, rejects, run, seat, table_in


def put(state: aa.State, player: str, at: tuple[int, int], tile: str, rotation: int = 0) -> None:
    seat(state, player).board[at[0]][at[1]] = (tile, rotation)


def end_turn(state: aa.State, player: str) -> None:
    """`player` rests (no swap): a whole turn with nothing owed."""
    run(state, f"{player} rest")


# --- components, seats and the turn (AA-1 to AA-3) ------------------------------------------


def test_aa1_boards_start_with_four_corner_actions_and_public_areas_of_four():
    state = table_in()
    board = seat(state, "Ann").board
    assert [board[0][0], board[0][3], board[2][0], board[2][3]] == [
        ("nw", 0),
        ("ne", 0),
        ("sw", 0),
        ("se", 0),
    ]
    assert sum(top is None for row in board for top in row) == 8
    assert len(state.public_tiles) == 4 and len(state.public_homework) == 4


def test_aa2_the_turn_passes_to_the_next_seat():
    state = table_in("Ann Bob Cid")
    rejects(state, "Bob rest", "AA-2")
    end_turn(state, "Ann")
    assert state.turn == 1
    end_turn(state, "Bob")
    assert state.turn == 2


def test_aa3_an_event_out_of_its_place_in_the_turn_is_refused():
    state = new()
    rejects(state, "Ann cast 2,3", "AA-3")  # setup draws come first
    state = table_in()
    rejects(state, "Ann place T04 1,1 0", "AA-3")  # nothing taken, no cast yet
    rejects(state, "draw_tile T01", "AA-3")


# --- casting (AA-4 to AA-8) -----------------------------------------------------------------


def test_aa4_cast_exhausts_a_position_with_a_tile_and_resolves_it():
    state = table_in()
    rejects(state, "Ann cast 1,1", "AA-4")  # empty
    run(state, "Ann cast 0,0", "Ann shard")
    assert (0, 0) in seat(state, "Ann").exhausted and seat(state, "Ann").shards == 4


def _linked_column(state: aa.State) -> None:
    put(state, "Ann", (1, 0), "T04")  # ooo-: its N half meets nw's S, its S half sw's N


def test_aa5_linked_ready_neighbours_may_be_triggered():
    state = table_in()
    _linked_column(state)
    run(state, "Ann cast 1,0")
    assert sorted(state.eligible) == [(0, 0), (2, 0)]
    run(state, "Ann will", "Ann trigger 0,0", "Ann shard")
    me = seat(state, "Ann")
    assert (me.will, me.shards) == (4, 4) and (0, 0) not in me.exhausted  # no marker


def test_aa6_no_chaining_past_the_activated_positions_neighbours():
    state = table_in()
    _linked_column(state)
    put(state, "Ann", (0, 1), "T04", 3)  # linked to nw, not next to [1, 0]
    run(state, "Ann cast 1,0", "Ann trigger 0,0")
    rejects(state, "Ann trigger 0,1", "AA-31")


def test_aa7_links_turn_with_the_tile():
    state = table_in()
    put(state, "Ann", (1, 0), "T04", 1)  # -ooo: no N half, so nw is not linked
    run(state, "Ann cast 1,0")
    assert state.eligible == [(2, 0)]


def test_aa8_a_slash_is_one_of_the_two():
    state = table_in()
    put(state, "Ann", (1, 1), "T13")
    run(state, "Ann cast 1,1", "Ann will")
    rejects(state, "Ann shard", "AA-29")


# --- the six actions (AA-9 to AA-14) --------------------------------------------------------


def test_aa9_collect_shard_takes_one():
    state = table_in()
    facts = run(state, "Ann cast 0,0", "Ann shard")
    assert seat(state, "Ann").shards == 4 and facts[-1].track == "shards"


def test_aa10_gain_will_up_to_nine():
    state = table_in()
    run(state, "Ann cast 0,3", "Ann will")
    assert seat(state, "Ann").will == 4
    state = table_in()
    seat(state, "Ann").will = 9
    run(state, "Ann cast 0,3")
    rejects(state, "Ann will", "AA-30")


def test_aa11_add_tile_takes_one_face_up_tile_to_place():
    state = table_in()
    run(state, "Ann cast 2,0")
    rejects(state, "Ann take T01", "AA-11")  # not face up
    run(state, "Ann take T04")
    assert state.taken == ["T04"] and "T04" not in state.public_tiles


def test_aa12_use_item_does_a_completed_items_use():
    state = table_in()
    put(state, "Ann", (1, 1), "T09")  # item
    seat(state, "Ann").items = ["I02"]  # Crystal Pouch: use shard+2
    run(state, "Ann cast 1,1")
    rejects(state, "Ann use I03", "AA-12")  # not hers
    run(state, "Ann use I02")
    assert seat(state, "Ann").shards == 5


def test_aa13_complete_homework_is_the_homework_action():
    state = table_in()
    run(state, "Ann cast 2,3", "Ann homework S03")  # 3 will
    assert seat(state, "Ann").spells == ["S03"] and seat(state, "Ann").will == 0


def test_aa14_chaos_is_any_one_of_the_five():
    state = table_in()
    put(state, "Ann", (1, 1), "T22")
    run(state, "Ann cast 1,1", "Ann take T13")  # chaos as add tile
    rejects(state, "Ann shard", "AA-29")  # one step only


# --- resting and homework (AA-15 to AA-18) --------------------------------------------------


def test_aa15_rest_clears_every_marker_and_may_swap_one_private_card():
    state = table_in()
    seat(state, "Ann").exhausted = {(0, 0), (2, 3)}
    run(state, "Ann rest S01")
    assert seat(state, "Ann").exhausted == set() and "S01" not in seat(state, "Ann").private
    assert state.phase == "swap_draw"
    run(state, "draw_homework S02 Ann")
    assert seat(state, "Ann").private == ["I08", "S12", "S02"] and state.turn == 1


def test_aa16_only_public_or_own_private_homework_paid_in_full():
    state = table_in()
    run(state, "Ann cast 2,3")
    rejects(state, "Ann homework I15", "AA-16")  # Bob's
    rejects(state, "Ann homework S12", "AA-16")  # 6 will, she has 3


def test_aa17_a_spell_costs_will_resolves_its_effect_and_is_tucked():
    state = table_in()
    seat(state, "Ann").will = 4
    facts = run(state, "Ann cast 2,3", "Ann homework S07 tiles=T13")  # Summoning: tile+1
    me = seat(state, "Ann")
    assert (me.will, me.spells, state.taken) == (0, ["S07"], ["T13"])
    assert ScoreChanged(round=1, seat=0, source="spell", points=2) in facts


def test_aa18_an_item_costs_shards_and_is_laid_with_its_prestige():
    state = table_in()
    seat(state, "Ann").shards = 4
    facts = run(state, "Ann cast 2,3", "Ann homework I08")  # her private Tile Compass, 4
    me = seat(state, "Ann")
    assert (me.shards, me.items, me.private) == (0, ["I08"], ["S01", "S12"])
    assert ScoreChanged(round=1, seat=0, source="item", points=1) in facts


# --- placing, refilling, the end (AA-19 to AA-23) -------------------------------------------


def test_aa19_tiles_taken_are_placed_at_the_end_of_the_turn_in_any_rotation():
    state = table_in()
    run(state, "Ann cast 2,0", "Ann take T04")
    rejects(state, "Ann place T13 1,1 0", "AA-19")  # the cast closes, T13 was not taken
    run(state, "Ann place T04 1,1 2")
    assert seat(state, "Ann").board[1][1] == ("T04", 2)


def test_aa20_a_covering_tile_takes_the_covered_ones_marker():
    state = table_in()
    run(state, "Ann cast 2,0", "Ann take T04", "Ann place T04 2,0 0")
    me = seat(state, "Ann")
    assert me.board[2][0] == ("T04", 0) and (2, 0) in me.exhausted


def test_aa21_no_placement_may_leave_the_board_without_a_homework_action():
    state = table_in()
    run(state, "Ann cast 2,0", "Ann take T04")
    rejects(state, "Ann place T04 2,3 0", "AA-21")  # the se corner is the only one


def test_aa22_refill_tiles_then_public_homework_then_private():
    state = table_in()
    seat(state, "Ann").will = 4
    run(state, "Ann cast 2,3", "Ann homework S07 tiles=T13", "Ann place T13 1,1 0")
    assert state.draws == [("tile", None), ("homework", None)]  # S07 was public
    run(state, "draw_tile T01", "draw_homework S05")
    assert state.turn == 1 and len(state.public_tiles) == 4 and len(state.public_homework) == 4


def test_aa23_the_eighth_completion_or_the_decks_last_card_triggers_the_end():
    state = table_in()
    me = seat(state, "Ann")
    me.spells = ["S02", "S05", "S06", "S08"]
    me.items = ["I01", "I04", "I05"]  # 7 done
    run(state, "Ann cast 2,3", "Ann homework S03")
    assert state.ended_by == 0 and me.class_dismissed
    state = table_in()
    state.deck = ["S20"]
    run(state, "Ann rest S01", "draw_homework S20 Ann")
    assert state.ended_by == 0 and seat(state, "Ann").class_dismissed


# --- rulings (AA-24 to AA-45) ---------------------------------------------------------------


def test_aa24_the_board_is_three_rows_of_four():
    state = table_in()
    rejects(state, "Ann cast 3,0", "AA-4")
    rejects(state, "Ann cast 0,4", "AA-4")


def test_aa25_rotation_turns_the_edge_string_right():
    state = table_in()
    put(state, "Ann", (1, 1), "T04", 1)
    assert edges_at(state, 0, (1, 1)) == "-ooo"
    put(state, "Ann", (1, 1), "T04", 3)
    assert edges_at(state, 0, (1, 1)) == "oo-o"


def test_aa26_facing_halves_of_one_kind_link_and_the_rim_links_nothing():
    state = table_in()
    assert links(state, 0) == 0  # corners' halves face empty positions
    _linked_column(state)
    assert links(state, 0) == 2  # [1, 0] meets nw and sw; its W half is on the rim
    # what the greedy bot weighs a placement by: the links around the position alone
    assert links_at(state, 0, (1, 0)) == 2 and links_at(state, 0, (0, 0)) == 1
    assert links_at(state, 0, (1, 1)) == 0  # nothing shows there


def test_aa27_a_corner_covered_never_returns():
    state = table_in()
    run(state, "Ann cast 2,0", "Ann take T04", "Ann place T04 0,0 0")
    assert seat(state, "Ann").board[0][0] == ("T04", 0)
    assert all(top is None or top[0] != "nw" for row in seat(state, "Ann").board for top in row)


def test_aa28_markers_belong_to_positions_and_a_rest_clears_them_all():
    state = table_in()
    run(state, "Ann cast 2,0", "Ann take T04", "Ann place T04 1,1 0")
    me = seat(state, "Ann")
    assert (1, 1) not in me.exhausted and (2, 0) in me.exhausted
    run(state, "draw_tile T01", "Bob rest", "Ann rest")
    assert me.exhausted == set()


def test_aa29_steps_in_any_order_each_once():
    state = table_in()
    put(state, "Ann", (1, 1), "T23")  # will+will+shard
    run(state, "Ann cast 1,1", "Ann shard", "Ann will", "Ann will")
    rejects(state, "Ann shard", "AA-29")
    assert (seat(state, "Ann").will, seat(state, "Ann").shards) == (5, 4)


def test_aa30_an_action_that_would_do_nothing_cannot_be_taken():
    state = table_in()
    state.public_tiles = []
    run(state, "Ann cast 2,0")
    rejects(state, "Ann take T04", "AA-11")
    from replay.games.albus_academy.legal import legal_events

    assert legal_events(state) == []  # nothing to take, no neighbour to trigger


def test_aa31_the_trigger_set_is_fixed_when_the_cast_begins():
    state = table_in()
    put(state, "Ann", (1, 3), "T11", 1)  # -oo-: its S half meets se's N half
    me = seat(state, "Ann")
    me.exhausted = {(2, 3)}
    me.private.append("S05")  # Second Wind: ready+2, 3 will
    run(state, "Ann cast 1,3")
    assert state.eligible == []
    run(state, "Ann homework S05 ready=2,3")
    assert (2, 3) not in me.exhausted
    rejects(state, "Ann trigger 2,3", "AA-31")


def test_aa32_an_exhausted_position_cannot_be_cast_but_rest_is_always_allowed():
    state = table_in()
    seat(state, "Ann").exhausted = {(0, 0)}
    rejects(state, "Ann cast 0,0", "AA-32")
    run(state, "Ann rest")


def test_aa33_setup_reveals_four_and_four_then_deals_three_each_from_the_first_player():
    state = new(first_player="Bob")
    assert state.draws[8:] == [("homework", 1)] * 3 + [("homework", 0)] * 3
    me = state.board[0]
    assert (me.will, me.shards) == (3, 3)
    run(state, *[f"draw_tile {t}" for t in ("T01", "T02", "T03", "T04")])
    run(state, *[f"draw_homework {c}" for c in ("S01", "S02", "S03", "S04")])
    rejects(state, "draw_homework S05 Ann", "AA-22")  # Bob's hand comes first


def test_aa34_the_catalogue_must_exist_and_fit_the_table():
    data = msgspec.json.encode(header(catalogue={"name": "albus-sample", "version": "7"}))
    with pytest.raises(ReplayError) as caught:
        open_log(data + b"\n", "x", catalogues=CATALOGUES)
    assert (caught.value.rule, caught.value.line) == ("AA-34", 1)
    with pytest.raises(Exception, match="AA-34"):
        new("Ann Bob Cid Dee", rules={"private_homework": 9})


def test_aa35_a_swap_needs_a_card_in_the_deck_and_the_discard_leaves_the_game():
    state = table_in()
    state.deck = []
    rejects(state, "Ann rest S01", "AA-35")
    state = table_in()
    run(state, "Ann rest S01", "draw_homework S02 Ann")
    assert "S01" not in state.deck and "S01" not in state.public_homework


def test_aa36_shards_are_unlimited():
    state = table_in()
    seat(state, "Ann").shards = 100
    run(state, "Ann cast 0,0", "Ann shard")
    assert seat(state, "Ann").shards == 101


def test_aa37_ongoing_discounts_lower_costs_never_below_zero():
    state = table_in()
    me = seat(state, "Ann")
    me.items = ["I10", "I14"]  # spell_discount +1 and +2
    me.will = 0
    run(state, "Ann cast 2,3", "Ann homework S03")  # 3 - 3 = 0 will
    assert me.spells == ["S03"]


def test_aa38_tiles_taken_by_an_effect_are_placed_with_the_turns_others():
    state = table_in()
    seat(state, "Ann").will = 4
    run(state, "Ann cast 2,3", "Ann homework S07 tiles=T22", "Ann place T22 1,2 0")
    assert seat(state, "Ann").board[1][2] == ("T22", 0)


def test_aa39_placements_in_any_order_a_new_tile_may_be_covered_by_another():
    state = table_in()
    run(state, "Ann cast 2,0", "Ann take T04")
    state.taken.append("T13")  # as if a card had taken it too
    state.public_tiles.remove("T13")
    run(state, "Ann place T04 1,1 0", "Ann place T13 1,1 1")
    assert seat(state, "Ann").board[1][1] == ("T13", 1)


def _near_the_end(final_turns: str = "complete_round") -> aa.State:
    state = table_in(rules={"final_turns": final_turns})
    for me in state.board:
        me.spells = ["S02", "S05", "S06", "S08"]
        me.items = ["I01", "I04", "I05"]  # 7 each
    state.board[1].private = ["S04", "I15", "I03"]
    return state


def test_aa40_the_class_dismissed_card_goes_to_the_first_trigger_only():
    state = _near_the_end()
    run(state, "Ann cast 2,3", "Ann homework S03", "draw_homework S09")
    run(state, "Bob cast 2,3", "Bob homework S04")
    assert state.ended_by == 0 and not seat(state, "Bob").class_dismissed


def test_aa41_the_final_round_ends_with_the_seat_before_the_first_player():
    state = _near_the_end()
    run(state, "Ann cast 2,3", "Ann homework S03", "draw_homework S09")
    assert not aa.is_over(state)  # Bob still plays
    run(state, "Bob rest")
    assert aa.is_over(state)
    state = _near_the_end()
    run(state, "Ann rest", "Bob cast 2,3", "Bob homework S04", "draw_homework S09 Bob")
    assert aa.is_over(state)  # Bob sits before Ann: at once
    state = table_in("Ann Bob Cid", rules={"final_turns": "one_each"})
    state.ended_by = 1
    seat(state, "Bob").class_dismissed = True
    state.turn = 1
    run(state, "Bob rest", "Cid rest")
    assert not aa.is_over(state)  # one_each: Ann too
    run(state, "Ann rest")
    assert aa.is_over(state)


def test_aa42_the_final_score_by_source():
    state = _near_the_end()
    me = seat(state, "Ann")
    me.items = ["I01", "I04", "I15", "I06"]  # Spell Register: per_spell+1
    me.tokens = {"I06": 2}
    run(state, "Ann cast 2,3", "Ann homework S03", "draw_homework S09", "Bob rest")
    # Spells S02 0 + S05 1 + S06 3 + S08 1 + S03 2 = 7; items I01 0 + I04 1 + I15 1 + I06 0;
    # tokens 2; per_spell: 5 spells; class dismissed 2.
    assert result(state).sources[0] == {
        "spell": 7,
        "item": 2,
        "token": 2,
        "end_ability": 5,
        "class_dismissed": 2,
    }


def test_aa43_ties_go_to_more_homework_then_are_shared():
    state = table_in()
    state.phase = "over"
    assert result(state).winners == [0, 1]
    seat(state, "Bob").spells = ["S01"]  # 1 prestige
    seat(state, "Ann").spells = ["S04"]  # 1 prestige
    seat(state, "Ann").items = ["I02"]  # 0 prestige, one more homework
    assert result(state).winners == [0]
    state = table_in(rules={"tie_break": "shared"})
    state.phase = "over"
    seat(state, "Ann").items = ["I02"]
    assert result(state).winners == [0, 1]


def test_aa44_two_to_four_players():
    with pytest.raises(Exception, match="AA-44"):
        new("Ann")
    with pytest.raises(Exception, match="AA-44"):
        new("A B C D E")


def test_aa45_a_log_may_stop_in_the_final_turns_cast_when_nothing_is_owed():
    state = _near_the_end()
    run(state, "Ann cast 2,3", "Ann homework S03", "draw_homework S09", "Bob cast 0,0", "Bob shard")
    assert is_over(state) and result(state).complete
    state = _near_the_end()
    run(
        state,
        "Ann cast 2,3",
        "Ann homework S03",
        "draw_homework S09",
        "Bob cast 2,0",
        "Bob take T04",
    )
    assert not is_over(state)  # a placement is owed


def test_the_example_replays_to_a_complete_match():
    from .support import LOGS

    outcome = replay(
        open_log((LOGS / "aa-example-2p.jsonl").read_bytes(), "x", catalogues=CATALOGUES)
    )
    assert outcome.result.complete


def test_the_opening_of_the_two_player_example_by_hand():
    # Line 16: Ann activates her se corner (homework) and completes her public spell S03
    # (cost 3 will: 3 → 0; 2 prestige tucked); line 18 refills the public homework.
    # Line 20: Bob completes his private item I19 with his 3 shards (0 left, 1 prestige).
    match = open_log(read_log(LOGS / "aa-example-2p.jsonl"), "2p", catalogues=CATALOGUES)
    after_ann, after_bob = state_at(match, 16), state_at(match, 19)
    ann, bob = after_ann.board[0], after_bob.board[1]
    assert (ann.will, ann.spells, (2, 3) in ann.exhausted) == (0, ["S03"], True)
    assert (bob.shards, bob.items) == (0, ["I19"])
    assert "S03" not in after_ann.public_homework


def test_the_fields_the_rules_rebind_are_all_taken_over_after_a_cast():
    # AA-5: an event after a cast is checked on a copy with the cast closed, and the state
    # takes over the copy's REBOUND fields; any field the rules assign must be among them.
    import ast
    from pathlib import Path

    from replay.games.albus_academy.rules import REBOUND

    package = Path(aa.__file__).parent
    assigned = set()
    for module in package.glob("*.py"):
        for node in ast.walk(ast.parse(module.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else []
            if isinstance(node, ast.AugAssign):
                targets = [node.target]
            for target in targets:
                if (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "state"
                ):
                    assigned.add(target.attr)
    assert assigned and assigned <= set(REBOUND), assigned - set(REBOUND)
