"""The search bot (ISMCTS) of every game: it plays legal moves through whole stretches of a
match, decides from its own seat's view only, and is seated by name in simulations."""

from __future__ import annotations

import random

import msgspec
import pytest

from ingest.simulation.bots import can_seat, policy
from replay.game import STOP
from replay.registry import GAMES
from replay.search import PLAYOUTS, SearchBot, parse

from .play import NAMES, begin, walk

ENCODE = msgspec.json.Encoder().encode


@pytest.mark.parametrize("name", NAMES)
def test_the_search_bot_plays_only_legal_moves_in_every_game(name):
    game = GAMES[name]
    state, bots, rng = begin(game, 3)
    bots[0] = SearchBot(game, playouts=4)
    searched = 0
    for seat, event in walk(game, state, bots, rng, limit=120):
        if seat == 0:
            searched += 1  # walk applies it: the engine refuses anything illegal
            assert event is STOP or ENCODE(event) in {
                ENCODE(e) for e in game.legal_events(state, seat)
            }
    assert searched > 0


@pytest.mark.parametrize("name", [n for n in NAMES if GAMES[n].secrets])
def test_the_search_bot_decides_from_what_its_seat_sees_and_nothing_else(name):
    """Two states that look the same to the seat (the second dealt again from its view) and
    offer it the same moves get the same move from the same random draws."""
    game = GAMES[name]
    state, bots, rng = begin(game, 5)
    sim = game.simulation
    assert sim is not None
    compared = 0
    for seat, _ in walk(game, state, bots, rng, limit=90):
        if seat is None or compared >= 3 or len(game.legal_events(state, seat)) < 2:
            continue
        other = game.resample(game.view(state, seat), seat, random.Random(compared))
        assert game.snapshot(game.view(other, seat)) == game.snapshot(game.view(state, seat))
        if game.snapshot(other) == game.snapshot(state):
            continue  # dealt the same: nothing to tell apart
        if {ENCODE(e) for e in game.legal_events(other, seat)} != {
            ENCODE(e) for e in game.legal_events(state, seat)
        }:
            continue  # what it may do differs: the view hides what the seat holds
        bot = SearchBot(game, playouts=6)
        here = bot.choose(state, seat, None, random.Random(11))
        there = bot.choose(other, seat, None, random.Random(11))
        assert (here is STOP and there is STOP) or ENCODE(here) == ENCODE(there)
        compared += 1
    assert compared > 0


def test_a_search_budget_is_playouts_or_milliseconds():
    assert parse("search") == (PLAYOUTS, None, None)  # playouts by the game's own choice
    assert parse("search:400") == (400, None, None)
    assert parse("search:250ms") == (None, 250.0, None)
    assert parse("search:400:greedy") == (400, None, "greedy")
    assert parse("search:250ms:focus") == (None, 250.0, "focus")
    bad_ones = ("search:0", "search:fast", "search:-3", "search:ms", "greedy", "search:400:",
                "search::greedy", "search:400:greedy:2")  # fmt: skip
    for bad in bad_ones:
        with pytest.raises(ValueError):
            parse(bad)


@pytest.mark.parametrize("name", NAMES)
def test_every_game_seats_the_search_bot_by_name(name):
    game = GAMES[name]
    assert can_seat(game, "search") and can_seat(game, "search:30") and can_seat(game, "random")
    assert not can_seat(game, "search:soon") and not can_seat(game, "oracle")
    assert can_seat(game, "search:30:greedy") and not can_seat(game, "search:30:oracle")
    rolled = policy(game, "search:5:greedy")
    assert isinstance(rolled, SearchBot) and rolled.rollout is game.simulation.bots["greedy"]
    bot = policy(game, "search:20ms")
    assert isinstance(bot, SearchBot) and bot.ms == 20.0 and bot.name == "search:20ms"
    assert bot.rollout is game.simulation.bots[game.simulation.playouts]


class _Last:
    """Always the last legal event: a playout bot whose pick is known (it reads the engine,
    not the menu, which is a game's own lazy object in Heraldry)."""

    def __init__(self, game):
        self.game = game

    def choose(self, state, seat, options, rng):
        events = self.game.legal_events(state, seat)
        return events[-1] if events else STOP  # only closing an open run is left


@pytest.mark.parametrize("name", NAMES)
def test_a_node_opens_the_guides_pick_first_and_about_root_visits_of_its_moves(name):
    from replay.search import WIDEN, _Child, _key

    game = GAMES[name]
    state, bots, rng = begin(game, 3)
    sim = game.simulation
    assert sim is not None
    for seat, _ in walk(game, state, bots, rng, limit=400):
        if seat is not None and sim.chance(game.clone(state), random.Random(0)) is None:
            mover = sim.to_move(state)
            bot = SearchBot(game, playouts=9)
            bot.guide = lambda: _Last(game)
            moves = bot._moves(state, mover)
            if len(moves) >= 6:
                break
    else:
        pytest.skip(f"no decision of six moves or more in {name}'s first 400 events")
    root = _Child(move=None, seat=mover)
    offered = {_key(m) for m in moves}
    first = _key(game.legal_events(state, mover)[-1])
    bot._iterate(root, game.view(state, mover), mover, offered, random.Random(1))
    assert [key for _, key in root.children] == [first]
    for _ in range(8):
        bot._iterate(root, game.view(state, mover), mover, offered, random.Random(1))
    assert 1 < len(root.children) <= 1 + WIDEN * 3 < len(moves)


@pytest.mark.parametrize("name", NAMES)
def test_the_guide_is_the_games_with_its_own_playouts_else_the_playout_bot_named(name):
    game = GAMES[name]
    sim = game.simulation
    own = SearchBot(game, playouts=5)
    assert own.rollout is sim.bots[sim.playouts]
    assert own.guide is sim.bots[sim.guide or sim.playouts]
    named = next(b for b in sim.bots if b != sim.playouts)
    other = SearchBot(game, playouts=5, rollout=named)
    assert other.rollout is other.guide is sim.bots[named]
