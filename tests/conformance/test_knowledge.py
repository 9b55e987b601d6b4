"""What a seat knows, and what could be (docs/engines.md): `view`, `chance_outcomes`,
`resample` and `clone`, held to their properties over every game in the registry, at the
states of seeded playouts by the simulator's bots at every table the simulator seats."""

from __future__ import annotations

import random
from itertools import islice
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.errors import IllegalEvent
from replay.game import CHANCE, STOP, Game
from replay.registry import GAMES
from tests.support import fingerprint, snapshot

from .play import NAMES, PROFILES, begin, kind, kinds, walk

# An outcome list longer than this (a deal of five cards from a full deck) is sampled, not
# compared whole.
LISTED = 3000


def _states(game: Game[Any, Any, Any], seed: int, table: int | str, every: int) -> list[Any]:
    """Copies of the states a seeded playout meets, every `every` events, and its last."""
    state, bots, rng = begin(game, seed, table)
    met = []
    for played, _ in enumerate(walk(game, state, bots, rng, limit=600)):
        if played % every == 0:
            met.append(game.clone(state))
    met.append(game.clone(state))
    return met


def _seats(game: Game[Any, Any, Any], state: Any) -> list[int | None]:
    """Everyone, then each of the header's players (a result has a row for each)."""
    return [None, *range(len(game.result(state).scores))]


def _play_on(game: Game[Any, Any, Any], state: Any, rng: random.Random, limit: int) -> int:
    """Random legal play from `state` (chance's own draws, then any event a seat may make):
    every event must be accepted. The events applied."""
    sim = game.simulation
    assert sim is not None
    over = sim.finished or game.is_over
    played = 0
    while not over(state) and played < limit:
        event = sim.chance(state, rng)
        if event is None:
            offered = game.legal_events(state, sim.to_move(state))
            if not offered:  # an open run (a cast) the seat ends by the next event
                assert sim.stop is not None, f"{game.name}: nothing to do at {fingerprint(state)}"
                sim.stop(state)
                continue
            event = rng.choice(offered)
            if event is STOP:
                continue
        game.apply(state, event)
        played += 1
    return played


@pytest.mark.parametrize("name", NAMES)
def test_every_game_answers_what_a_seat_knows(name):
    game = GAMES[name]
    for verb in ("view", "chance_outcomes", "resample", "clone"):
        assert callable(getattr(game, verb)), f"{name} has no {verb}"


@pytest.mark.parametrize("name", NAMES)
def test_a_game_says_whether_it_has_secrets_as_its_views_do(name):
    """`secrets` False: every view is the whole state (the viewer offers no perspective);
    True: some seat, at some state of a seeded playout, knows less than the whole."""
    game = GAMES[name]
    differs = False
    for seed, table in enumerate(PROFILES[name].all_tables):
        for state in _states(game, seed, table, every=7):
            whole = game.snapshot(state)
            for seat in _seats(game, state)[1:]:
                seen = game.snapshot(game.view(state, seat))
                differs = differs or seen != whole
                if not game.secrets:
                    assert seen == whole, f"{name} hides something from seat {seat}"
    assert differs == game.secrets, f"{name}: secrets={game.secrets}, but views differ: {differs}"


@pytest.mark.parametrize("name", NAMES)
def test_a_clone_is_equal_and_independent(name):
    game = GAMES[name]
    profile = PROFILES[name]
    for seed, table in enumerate(profile.all_tables):
        state, bots, rng = begin(game, seed, table)
        for _, event in walk(game, state, bots, rng, limit=400):
            copy = game.clone(state)
            assert copy == state
            before = snapshot(state)
            try:
                game.apply(copy, event)
            except IllegalEvent:  # an event of the walk is legal here; the copy takes it
                pytest.fail(f"{name}: the clone refused {event!r}")
            assert snapshot(state) == before, f"{name}: applying to a clone changed the state"


@pytest.mark.parametrize("name", NAMES)
def test_a_view_of_everyone_is_the_whole_state_and_a_view_changes_nothing(name):
    game = GAMES[name]
    for seed, table in enumerate(PROFILES[name].all_tables):
        for state in _states(game, seed, table, every=7):
            before = snapshot(state)
            assert game.view(state, None) == state, "the analysis board hides nothing"
            assert game.view(state, None) is not state, "a view is a new state"
            for seat in _seats(game, state):
                seen = game.view(state, seat)
                assert game.view(seen, seat) == seen, "a view of a view is that view"
                game.snapshot(seen)  # the board draws any view
            assert snapshot(state) == before, f"{name}: a view changed the state"


@pytest.mark.parametrize("name", NAMES)
def test_the_table_a_seat_past_the_last_sees_what_every_seat_sees(name):
    """The Record page's screen is the table's: `view(state, len(players))` hides all that
    any seat's view hides: the table's view of what a seat sees is the table's own."""
    game = GAMES[name]
    for seed, table in enumerate(PROFILES[name].all_tables):
        for state in _states(game, seed, table, every=13):
            seats = _seats(game, state)[1:]
            at_table = game.view(state, len(seats))
            seen = game.snapshot(at_table)
            for seat in seats:
                assert game.snapshot(game.view(game.view(state, seat), len(seats))) == seen
            if not game.secrets:
                assert at_table == game.view(state, None)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_resampled_state_looks_the_same_to_its_seat_and_plays_on_legally(name, data):
    game, profile = GAMES[name], PROFILES[name]
    table = data.draw(st.sampled_from(profile.all_tables), label="table")
    seed = data.draw(st.integers(0, 2**32), label="seed")
    states = _states(game, seed % 10_000, table, every=11)
    rng = random.Random(seed)
    for state in rng.sample(states, min(6, len(states))):
        seat = rng.choice(_seats(game, state))
        before = snapshot(state)
        drawn = game.resample(state, seat, rng)
        assert snapshot(state) == before, f"{name}: resampling changed the state"
        seen = game.view(state, seat)
        assert game.view(drawn, seat) == seen, f"{name}: seat {seat} would see the difference"
        # from the view alone, the same: what the seat knows is all resample reads
        again = game.resample(seen, seat, rng)
        assert game.view(again, seat) == seen
        if seat is None:
            assert drawn == state, "nothing is hidden from the analysis board"
        _play_on(game, drawn, rng, limit=profile_limit(game))


def profile_limit(game: Game[Any, Any, Any]) -> int:
    sim = game.simulation
    assert sim is not None
    return sim.max_events or 3000


@pytest.mark.parametrize("name", NAMES)
def test_chance_lists_every_outcome_it_allows_and_apply_takes_each(name):
    """Where chance decides: the outcomes are chance's own draws (chance_event draws one of
    them), each is accepted, their probabilities sum to 1; a near miss the engine accepts is
    listed. Where a seat decides, chance lists nothing."""
    game, profile = GAMES[name], PROFILES[name]
    sim = game.simulation
    assert sim is not None
    rng = random.Random(7)
    seen_chance = 0
    for seed, table in enumerate(profile.all_tables):
        for state in _states(game, seed, table, every=3):
            expect = game.expecting(state)
            outcomes = list(islice(game.chance_outcomes(state), LISTED + 1))
            if expect.decider != CHANCE:
                assert outcomes == [], f"{name}: chance lists outcomes where {expect.kind} is due"
                continue
            seen_chance += 1
            assert outcomes, f"{name}: chance decides {expect.kind} but lists nothing"
            events = [event for event, _ in outcomes]
            assert all(kind(event) in expect.accepted for event in events)
            for event in rng.sample(events, min(8, len(events))):
                game.apply(game.clone(state), event)
            chances = [p for _, p in outcomes]
            if len(outcomes) <= LISTED:
                assert len({fingerprint(e) for e in events}) == len(events), "each once"
                if all(p is not None for p in chances):
                    assert all(0 < p <= 1 for p in chances)  # type: ignore[operator]
                    assert sum(chances) == pytest.approx(1)  # type: ignore[arg-type]
                drawn = sim.chance(game.clone(state), rng)
                assert drawn is not None and profile.among(state, drawn, events)
                for miss in profile.near_misses(state, rng, events):
                    if kind(miss) not in expect.accepted:
                        continue
                    try:
                        game.apply(game.clone(state), miss)
                    except IllegalEvent:
                        continue
                    assert profile.among(state, miss, events), f"{name}: {miss!r} is not listed"
    if any(tag.startswith(("deal", "draw", "reveal", "codex")) for tag in kinds(game)):
        assert seen_chance, f"{name} has chance events but the playouts met none"
