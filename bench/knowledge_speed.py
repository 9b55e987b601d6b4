"""What a seat knows, per game, on one core: `view`, `resample` and `clone` + `apply` per
second, over the states of the game's bundled sample matches (every event of the first 40).

    python bench/knowledge_speed.py [GAME ...]      GAME: knight-academy, heraldry, …

`clone` + `apply` is what a search pays per event it tries; `copy.deepcopy` + `apply` is
printed beside it, for scale. Each figure is the best of five runs.
"""

from __future__ import annotations

import copy
import gc
import random
import sys
from pathlib import Path
from typing import Any

from timing import best_of  # bench/timing.py, beside this script

from ingest.files.catalogues import Library
from ingest.files.read import find_logs, read_log
from replay.log import Final
from replay.registry import GAMES
from replay.replayer import open_log, replay, start

HERE = Path(__file__).resolve().parent.parent
MATCHES = 40


def _moments(name: str) -> tuple[list[Any], list[Any], list[int]]:
    """(the state before each event, the event, the seat to view from) of the samples."""
    game = GAMES[name]
    logs = sorted(find_logs([str(HERE / "data" / "samples" / name)]))[:MATCHES]
    states, events, seats = [], [], []
    rng = random.Random(1)
    for i, path in enumerate(logs):
        match = open_log(read_log(path), f"log-{i}", catalogues=Library())
        outcome = replay(match)
        state = start(match)
        for step in outcome.steps:
            if isinstance(step.event, Final):
                continue
            states.append(game.clone(state))
            events.append(step.event)
            seats.append(rng.randrange(len(match.header.players)))
            game.apply(state, step.event)
    return states, events, seats


def main() -> None:
    names = sys.argv[1:] or list(GAMES)
    for name in names:
        if name not in GAMES:
            sys.exit(
                f"usage: python bench/knowledge_speed.py [GAME ...]; one of {', '.join(GAMES)}"
            )
    for name in names:
        _measure(name)


def _measure(name: str) -> None:
    """One game's figures, printed."""
    game = GAMES[name]
    states, events, seats = _moments(name)
    gc.freeze()
    rng = random.Random(2)
    n = len(states)

    def views() -> None:
        for state, seat in zip(states, seats, strict=True):
            game.view(state, seat)

    def resamples() -> None:
        for state, seat in zip(states, seats, strict=True):
            game.resample(state, seat, rng)

    def clones() -> None:
        for state, event in zip(states, events, strict=True):
            game.apply(game.clone(state), event)

    def deep() -> None:
        for state, event in zip(states, events, strict=True):
            game.apply(copy.deepcopy(state), event)

    print(f"{name}: {n:,} states of {MATCHES} sample matches, one core")
    for label, run in (
        ("view", views),
        ("resample", resamples),
        ("clone + apply", clones),
        ("deepcopy + apply", deep),
    ):
        print(f"  {label:<17} {n / best_of(run, 5):12,.0f} /s")


if __name__ == "__main__":
    main()
