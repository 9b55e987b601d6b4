"""How the conformance suite seats and plays a match of any game, and what it compares."""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, get_args

from replay.game import STOP, Game
from replay.registry import GAMES
from tests.support import Profile

ROOT = Path(__file__).parents[2]
FOLDERS = {name: ROOT / "tests" / name.replace("-", "_") for name in GAMES}
SAMPLES = {name: ROOT / "data" / "samples" / name for name in GAMES}
# What each game's own folder tells the suite about it (tests/<game>/profile.py).
PROFILES: dict[str, Profile] = {
    name: importlib.import_module(f"tests.{name.replace('-', '_')}.profile").PROFILE
    for name in GAMES
}
NAMES = sorted(GAMES)


def begin(
    game: Game[Any, Any, Any],
    seed: int,
    players: int | str | None = None,
    bots: tuple[str, ...] | None = None,
    rules: dict[str, Any] | None = None,
    ruleset: str | None = None,
) -> tuple[Any, list[Any], random.Random]:
    """A new match of `game` as the simulator seats it (by default at its second table, with
    all its bots, under the seed's turn of its named rulesets), with its bots and the random
    source the simulator would use."""
    from ingest.simulation.simulate import Spec, _header, catalogue_for

    sim = game.simulation
    assert sim is not None
    profile = PROFILES[game.name]
    spec = Spec(
        game=game.name,
        **profile.seating(players or profile.tables[min(1, len(profile.tables) - 1)]),
        bots=bots or tuple(sim.bots),
        seed=seed,
        ruleset=ruleset or sorted(game.rulesets)[seed % len(game.rulesets)],
        rules=rules or {},
    )
    rng = random.Random(seed)
    header = _header(spec, seed, rng, spec.run_id)
    state = game.new_game(game.ruleset(header), header, catalogue_for(game.name))
    seated = [sim.bots[header.agents[p]]() if p in header.agents else None for p in header.players]
    return state, seated, rng


def walk(
    game: Game[Any, Any, Any], state: Any, bots: list[Any], rng: random.Random, limit: int = 1500
) -> Iterator[tuple[int | None, Any]]:
    """Play the match on: before each event is applied, yield the seat that chose it (None for
    a chance outcome) and the event, so the caller can probe the state it meets."""
    sim = game.simulation
    assert sim is not None
    over = sim.finished or game.is_over
    options = sim.options or game.legal_events
    played = 0
    while not over(state) and played < limit:
        seat: int | None = None
        event = sim.chance(state, rng)
        if event is None:
            seat = sim.to_move(state)
            event = bots[seat].choose(state, seat, options(state, seat), rng)
            if event is STOP:
                assert sim.stop is not None
                sim.stop(state)
                continue
        yield seat, event
        game.apply(state, event)
        played += 1


def kinds(game: Game[Any, Any, Any]) -> set[str]:
    return {t.__struct_config__.tag for t in get_args(game.event_type)}


def kind(event: Any) -> str:
    return str(type(event).__struct_config__.tag)


def recorded(game: Game[Any, Any, Any]) -> list[Any]:
    """The events of the game's worked examples and of some of its bundled samples."""
    from ingest.files.read import read_log
    from replay.log import Final, decoder_for, numbered_lines

    decode = decoder_for(game.event_type).decode
    logs = sorted(FOLDERS[game.name].glob("logs/*.jsonl"))
    logs += sorted(SAMPLES[game.name].glob("*.jsonl*"))[:20]
    return [
        e
        for log in logs
        for _, line in numbered_lines(read_log(log))[1:]
        if type(e := decode(line)) is not Final
    ]
