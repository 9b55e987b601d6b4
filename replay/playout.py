"""Playing a match with bots through a game's engine: the simulator's pure core.

Chance outcomes and every choice come from the one `rng` given, so the same seed gives the
same match, event for event.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from replay.game import STOP, Game, Policy


def playout(
    game: Game[Any, Any, Any],
    state: Any,
    bots: Sequence[Policy | None],
    rng: random.Random,
    chance_rng: random.Random | None = None,
    until: Callable[[Any], bool] | None = None,
    facts: list[Sequence[Any]] | None = None,
) -> list[Any]:
    """Advance `state` to the end of the game, or to the game's `max_events`; return the
    events applied, in order.

    `bots[seat]` decides for each seat; chance decides where the game says it does, from
    `chance_rng` when given (so two matches under different rules, or bots, can share their
    deals and draws), else from `rng` like the bots.
    """
    sim = game.simulation
    if sim is None:
        raise ValueError(f"{game.name} has no simulator")
    chance, to_move, apply = sim.chance, sim.to_move, game.apply
    is_over = sim.finished or game.is_over
    legal = sim.options or game.legal_events
    events: list[Any] = []
    limit = sim.max_events
    luck = chance_rng or rng
    while not is_over(state) and (limit is None or len(events) < limit):
        if until is not None and until(state):
            break
        event = chance(state, luck)
        if event is None:
            seat = to_move(state)
            bot = bots[seat]
            assert bot is not None, f"no bot for seat {seat}"
            event = bot.choose(state, seat, legal(state, seat), rng)
            if event is STOP:  # bots hand back the constant itself
                assert sim.stop is not None, f"{game.name} has no open runs of events to stop"
                sim.stop(state)
                continue
        made = apply(state, event)
        events.append(event)
        if facts is not None:
            facts.append(made)
    return events


def past_round(last: int) -> Callable[[Any], bool]:
    """A playout's stop (`until`): once the state is past round `last`."""
    return lambda state: state.round > last
