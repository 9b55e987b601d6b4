"""What an Albus Academy seat knows (docs/engines.md): `view`, `resample`, `chance_outcomes`
and `clone` on hand-built situations with the sample catalogue `albus-sample` v1.

`table_in()`: public tiles T04 T13 T07 T22, public homework S03 I02 S07 I10, Ann holds S01
I08 S12, Bob I15 S04 I03; nothing else has left the deck or the bag yet."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest

from replay.game import HIDDEN
from replay.games import albus_academy as aa
from replay.games.albus_academy.legal import chance_event, chance_outcomes
from replay.games.albus_academy.state import clone
from replay.games.albus_academy.view import resample, view

from .support import HANDS, PUBLIC_HOMEWORK, PUBLIC_TILES, new, run, seat, table_in


def test_aa36_private_homework_is_hidden_from_the_others_and_the_deck_and_bag_keep_sizes():
    state = table_in()
    before = clone(state)
    ann = view(state, 0)
    assert seat(ann, "Ann").private == HANDS[0]  # its own, known
    assert seat(ann, "Bob").private == [HIDDEN] * 3
    assert seat(view(state, 1), "Ann").private == [HIDDEN] * 3
    assert seat(view(state, 1), "Bob").private == HANDS[1]
    assert ann.deck == [HIDDEN] * len(state.deck)
    assert ann.bag == {HIDDEN: sum(state.bag.values())}
    # AA-1: the public areas, the boards and the resources lie open
    assert ann.public_tiles == PUBLIC_TILES and ann.public_homework == PUBLIC_HOMEWORK
    assert [me.board for me in ann.board] == [me.board for me in state.board]
    assert view(ann, 0) == ann
    assert view(state, None) == state and view(state, None) is not state
    assert state == before, "a view changes nothing"
    shown = aa.snapshot(ann)
    assert shown["seats"]["Bob"]["private"]["homework"] == [HIDDEN] * 3
    assert shown["seats"]["Bob"]["private_count"] == 3
    assert (shown["deck"], shown["bag"]) == (len(state.deck), sum(state.bag.values()))


def test_aa36_an_empty_bag_is_no_bag_in_a_view():
    state = table_in()
    state.bag = {tile: 0 for tile in state.bag}
    assert view(state, 0).bag == {}
    assert view(resample(state, 0, random.Random(1)), 0) == view(state, 0)


def test_aa36_resample_deals_the_hidden_homework_and_tiles_from_the_unseen_ones_only():
    state = table_in()
    cat = state.catalogue
    # Nothing has left the game yet, so the unseen homework is exactly Bob's hand and the deck.
    unseen = sorted(set(cat.homework) - set(PUBLIC_HOMEWORK) - set(HANDS[0]))
    in_bag = Counter(cat.bag()) - Counter(PUBLIC_TILES)
    hands = set()
    for n in range(20):
        rng = random.Random(n)
        drawn = resample(state, 0, rng)
        assert view(drawn, 0) == view(state, 0)
        bob = seat(drawn, "Bob").private
        assert sorted([*bob, *drawn.deck]) == unseen
        assert +Counter(drawn.bag) == in_bag
        hands.add(tuple(bob))
        again = resample(view(state, 0), 0, rng)  # from the view alone, the same
        assert view(again, 0) == view(state, 0)
        assert sorted([*seat(again, "Bob").private, *again.deck]) == unseen
    assert len(hands) > 10, "Bob's hand is dealt again, not kept"
    assert resample(state, None, random.Random(0)) == state


def test_aa35_aa20_what_left_the_game_is_unseen_and_may_be_dealt_again():
    """A card swapped away leaves the game face down (AA-35) and a covered tile is gone
    (AA-20); the state keeps neither, so to a seat they are as unseen as the deck."""
    state = table_in()
    run(state, "Ann rest S01", "draw_homework S02 Ann")
    # Bob drew two tiles in a turn gone by and laid the second over the first.
    under, over = [t for t in sorted(state.bag) if t not in PUBLIC_TILES][:2]
    state.bag[under] -= 1
    state.bag[over] -= 1
    seat(state, "Bob").board[1][1] = (over, 0)
    bob = view(state, 1)
    assert seat(bob, "Ann").private == [HIDDEN] * 3
    visible = {*state.public_homework, *HANDS[1]}
    dealt = set()
    covered = 0
    for n in range(40):
        drawn = resample(state, 1, random.Random(n))
        assert view(drawn, 1) == bob
        hidden = [*seat(drawn, "Ann").private, *drawn.deck]
        assert len(hidden) == len(set(hidden)) and not visible & set(hidden)
        dealt.update(seat(drawn, "Ann").private)
        # the bag: the catalogue's copies less those on view, Bob's top tile among them
        shown = Counter([*state.public_tiles, over])
        assert all(drawn.bag[t] <= state.catalogue.bag()[t] - shown[t] for t in drawn.bag)
        assert sum(drawn.bag.values()) == sum(state.bag.values())
        covered += drawn.bag.get(under, 0) == state.catalogue.bag()[under]
    assert "S01" in dealt  # the discard is one of the cards Bob cannot tell from the deck's
    assert covered  # and the covered tile one of the bag's


def test_a_resampled_state_plays_on_legally():
    state = table_in("Ann Bob Cid")
    rng = random.Random(3)
    drawn = resample(state, 2, rng)
    for _ in range(200):
        event = chance_event(drawn, rng)
        if event is None:
            offered = aa.legal_events(drawn, drawn.turn) if drawn.phase != "over" else []
            if not offered:
                break
            event = rng.choice(offered)
        aa.apply(drawn, event)


def test_aa22_aa33_chance_lists_every_draw_once_with_its_share():
    state = new()
    tiles = dict(chance_outcomes(state))
    total = sum(state.bag.values())
    assert tiles == {
        aa.events.DrawTile(tile=t): pytest.approx(n / total) for t, n in state.bag.items() if n
    }
    assert sum(tiles.values()) == pytest.approx(1)
    run(state, *[f"draw_tile {t}" for t in PUBLIC_TILES])
    public = list(chance_outcomes(state))
    assert {e.card for e, _ in public} == set(state.deck) and all(e.to is None for e, _ in public)
    assert all(p == pytest.approx(1 / len(state.deck)) for _, p in public)
    run(state, *[f"draw_homework {c}" for c in PUBLIC_HOMEWORK])
    assert {e.to for e, _ in chance_outcomes(state)} == {"Ann"}  # AA-33: the first player's
    assert list(chance_outcomes(table_in())) == []  # Ann decides


def test_a_clone_is_equal_and_shares_nothing_the_rules_change():
    state = table_in()
    run(state, "Ann cast 0,0")
    before = msgspec.json.encode(state)
    copy = clone(state)
    assert copy == state
    shared = {"config", "catalogue", "players", "seats"}  # frozen, or never changed
    for name in aa.State.__struct_fields__:
        value = getattr(state, name)
        if isinstance(value, (list, dict, set)) and name not in shared:
            assert getattr(copy, name) is not value, name
    for mine, theirs in zip(copy.board, state.board):
        for field in msgspec.structs.fields(mine):
            value = getattr(theirs, field.name)
            if isinstance(value, (list, dict, set)):
                assert getattr(mine, field.name) is not value, field.name
        assert all(a is not b for a, b in zip(mine.board, theirs.board))
    run(copy, "Ann shard", "Bob rest")  # the cast ends at Bob's turn (AA-5)
    assert msgspec.json.encode(state) == before and state.phase == "casting" and state.done == []
