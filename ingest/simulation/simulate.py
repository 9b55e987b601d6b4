"""`squire simulate`: matches played by bots, written as ordinary `squire-log/1` logs.

Every chance outcome comes from a generator seeded by the run's arguments and the match's
number, so the same arguments give byte-identical files however the work is split.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import os
import random
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec

from ingest.files.catalogues import Library
from ingest.simulation.bots import names, policy, refusal
from replay.log import FORMAT, Final
from replay.playout import playout
from replay.registry import GAMES

SOURCE = "squire simulate"


class Spec(msgspec.Struct, frozen=True, kw_only=True):
    """A simulation run: everything that decides its matches (not how many, nor where)."""

    game: str
    players: int
    bots: tuple[str, ...]
    seed: int
    ruleset: str | None = None
    rules: dict[str, Any] = {}
    played_from: datetime | None = None  # match i is stamped as played i spacings after this
    played_every: int = 60  # the spacing, in minutes
    variant: str | None = None  # a variant the table does not imply (lancelot)

    @property
    def run_id(self) -> str:
        fields = msgspec.to_builtins(self)
        if self.variant is None:  # runs named before variants could be chosen keep their ids
            del fields["variant"]
        if self.played_every == 60:  # and before the spacing could be chosen
            del fields["played_every"]
        return hashlib.sha256(msgspec.json.encode(fields)).hexdigest()[:8]


_ENCODER = msgspec.json.Encoder()  # one JSON line per header, event and final claim


class Written(msgspec.Struct, frozen=True):
    game_id: str
    data: bytes  # the gzip-compressed log
    scores: dict[str, int]
    agents: dict[str, str]  # the bot of each real seat
    winners: list[str]  # after the game's own tie-break


def check(spec: Spec) -> None:
    """ValueError naming what is wrong with a run before any match is played."""
    game = GAMES.get(spec.game)
    if game is None or game.simulation is None:
        raise ValueError(f"no simulator for {spec.game!r}; known: {', '.join(_simulated())}")
    sim = game.simulation
    if spec.variant is not None and spec.variant not in sim.variants:
        known = ", ".join(sim.variants) or "none"
        raise ValueError(f"{spec.game} has no variant {spec.variant!r} to choose; known: {known}")
    if spec.played_every < 1:
        raise ValueError(f"--played-every must be at least 1 minute, not {spec.played_every}")
    if not spec.bots:
        raise ValueError(f"no bots to seat; {spec.game} has {', '.join(names(game))}")
    for bot in spec.bots:
        if (why := refusal(game, bot)) is not None:
            raise ValueError(why)
    # RulesError on a bad --set (or one the game's own checks refuse: a catalogue too small
    # for it), ValueError on a bad table
    header = _header(spec, 0, random.Random(0), spec.run_id)
    game.new_game(game.ruleset(header), header, catalogue_for(spec.game))


def _simulated() -> list[str]:
    return [name for name, game in GAMES.items() if game.simulation is not None]


@functools.cache
def catalogue_for(name: str) -> Any:
    """The catalogue a game's simulated matches are played with: its default one (None for
    a game without a catalogue)."""
    game = GAMES[name]
    return None if game.catalogue is None else Library().find(name, *game.catalogue.default)


def _header(spec: Spec, index: int, rng: random.Random, run_id: str) -> Any:
    game = GAMES[spec.game]
    assert game.simulation is not None
    config = game.resolve(spec.ruleset, spec.rules)
    sim = game.simulation
    table = sim.variants[spec.variant] if spec.variant else sim.table
    fields = table(spec.players, config, rng, catalogue_for(spec.game))
    real = [p for p in fields["players"] if p != fields.get("neutral")]
    # Bots take the seats in turn, starting one further along the list each match, so every
    # bot plays even when there are more bots than seats; then seats are shuffled.
    agents = [spec.bots[(index + i) % len(spec.bots)] for i in range(len(real))]
    rng.shuffle(agents)
    extra: dict[str, Any] = {"ruleset": spec.ruleset} if spec.ruleset else {}
    if spec.rules:
        extra["rules"] = spec.rules
    if spec.played_from is not None:
        extra["played_at"] = spec.played_from + timedelta(minutes=spec.played_every * index)
    return game.header_type(
        format=FORMAT,
        game=spec.game,
        game_id=f"{GAMES[spec.game].short}-{run_id}-{index:06d}",
        agents=dict(zip(real, agents)),
        source=SOURCE,
        **fields,
        **extra,
    )


def simulate_match(spec: Spec, index: int, run_id: str | None = None) -> Written:
    """Play match number `index` of the run and return its compressed log (`run_id`: the
    spec's, when the caller has it already: hashing the spec for every match is 1 % of one)."""
    game = GAMES[spec.game]
    assert game.simulation is not None
    run_id = run_id or spec.run_id
    rng = random.Random(f"{run_id}:{index}")
    header = _header(spec, index, rng, run_id)
    state = game.new_game(game.ruleset(header), header, catalogue_for(spec.game))
    bots = [policy(game, header.agents[p]) if p in header.agents else None for p in header.players]
    lines: list[Any] = [header, *playout(game, state, bots, rng)]
    outcome = game.result(state)
    scores = dict(zip(header.players, outcome.scores))
    if outcome.complete:  # a match cut short by the game's `max_events` claims nothing
        lines.append(Final(scores=scores))
    data = gzip.compress(_ENCODER.encode_lines(lines), compresslevel=3, mtime=0)
    winners = [header.players[seat] for seat in outcome.winners]
    return Written(header.game_id, data, scores, header.agents, winners)


def simulate_chunk(task: tuple[Spec, int, int]) -> list[Written]:
    spec, start, stop = task
    run_id = spec.run_id
    return [simulate_match(spec, index, run_id) for index in range(start, stop)]


def write_log(out: Path, written: Written) -> Path:
    """Write one log whole: to a temporary name first, so no reader sees half a file."""
    path = out / f"{written.game_id}.jsonl.gz"
    partial = out / f".{written.game_id}.partial"
    partial.write_bytes(written.data)
    os.replace(partial, path)
    return path


def parse_settings(settings: Sequence[str]) -> dict[str, Any]:
    """`key=value` pairs; a value is read as JSON when it is JSON, else as a string."""
    rules: dict[str, Any] = {}
    for setting in settings:
        key, sep, value = setting.partition("=")
        key, value = key.strip(), value.strip()  # `quest_prizes = [12, 8, 4]` as typed
        if not sep or not key:
            raise ValueError(f"--set wants key=value, not {setting!r}")
        try:
            rules[key] = json.loads(value)
        except json.JSONDecodeError:
            rules[key] = value
    return rules


def tasks(spec: Spec, count: int, workers: int) -> Iterator[tuple[Spec, int, int]]:
    from ingest.pipeline.executor import chunked

    for start, stop in chunked(count, workers, largest=250):
        yield spec, start, stop
