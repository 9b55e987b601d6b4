"""The turn check written once (`replay.game.expected`), held to `expecting` in every game: at
the states of seeded playouts, an event of a kind `expecting(state)` does not accept, or from a
seat it does not wait on, is refused, and each game's fast path says yes only where `expecting`
does."""

from __future__ import annotations

import importlib
from typing import Any

import msgspec
import pytest

from replay.errors import IllegalEvent
from replay.game import expected
from replay.registry import GAMES

from .play import NAMES, PROFILES, begin, kind, recorded, walk

EVERY = 3  # the steps probed: every third of each playout


def _fast(name: str) -> Any:
    legal = importlib.import_module(f"replay.games.{name.replace('-', '_')}.legal")
    return getattr(legal, "fast_expected", None)


def _from(event: Any, player: str) -> Any:
    """The event sent by `player` instead (as it is, if it names no player)."""
    if not hasattr(event, "player"):
        return event
    return msgspec.structs.replace(event, player=player)


def _refused(game: Any, state: Any, event: Any) -> bool:
    try:
        game.apply(game.clone(state), event)
    except IllegalEvent:
        return True
    return False


@pytest.mark.parametrize("name", NAMES)
def test_an_event_expecting_does_not_wait_for_is_refused(name):
    game, profile = GAMES[name], PROFILES[name]
    fast = _fast(name)
    pool = recorded(game)
    wrong_kind = wrong_seat = 0
    for seed, table in enumerate(profile.all_tables):
        state, bots, rng = begin(game, seed, table)
        for step, (_, event) in enumerate(walk(game, state, bots, rng, limit=600)):
            pool.append(event)
            if step % EVERY:
                continue
            expect = game.expecting(state)
            accepted = set(expect.accepted)
            seats = range(len(state.players))
            if fast is not None:  # a cheap yes only where `expecting` says yes, the same seat
                tried = [event, *rng.sample(pool, min(6, len(pool)))]
                tried += [_from(e, state.players[s]) for e in tried[:3] for s in seats]
                for e in tried:
                    answer = fast(state, e)
                    if answer is not None:
                        assert answer == expected(state, e, game.expecting, "rule"), repr(e)
            # Of a kind not accepted now: refused, whoever sends it.
            others = [e for e in pool if kind(e) not in accepted]
            for other in rng.sample(others, min(2, len(others))):
                assert _refused(game, state, other), f"{name}: took {other!r} at {expect}"
                wrong_kind += 1
            # From a seat not waited on: refused, though its kind is accepted. (Where the event
            # names a seat `expecting` waits on; Albus Academy's cast may end in the next
            # seat's turn, which `expecting` does not name.)
            seat = state.seats.get(getattr(event, "player", None))
            if seat is None or seat not in expect.seats:
                continue
            for elsewhere in [s for s in seats if s not in expect.seats][:2]:
                moved = msgspec.structs.replace(event, player=state.players[elsewhere])
                assert _refused(game, state, moved), f"{name}: took {moved!r} at {expect}"
                wrong_seat += 1
    assert wrong_kind and wrong_seat
