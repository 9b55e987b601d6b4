"""One test (at least) per rule of rules/heraldry.md, on small hand-drawn maps.

The map of `support.MAP` (row r, column q is hex [q, r]):

    r0  p p d m l f        lakes at [4, 0] and [1, 3]
    r1   p d p m p p       [1, 2] touches the lake [1, 3]; [2, 0] touches none
    r2    f p d d p m      edge hexes: r 0 or 4, q 0 or 5
    r3     p l p p f d
    r4      d p m p p p
"""

from __future__ import annotations

import gzip

import pytest

from ingest.files.read import read_log
from replay.errors import ReplayError
from replay.facts import PiecesRemoved, ResourceChanged, ScoreChanged, TrackMoved
from replay.games import heraldry as he
from replay.games.heraldry.legal import has_action
from replay.replayer import open_log, replay, state_at
from tests.support import refused

from .support import LOGS, MAP, at, give, grid, header, new, put, rejects, run, table, turn

THREE = "Ann Bob Cid"


def _open(head: he.Header) -> None:
    import msgspec

    open_log(msgspec.json.encode(head) + b"\n", "h.jsonl")


def _header_rule(head: he.Header) -> str:
    with pytest.raises(ReplayError) as caught:
        _open(head)
    assert caught.value.line == 1
    return caught.value.rule


# --- components and map -------------------------------------------------------------------


def test_he1_each_player_starts_with_the_printed_reserve_and_cannot_build_beyond_it():
    state = table()
    assert state.reserve == [{"city": 5, "fortress": 2, "knight": 7, "village": 14}] * 2
    for q in (0, 1, 2):
        put(state, "Ann", q, 4, knights=1)
    message = rejects(state, "Ann build 0,4=fortress 1,4=fortress 2,4=fortress", "HE-10")
    assert "has 2 in reserve" in message


def test_he2_terrains_are_known_and_each_but_lake_yields_its_token():
    bad = header(map=[*grid()[:-1], he.MapHex(q=5, r=4, terrain="swamp")])
    assert _header_rule(bad) == "HE-2"
    state = table()
    for q in (0, 2, 3, 5):  # plains, field, mountain, forest
        put(state, "Ann", q, 0, knights=1)
    facts = run(state, "Ann build 0,0=village 2,0=village 3,0=village 5,0=village")
    assert state.tokens[0] == {"plains": 1, "field": 1, "mountain": 1, "forest": 1}
    assert [f.resource for f in facts if isinstance(f, ResourceChanged)] == [
        "plains",
        "field",
        "mountain",
        "forest",
    ]


def test_he3_the_map_is_hexes_in_axial_coordinates_and_edges_have_fewer_than_six_neighbours():
    twice = header(map=[*grid()[:-1], he.MapHex(q=0, r=0, terrain="plains")])
    assert _header_rule(twice) == "HE-3"
    state = table()
    assert state.board.edge[at(state, 0, 0)] and state.board.edge[at(state, 5, 2)]
    assert not state.board.edge[at(state, 2, 2)]
    assert sorted(state.board.coords[n] for n in state.board.neighbours[at(state, 2, 2)]) == [
        (1, 2),
        (1, 3),
        (2, 1),
        (2, 3),
        (3, 1),
        (3, 2),
    ]


# --- setup --------------------------------------------------------------------------------


def test_he4_setup_order_one_each_the_last_three_then_back_two_each():
    assert new().setup_order == [0, 1, 1, 1, 0, 0]
    state = new(THREE, first_player="Bob")
    assert state.setup_order == [1, 2, 0, 0, 0, 2, 2, 1, 1]
    state = new()
    rejects(state, "Bob city 2,0", "HE-4")  # Ann places first
    rejects(state, "Ann recruit 0,0 1", "HE-4")  # no action before setup ends
    run(
        state,
        "Ann city 0,0",
        "Bob city 2,0",
        "Bob city 5,1",
        "Bob city 2,2",
        "Ann city 0,3",
        "Ann city 4,4",
    )
    assert state.phase == "play" and state.turn == 0 and state.round == 1
    for seat in (0, 1):
        assert state.reserve[seat]["city"] == 2 and state.reserve[seat]["knight"] == 4
        assert sorted(state.posts[seat].values()) == [1, 1, 1]
    rejects(state, "Ann city 3,4", "HE-4")  # setup is over


def test_he5_a_setup_city_never_on_forest_or_lake_nor_on_or_next_to_a_city():
    state = new()
    rejects(state, "Ann city 5,0", "HE-5")  # forest
    rejects(state, "Ann city 4,0", "HE-5")  # lake
    rejects(state, "Ann city 9,9", "HE-5")  # off the map
    run(state, "Ann city 0,0")
    rejects(state, "Bob city 0,0", "HE-5")  # on it
    rejects(state, "Bob city 1,0", "HE-5")  # next to it
    rejects(state, "Bob city 0,1", "HE-5")


# --- actions ------------------------------------------------------------------------------


def test_he6_recruit_one_or_two_three_where_the_city_touches_a_lake():
    state = table()
    put(state, "Ann", 1, 2, building="city")  # touches the lake [1, 3]
    put(state, "Ann", 2, 0, building="city")  # touches none
    rejects(state, "Ann recruit 2,0 3", "HE-6")
    rejects(state, "Ann recruit 2,0 0", "HE-6")
    rejects(state, "Ann recruit 2,2 1", "HE-6")  # no city there
    facts = run(state, "Ann recruit 1,2 3")
    assert state.knights[at(state, 1, 2)][0] == 3 and state.reserve[0]["knight"] == 4
    assert facts == [
        TrackMoved(round=1, seat=0, track="knights", before=0, after=3, cause="recruit")
    ]
    state.reserve[0]["knight"] = 1
    turn(state, "Ann")
    rejects(state, "Ann recruit 2,0 2", "HE-6")  # one knight left in reserve


def test_he7_move_one_or_two_knights_one_step_each():
    state = table()
    put(state, "Ann", 0, 0, knights=1)
    put(state, "Ann", 2, 2, knights=1)
    rejects(state, "Ann move 0,0>2,0", "HE-7")  # not adjacent
    rejects(state, "Ann move 1,1>2,1", "HE-7")  # no knight there
    rejects(state, "Ann move 0,0>1,0 2,2>3,2 1,0>2,0", "HE-7")  # three steps
    assert run(state, "Ann move 0,0>1,0 2,2>3,2") == []
    assert state.posts[0] == {at(state, 1, 0): 1, at(state, 3, 2): 1}
    assert state.turn == 1


def test_he8_lakes_enemy_cities_and_fortresses_two_enemy_pieces_and_held_mountains_keep_out():
    state = table()
    put(state, "Bob", 2, 2, building="city")
    put(state, "Bob", 3, 2, building="fortress")
    put(state, "Bob", 2, 3, knights=1, building="village")  # two pieces of one opponent
    put(state, "Bob", 2, 4, knights=1)  # a mountain holding a Bob piece
    put(state, "Bob", 3, 4, knights=1)  # one piece on plains: may be shared
    put(state, "Ann", 0, 3, knights=1)
    put(state, "Ann", 2, 1, knights=1)
    put(state, "Ann", 3, 3, knights=1)
    put(state, "Ann", 1, 4, knights=1)
    rejects(state, "Ann move 0,3>1,3", "HE-8")  # lake
    rejects(state, "Ann move 2,1>2,2", "HE-8")  # Bob's city
    rejects(state, "Ann move 2,1>3,1 3,3>3,2", "HE-8")  # Bob's fortress
    rejects(state, "Ann move 3,3>2,3", "HE-8")  # Bob has two pieces there
    rejects(state, "Ann move 1,4>2,4", "HE-8")  # a mountain holding Bob's knight
    run(state, "Ann move 3,3>3,4")  # share with Bob's lone knight
    assert state.knights[at(state, 3, 4)] == [1, 1]


def test_he9_sharing_then_battle_removes_enemy_knights_and_villages_and_loots_a_token():
    state = table()
    put(state, "Bob", 2, 2, building="village")
    give(state, "Bob", "field", "forest", "forest")
    put(state, "Ann", 2, 1, knights=1)
    put(state, "Ann", 3, 2, knights=1)
    assert run(state, "Ann move 2,1>2,2") == []  # Ann had no piece there: they share
    assert state.building[at(state, 2, 2)] == (1, "village")
    turn(state, "Ann")
    facts = run(state, "Ann move 3,2>2,2:field")  # now Ann has a knight there: battle
    assert state.building[at(state, 2, 2)] is None
    assert state.reserve[1]["village"] == 14
    assert state.tokens[1] == {"field": 0, "forest": 2} and state.tokens[0] == {"field": 1}
    assert (
        PiecesRemoved(
            round=1, seat=0, victim=1, place="[2, 2]", piece="village", count=1, cause="battle"
        )
        in facts
    )
    assert ResourceChanged(round=1, seat=0, resource="field", delta=1, cause="loot") in facts
    # Knights too: all of an opponent's knights there go back to the reserve, no loot.
    state = table()
    put(state, "Bob", 1, 1, knights=1)
    put(state, "Ann", 1, 1, knights=1)
    put(state, "Ann", 2, 1, knights=1)
    facts = run(state, "Ann move 2,1>1,1")
    assert state.knights[at(state, 1, 1)] == [2, 0] and state.reserve[1]["knight"] == 7
    assert [f for f in facts if isinstance(f, PiecesRemoved)] == [
        PiecesRemoved(
            round=1, seat=0, victim=1, place="[1, 1]", piece="knight", count=1, cause="battle"
        )
    ]


def test_he10_build_replaces_one_knight_per_hex_and_takes_the_terrains_token():
    state = table()
    put(state, "Ann", 2, 0, knights=1)
    put(state, "Ann", 3, 0, knights=2)
    put(state, "Ann", 1, 1, knights=1, building="village")
    put(state, "Ann", 2, 2, knights=1)
    put(state, "Bob", 2, 2, knights=1)
    put(state, "Bob", 3, 2, knights=1)
    rejects(state, "Ann build 2,0=village 2,0=fortress", "HE-10")  # one knight per hex
    rejects(state, "Ann build 1,1=village", "HE-10")  # a building stands there
    rejects(state, "Ann build 2,2=village", "HE-10")  # Bob's knight is there
    rejects(state, "Ann build 3,2=village", "HE-10")  # no knight of Ann's
    facts = run(state, "Ann build 2,0=village 3,0=fortress")
    assert state.building[at(state, 2, 0)] == (0, "village")
    assert state.building[at(state, 3, 0)] == (0, "fortress")
    assert state.knights[at(state, 3, 0)][0] == 1
    assert state.reserve[0] == {"city": 5, "fortress": 1, "knight": 4, "village": 12}
    assert state.tokens[0] == {"field": 1, "mountain": 1}
    assert TrackMoved(round=1, seat=0, track="buildings", before=1, after=3, cause="build") in facts


def test_he11_found_a_city_from_a_village_for_ten_points():
    state = table()
    put(state, "Ann", 2, 2, knights=1, building="village")  # field; own knight is no bar
    put(state, "Ann", 0, 2, building="village")  # forest
    put(state, "Ann", 4, 4, building="village")
    put(state, "Bob", 4, 3, building="city")  # next to [4, 4]
    put(state, "Ann", 3, 4, building="village")
    put(state, "Bob", 3, 4, knights=1)
    rejects(state, "Ann found 0,2", "HE-11")  # forest
    rejects(state, "Ann found 4,4", "HE-11")  # next to a city
    rejects(state, "Ann found 3,4", "HE-11")  # Bob's knight there
    rejects(state, "Ann found 1,1", "HE-11")  # no village
    facts = run(state, "Ann found 2,2")
    assert state.building[at(state, 2, 2)] == (0, "city")
    assert state.reserve[0]["city"] == 4 and state.reserve[0]["village"] == 11
    assert facts == [
        ScoreChanged(round=1, seat=0, source="city", points=10),
        TrackMoved(round=1, seat=0, track="score", before=0, after=10, cause="found_city"),
    ]
    state = table()
    put(state, "Ann", 2, 2, building="village")
    state.reserve[0]["city"] = 0
    rejects(state, "Ann found 2,2", "HE-11")


def test_he12_expedition_two_knights_leave_the_reserve_one_lands_on_an_empty_edge_hex():
    state = table()
    put(state, "Bob", 0, 1, knights=1)
    rejects(state, "Ann expedition 2,2", "HE-12")  # not an edge hex
    rejects(state, "Ann expedition 4,0", "HE-12")  # a lake
    rejects(state, "Ann expedition 0,1", "HE-12")  # not empty
    run(state, "Ann expedition 0,4")
    assert state.reserve[0]["knight"] == 5 and state.lost[0] == 1
    assert state.posts[0] == {at(state, 0, 4): 1}
    state.reserve[1]["knight"] = 1
    rejects(state, "Bob expedition 5,4", "HE-12")


def test_he13_promote_pays_at_least_fifteen_and_climbs_one_title():
    state = table()
    give(state, "Ann", "mountain", "mountain", "field", "forest", "plains")
    rejects(state, "Ann promote forest plains field", "HE-13")  # 3 + 4 + 5 = 12
    facts = run(state, "Ann promote field mountain forest plains")  # 5 + 6 + 3 + 4 = 18
    assert he.TITLES[state.title[0]] == "viscount" and state.points[0]["title"] == 4
    assert state.tokens[0] == {"mountain": 1, "field": 0, "forest": 0, "plains": 0}
    assert TrackMoved(round=1, seat=0, track="title", before=0, after=1, cause="promote") in facts
    points = [state.points[0]["title"]]
    for _ in range(3):
        give(state, "Ann", "mountain", "mountain", "mountain")
        run(turn(state, "Ann"), "Ann promote mountain mountain mountain")
        points.append(state.points[0]["title"])
    assert points == [4, 10, 18, 30]  # viscount 4, count 6, marquis 8, duke 12
    state = table()
    state.title[0] = 4
    give(state, "Ann", "mountain", "mountain", "mountain")
    rejects(state, "Ann promote mountain mountain mountain", "HE-13")  # a duke climbs no more


def test_he14_pass_only_without_a_legal_action():
    state = table()
    rejects(state, "Ann pass", "HE-14")  # an expedition is open at least
    state.reserve[0]["knight"] = 0
    assert not has_action(state, 0)
    assert he.legal_events(state) == [he.Pass(player="Ann")]
    run(state, "Ann pass")
    assert state.turns == 1 and state.turn == 1


def _near_duke(players: str = "Ann Bob", **fields: object) -> he.State:
    state = table(players, **fields)
    for seat in range(len(state.players)):
        state.title[seat] = 3
    return state


def test_he15_a_duke_ends_the_game_once_every_player_has_had_as_many_turns():
    state = _near_duke()
    give(state, "Ann", "mountain", "mountain", "mountain")
    run(state, "Ann promote mountain mountain mountain")
    assert state.duke and not he.is_over(state)  # Bob still has his turn of this round
    run(state, "Bob expedition 0,4")
    assert he.is_over(state) and state.turns == 2
    rejects(state, "Ann expedition 5,4", "HE-15")
    state = _near_duke()
    run(state, "Ann expedition 0,4")
    give(state, "Bob", "mountain", "mountain", "mountain")
    run(state, "Bob promote mountain mountain mountain")  # the last in turn order: over now
    assert he.is_over(state)


def test_he16_final_score_is_the_track_plus_token_end_values_and_ties_go_to_the_later_player():
    state = _near_duke()
    state.points[0]["city"] = 10  # Ann: 10 + plains 1 + field 2 = 13
    give(state, "Ann", "plains", "field")
    state.points[1]["city"] = 0  # Bob: duke 12 + the rest spent = 12, + forest 1 = 13
    give(state, "Bob", "mountain", "mountain", "mountain", "forest")
    run(state, "Ann expedition 0,4", "Bob promote mountain mountain mountain")
    outcome = he.result(state)
    assert outcome.complete
    assert outcome.scores == [13, 13]
    assert outcome.sources == [
        {"city": 10, "title": 0, "tokens": 3},
        {"city": 0, "title": 12, "tokens": 1},
    ]
    assert outcome.winners == [1] and outcome.ranks == [2, 1]  # Bob played later


def test_he17_setup_cities_score_nothing():
    state = new()
    run(
        state,
        "Ann city 0,0",
        "Bob city 2,0",
        "Bob city 5,1",
        "Bob city 2,2",
        "Ann city 0,3",
        "Ann city 4,4",
    )
    assert he.result(state).scores == [0, 0]


def test_he18_a_promotion_may_overpay_but_only_with_tokens_held():
    state = table()
    give(state, "Ann", "mountain", "mountain", "mountain", "field")
    rejects(state, "Ann promote mountain mountain plains", "HE-18")
    run(state, "Ann promote mountain mountain mountain field")  # 23, a needless field paid
    assert state.title[0] == 1 and sum(state.tokens[0].values()) == 0


def test_he19_loot_one_token_per_destroyed_village_whose_owner_has_any():
    def scene(*bob_tokens: str) -> he.State:
        state = table()
        put(state, "Bob", 2, 2, building="village")
        give(state, "Bob", *bob_tokens)
        put(state, "Ann", 2, 2, knights=1)
        put(state, "Ann", 3, 2, knights=1)
        put(state, "Ann", 0, 0, knights=1)
        return state

    state = scene("field")
    rejects(state, "Ann move 3,2>2,2", "HE-19")  # loot is due
    rejects(state, "Ann move 3,2>2,2:mountain", "HE-19")  # Bob holds none
    rejects(state, "Ann move 3,2>2,2:field+field", "HE-19")  # one per village
    rejects(state, "Ann move 0,0>1,0:field", "HE-19")  # no battle, no loot
    state = scene()
    rejects(state, "Ann move 3,2>2,2:field", "HE-19")  # Bob has no token to take
    run(state, "Ann move 3,2>2,2")
    assert state.building[at(state, 2, 2)] is None


def test_he20_the_second_step_sees_the_first_and_never_moves_the_same_knight():
    state = table()
    put(state, "Bob", 2, 2, knights=1)
    put(state, "Ann", 1, 2, knights=1)
    put(state, "Ann", 3, 2, knights=1)
    facts = run(state, "Ann move 1,2>2,2 3,2>2,2")  # shared, then a battle
    assert state.knights[at(state, 2, 2)] == [2, 0]
    assert any(isinstance(f, PiecesRemoved) for f in facts)
    state = table()
    put(state, "Ann", 0, 0, knights=1)
    rejects(state, "Ann move 0,0>1,0 1,0>2,0", "HE-20")  # the same knight twice
    put(state, "Ann", 1, 0, knights=1)
    run(state, "Ann move 0,0>1,0 1,0>2,0")  # the knight that was there before
    # A knight into a hex where Ann has only a village: a battle.
    state = table()
    put(state, "Ann", 2, 3, building="village")
    put(state, "Bob", 2, 3, knights=1)
    put(state, "Ann", 3, 3, knights=1)
    run(state, "Ann move 3,3>2,3")
    assert state.knights[at(state, 2, 3)] == [1, 0]
    # Two opponents with one piece each do not block, and a battle removes both.
    state = table(THREE, rows=MAP)
    put(state, "Bob", 2, 3, knights=1)
    put(state, "Cid", 2, 3, knights=1)
    put(state, "Ann", 3, 3, knights=2)
    run(state, "Ann move 3,3>2,3 3,3>2,3")
    assert state.knights[at(state, 2, 3)] == [2, 0, 0]


def test_he21_passes_count_as_turns_and_turn_order_starts_at_the_first_player():
    state = _near_duke(THREE, first_player="Bob")
    assert state.turn == 1
    give(state, "Cid", "mountain", "mountain", "mountain")
    run(state, "Bob expedition 0,4", "Cid promote mountain mountain mountain")
    state.reserve[0]["knight"] = 0  # Ann can only pass; her pass completes the round
    run(state, "Ann pass")
    assert he.is_over(state) and state.turns == 3
    assert he.result(state).ranks == [2, 3, 1]  # Ann and Bob tie on 0: Ann plays after Bob


def test_he22_header_checks():
    assert _header_rule(header("Ann")) == "HE-22"
    assert _header_rule(header("Ann Bob Cid Dee Eve", rows=("pppppppppp",) * 1)) == "HE-22"
    assert _header_rule(header(map=grid()[:-2])) == "HE-22"  # not 15 per player
    tiles = [he.MapHex(q=h.q, r=h.r, terrain=h.terrain, tile=i // 3) for i, h in enumerate(grid())]
    # Rows of three in a line are not mutually adjacent.
    assert _header_rule(header(map=tiles, rules={"tile_size": 3, "tiles_per_player": 5})) == "HE-22"
    partial = [
        he.MapHex(q=h.q, r=h.r, terrain=h.terrain, tile=1 if i == 0 else None)
        for i, h in enumerate(grid())
    ]
    assert _header_rule(header(map=partial)) == "HE-22"
    apart = ("ppp..ppp", "ppp..ppp")  # two islands
    assert _header_rule(header(rows=apart)) == "HE-22"
    far = [*grid()[:-1], he.MapHex(q=10**9, r=-(10**9), terrain="plains")]  # one hex afar
    assert _header_rule(header(map=far)) == "HE-22"  # not connected, refused without a grid
    # A hole makes its neighbours edge hexes.
    holed = new(rows=("pppp", "p.pp", "pppp", "ppp."))
    edge = {holed.board.coords[h] for h in range(len(holed.board)) if holed.board.edge[h]}
    assert (2, 1) in edge and (1, 2) in edge and (2, 2) not in edge


def test_he22_triangle_tiles_pass():
    triangles = []
    for i, (q, r) in enumerate([(0, 0), (2, 0), (0, 2), (2, 2)]):
        for dq, dr in ((0, 0), (1, 0), (0, 1)):
            triangles.append(he.MapHex(q=q + dq, r=r + dr, terrain="plains", tile=i))
    _open(header(map=triangles, rules={"tile_size": 3, "tiles_per_player": 2}))


def test_a_battle_with_loot_and_a_promotion_of_the_two_player_example_by_hand():
    # Line 23: Fay's first knight from [0, 0] shares [1, 0] with Ann's village; the second
    # joins it, so a battle: the village goes back to Ann's reserve and Fay takes Ann's field.
    # Line 25: Fay pays forest 3 + forest 3 + field 5 + plains 4 = 15 for viscount: 4 points.
    outcome = replay(open_log(read_log(LOGS / "he-example-2p.jsonl"), "2p"))
    by_line = {step.line: step for step in outcome.steps}
    battle = by_line[23].facts
    assert (
        PiecesRemoved(
            round=8, seat=0, victim=1, place="[1, 0]", piece="village", count=1, cause="battle"
        )
        in battle
    )
    assert ResourceChanged(round=8, seat=1, resource="field", delta=-1, cause="loot") in battle
    assert ScoreChanged(round=9, seat=0, source="title", points=4) in by_line[25].facts
    before, after = (state_at(outcome.match, i) for i in (21, 22))
    h = before.board.index[1, 0]
    assert before.building[h] == (1, "village") and after.building[h] is None
    assert after.knights[h] == [2, 0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_simulator_lays_a_fresh_legal_map_for_every_match(players):
    # HE-22: 27 hexes a player, a tile id on every hex; opening the log checks the map.
    from ingest.simulation.simulate import Spec, simulate_chunk

    spec = Spec(game="heraldry", players=players, bots=("random",), seed=players)
    maps = set()
    for written in simulate_chunk((spec, 0, 4)):
        header = open_log(gzip.decompress(written.data), written.game_id).header
        assert len(header.map) == 27 * players and all(h.tile is not None for h in header.map)
        maps.add(tuple((h.q, h.r, h.terrain) for h in header.map))
    assert len(maps) == 4


def test_the_map_grid_finds_the_same_neighbours_as_the_coordinates_and_the_lakes_shores():
    # HE-3's adjacency, HE-6's hexes by a lake: the padded grid against plain lookups.
    from replay.games.heraldry.board import DIRECTIONS, _neighbours, _scattered_neighbours
    from replay.games.heraldry.mapgen import random_map

    rng = __import__("random").Random(5)
    for players in (2, 3, 4):
        hexes = random_map(players, he.STANDARD, rng)
        coords = [(h.q, h.r) for h in hexes]
        assert _neighbours(coords) == _scattered_neighbours(coords)
        board = he.board.build_board(hexes, players, he.STANDARD)
        index = board.index
        for h, (q, r) in enumerate(coords):
            near = [index.get((q + dq, r + dr)) for dq, dr in DIRECTIONS]
            lake = any(n is not None and board.terrain[n] == "lake" for n in near)
            assert board.by_lake[h] == lake


def test_he20_a_second_step_is_judged_on_the_board_the_first_leaves_however_it_is_written():
    # HE-20: on the board the first step leaves, Ann's knight on [2, 3] is the one that just
    # moved, so it may not go on (HE-20, not HE-7's "no knight there"); two knights from
    # [3, 3] may both enter [2, 3]. Steps built with lists instead of tuples are judged alike.
    for wrap in (tuple, list):
        state = table()
        put(state, "Ann", 3, 3, knights=2)
        first = he.Step(from_=wrap((3, 3)), to=wrap((2, 3)))
        on = he.Move(player="Ann", steps=[first, he.Step(from_=(2, 3), to=(1, 3))])
        assert "has moved already" in refused(he.apply, state, on, "HE-20")
        both = he.Move(player="Ann", steps=[first, he.Step(from_=(3, 3), to=(2, 3))])
        he.apply(state, both)
        assert state.knights[at(state, 2, 3)][0] == 2 and not state.knights[at(state, 3, 3)][0]
