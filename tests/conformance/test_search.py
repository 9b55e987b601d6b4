"""The search bot (ISMCTS) of every game: it plays legal moves through whole stretches of a
match, decides from its own seat's view only, and is seated by name in simulations."""

from __future__ import annotations

import dataclasses
import random
from unittest.mock import ANY

import msgspec
import pytest

from ingest.simulation.bots import can_seat, policy, refusal
from replay.game import STOP
from replay.registry import GAMES
from replay.search import PLAYOUTS, REWARDS, SearchBot, parse

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
    assert parse("search") == (PLAYOUTS, None, None, {})  # playouts by the game's own choice
    assert parse("search:400") == (400, None, None, {})
    assert parse("search:250ms") == (None, 250.0, None, {})
    assert parse("search:400:greedy") == (400, None, "greedy", {})
    assert parse("search:250ms:focus") == (None, 250.0, "focus", {})
    # the game's search settings, changed by name
    assert parse("search:trust=none") == (PLAYOUTS, None, None, {"trust": None})
    assert parse("search:400:greedy:horizon=2:reward=margin:trust=1.5") == (
        400, None, "greedy", {"horizon": 2, "reward": "margin", "trust": 1.5}
    )  # fmt: skip
    bad_ones = ("search:0", "search:fast", "search:-3", "search:ms", "greedy", "search:400:",
                "search::greedy", "search:400:greedy:2", "search:trust=1:400",
                "search:400:trust=1:trust=2", "search:400:depth=3", "search:reward=lead",
                "search:trust=-1", "search:trust=nan", "search:horizon=two")  # fmt: skip
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
    # a setting named changes the game's for this bot alone; one that cannot go with the
    # game's others is refused as a bot of the game
    plain = policy(game, "search:20:trust=none:horizon=2:reward=margin")
    assert (plain.trust, plain.horizon, plain.reward) == (None, 2, REWARDS["margin"])
    assert policy(game, "search:20:greedy:trust=0.5").trust == 0.5  # named: whatever guides
    assert policy(game, "search").sim == game.simulation
    assert not can_seat(game, "search:20:horizon=2:reward=win")
    assert "margin" in refusal(game, "search:20:horizon=2:reward=win")
    assert "trust" in refusal(game, "search:20:trust=-1")
    assert can_seat(game, "search:20:horizon=none:reward=win")


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


class _Scored:
    """A game that is only a result: what a reward reads."""

    def __init__(self, result):
        self.outcome = result

    def result(self, state):
        return self.outcome


def test_the_margin_reward_is_half_the_win_half_the_lead_over_the_best_other_seat():
    from replay.game import Result
    from replay.search import REWARDS

    margin = REWARDS["margin"]
    over = Result(complete=True, scores=[10, 6, 4], sources=[{}] * 3, winners=[0], ranks=[1, 2, 3])
    # seat 0: 0.5 won + 0.25·(1 + (10 − 6)/10); seat 1: 0.25·(1 + (6 − 10)/10); seat 2: (4 − 10)
    assert margin(_Scored(over), None) == pytest.approx([0.85, 0.15, 0.10])
    assert REWARDS["win"](_Scored(over), None) == [1.0, 0.0, 0.0]
    # cut short: the two leaders share the win they stand for
    cut = Result(complete=False, scores=[3, 5, 5], sources=[{}] * 3, winners=[], ranks=[3, 1, 1])
    assert margin(_Scored(cut), None) == pytest.approx([0.15, 0.5, 0.5])
    # far behind is as bad as it gets, not worse: the lead is clipped to the top score
    none = Result(complete=False, scores=[0, 0], sources=[{}] * 2, winners=[], ranks=[1, 1])
    assert margin(_Scored(none), None) == pytest.approx([0.5, 0.5])


def test_a_move_is_better_than_another_by_standard_errors_of_a_coin():
    from replay.search import _better, _Child

    def child(wins, visits):
        return _Child(move=None, seat=0, visits=visits, wins=wins)

    # 0.60 against 0.50 over 100 visits each: a standard error of √(0.25/100 · 2) = 0.0707
    assert _better(child(60, 100), child(50, 100), 1.0)
    assert not _better(child(60, 100), child(50, 100), 2.0)  # 0.1 < 2 · 0.0707
    assert not _better(child(5, 10), child(5, 10), 0.0)
    assert _better(child(1, 1), child(0, 0), 1.0) and not _better(child(0, 0), child(1, 1), 1.0)


class _Marked(SearchBot):
    """A search whose reward sees the move each iteration chose at the root, and the moves
    the root opened, in order."""

    def choose(self, state, seat, options, rng):
        self.opened = []
        return super().choose(state, seat, options, rng)

    def _iterate(self, root, seen, seat, offered, rng):
        self.first = None
        super()._iterate(root, seen, seat, offered, rng)

    def _first(self, node, state, mover, untried, bot, rng):
        key, move, guided = super()._first(node, state, mover, untried, bot, rng)
        if node.move is None:
            self.opened.append(ENCODE(move))
        return key, move, guided

    def _play(self, state, move):
        if self.first is None:
            self.first = ENCODE(move)
        super()._play(state, move)


def _decision(game, least):
    """A decision of `least` moves or more in a match of `game`, and its seat."""
    state, bots, rng = begin(game, 3)
    sim = game.simulation
    for seat, _ in walk(game, state, bots, rng, limit=400):
        if seat is not None and sim.chance(game.clone(state), random.Random(0)) is None:
            mover = sim.to_move(state)
            if len(SearchBot(game, playouts=1)._moves(state, mover)) >= least:
                return state, mover
    pytest.skip(f"no decision of {least} moves or more in {game.name}'s first 400 events")


@pytest.mark.parametrize("name", NAMES)
def test_a_trusted_guides_pick_is_played_unless_another_move_is_clearly_better(name):
    game = GAMES[name]
    state, seat = _decision(game, 3)
    guides = ENCODE(game.legal_events(state, seat)[-1])
    seats = len(game.result(state).scores)

    def search(trust, better):
        """The move played when the second move the root opened scores `better` a playout
        and every other 0.5."""
        bot = _Marked(game, playouts=40)
        bot.guide, bot.trust = (lambda: _Last(game)), trust
        bot.reward = lambda g, s: [better if bot.opened[1:2] == [bot.first] else 0.5] * seats
        played = ENCODE(bot.choose(state, seat, None, random.Random(2)))
        assert bot.opened[0] == guides and len(bot.opened) > 1
        return played, bot.opened[1]

    # a little better: within the noise a coin's standard error allows
    assert search(1.0, 0.55) == (guides, ANY)
    played, other = search(None, 0.55)
    assert played == other != guides  # the move searched most, when the guide is not trusted
    # far better: played however the guide is trusted
    played, other = search(1.0, 1.0)
    assert played == other


@pytest.mark.parametrize("name", NAMES)
def test_a_playout_cut_at_the_horizon_stops_once_that_many_rounds_have_ended(name):
    game = GAMES[name]
    state, seat = _decision(game, 2)
    sim = game.simulation
    over = sim.finished or game.is_over
    for horizon in (1, None):
        scored = []
        bot = SearchBot(game, playouts=12)
        bot.horizon = horizon
        bot.reward = lambda g, s, scored=scored: scored.append((over(s), s.round)) or [0.5] * 8
        bot.choose(state, seat, None, random.Random(4))
        assert len(scored) >= 10
        if horizon is None:
            assert all(done for done, _ in scored)  # played to the end
        else:
            assert all(done or r > state.round for done, r in scored)
            assert any(not done for done, _ in scored)


def test_a_horizon_is_refused_with_the_win_reward_which_scores_a_cut_match_nothing():
    """A match cut short has no winners: with the win reward every cut playout would score 0
    for every seat, and the search could tell no move from another."""
    sim = GAMES["albus-academy"].simulation
    assert sim is not None and sim.horizon is not None
    with pytest.raises(ValueError, match="margin"):
        dataclasses.replace(sim, reward="win")
    with pytest.raises(ValueError, match="1 or more"):
        dataclasses.replace(sim, horizon=0)
    assert dataclasses.replace(sim, reward="win", horizon=None).horizon is None
    with pytest.raises(ValueError, match="analysis's cut"):
        dataclasses.replace(sim, analysis_rounds=0)
