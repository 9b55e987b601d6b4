"""A match's move analysis (replay.analysis) spread over workers, and kept in the warehouse.

The decisions of a match are judged independently, each from its own random streams, so
they are handed out one at a time to local processes or a Dask cluster and come back in
any order with the same result; each worker replays the match once. The analysis is kept
in the warehouse's `analyses/` folder, a file a match, with the fingerprint of the log it
judged: a match stored again with other events is not shown an analysis of the old one.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import msgspec

from ingest.files.catalogues import Library
from ingest.warehouse.location import Place, place, spool, write_whole
from replay.analysis import CHOICE, Scorer, accuracy, deciders, decisions, judge, swings
from replay.game import Game
from replay.replayer import Match, open_log, replay

ANALYSES = "analyses"  # in the warehouse folder
LOCK = ".LOCK"  # held while an analysis runs: one at a time on a warehouse's machine
# Decisions a task. The bar moves once a task, and a Paladins decision alone is 15 s of a core
# or more; one a task costs 1-2% more time in Knight Academy, whose decisions cost least.
CHUNK = 1
VERSION = 1  # what an analysis kept by another version of squire is checked against


class Decision(msgspec.Struct, frozen=True):
    """One decision judged (replay.analysis.Judged), its events as the log writes them."""

    index: int
    seat: int
    played: dict[str, Any]
    best: dict[str, Any]
    loss: float
    low: float
    high: float
    label: str | None
    options: int
    analysed: int
    samples: int


class Swing(msgspec.Struct, frozen=True):
    """What moved a seat's win chance, in points: chance steps and choices
    (replay.analysis.Swings), and chance's share of the two."""

    chance: float
    choices: float
    share: float | None


class Analysis(msgspec.Struct, frozen=True, kw_only=True):
    version: int = VERSION
    game_id: str
    fingerprint: str  # of the log judged (fingerprint())
    players: list[str]
    samples: int
    policy: str
    seed: int
    cut: bool = False  # playouts cut at the round's end and scored by the fitted model
    rounds: int = 1  # the rounds' ends a cut playout ran through (Simulation.analysis_rounds)
    seconds: float  # wall time it took
    decisions: list[Decision]
    accuracy: list[float | None]  # a seat
    swings: list[Swing] | None  # a seat; None for a match that stops before its end

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "samples": self.samples,
            "policy": self.policy,
            "playouts": cut_text(self.rounds) if self.cut else "to the end",
            "decisions": [msgspec.to_builtins(d) for d in self.decisions],
            "accuracy": dict(zip(self.players, self.accuracy)),
            "chance": None if self.swings is None else
            {p: msgspec.to_builtins(s) for p, s in zip(self.players, self.swings)},
        }  # fmt: skip


def cut_text(rounds: int) -> str:
    return "cut at the round's end" if rounds == 1 else f"cut at the end of {rounds} rounds"


class Busy(RuntimeError):
    """Another analysis is running on this warehouse."""


def fingerprint(match: Match) -> str:
    """The log's header and event lines as written: what an analysis judged."""
    digest = hashlib.sha256(match.header_line)
    for _, line in match.lines:
        digest.update(b"\n")
        digest.update(line)
    return digest.hexdigest()


class _Task(msgspec.Struct, frozen=True, array_like=True):
    data: bytes
    name: str
    db: str
    indices: tuple[int, ...]
    samples: int
    policy: str
    seed: int
    cut: bool  # playouts cut at the round's end and scored by the warehouse's model


# A worker's replayed match, kept for its next chunk: its decisions by index, and the scorer
# of its cut playouts.
_prepared: dict[str, tuple[dict[int, tuple[int, Any, Any]], Scorer | None]] = {}


def _judge_chunk(task: _Task) -> tuple[int, list[Decision]]:
    """The chunk's decisions judged (those that can be), and how many it held."""
    match = open_log(task.data, task.name, catalogues=Library(place(task.db)))
    key = f"{fingerprint(match)}:{task.cut}"
    if key not in _prepared:
        _prepared.clear()
        outcome = replay(match)
        points = {i: (seat, state, event) for i, seat, state, event in decisions(match, outcome)}
        scorer: Scorer | None = None
        if task.cut:
            from ingest.analyses.cut import ModelScorer
            from ingest.analyses.review import model_of

            scorer = ModelScorer(model_of(place(task.db), match.game.name), match, outcome)
        _prepared[key] = (points, scorer)
    points, scorer = _prepared[key]
    out = []
    for index in task.indices:
        seat, state, event = points[index]
        one = judge(match.game, state, seat, event, index, samples=task.samples,
                    seed=task.seed, policy=task.policy, scorer=scorer,
                    rounds=rounds_of(match.game) or 1)  # fmt: skip
        if one is not None:
            out.append(msgspec.convert(one.to_json(), Decision))
    return len(task.indices), out


def rounds_of(game: Game[Any, Any, Any]) -> int | None:
    """The rounds' ends a cut playout of the game runs through (Simulation.analysis_rounds);
    None where the game's playouts are played to the end."""
    return 1 if game.simulation is None else game.simulation.analysis_rounds


def analyse_log(
    data: bytes,
    name: str,
    db: Place,
    executor: Any,
    samples: int = 16,
    policy: str = "greedy",
    seed: int = 0,
    prior: Sequence[float] | None = None,
    cut: bool = False,
    on_progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Every decision of the log with a choice judged, on `executor`'s workers (an
    ingest.pipeline.executor). `prior`: each seat's chance before the first event (the fitted
    estimate's; an even one by default), which a seat's result is measured from when it is
    split between chance and choices. `cut`: playouts cut at the round's end and scored by the
    warehouse's fitted model (ingest.analyses.cut), in a game whose analysis cuts them.
    `on_progress(done, total)` after each chunk."""
    started = time.monotonic()
    match = open_log(data, name, catalogues=Library(db))
    rounds = rounds_of(match.game)
    cut = cut and rounds is not None
    outcome = replay(match)
    kinds = deciders(match, outcome)
    indices = [index for index, kind in enumerate(kinds, 1) if kind == CHOICE]
    chunks = [tuple(indices[i : i + CHUNK]) for i in range(0, len(indices), CHUNK)]
    tasks = (_Task(data, name, str(db), c, samples, policy, seed, cut) for c in chunks)
    judged: list[Decision] = []
    done = 0
    if on_progress:
        on_progress(0, len(indices))
    for count, part in executor.map_unordered(_judge_chunk, tasks):
        judged.extend(part)
        done += count
        if on_progress:
            on_progress(done, len(indices))
    judged.sort(key=lambda d: d.index)
    players = list(match.header.players)
    prior = prior or [1 / len(players)] * len(players)
    moved = None
    if outcome.result.complete:  # a log that stops early has no result to split
        moved = [Swing(round(s.chance, 2), round(s.choices, 2), s.share)
                 for s in swings(judged, outcome.result.winners, prior)]  # type: ignore[arg-type]  # fmt: skip
    return Analysis(
        game_id=match.header.game_id,
        fingerprint=fingerprint(match),
        players=players,
        samples=samples,
        policy=policy,
        seed=seed,
        cut=cut,
        rounds=rounds or 1,
        seconds=round(time.monotonic() - started, 1),
        decisions=judged,
        accuracy=accuracy(judged, len(players)),  # type: ignore[arg-type]
        swings=moved,
    )


def choices(match: Match) -> int:
    """The decisions of the match with a choice: what an analysis judges."""
    return deciders(match, replay(match)).count(CHOICE)


def _path(db: Place, game_id: str) -> Place:
    # a game_id is the log's, any text: the file is named by its hash
    return place(db) / ANALYSES / f"{hashlib.sha256(game_id.encode()).hexdigest()[:32]}.json"


def save(db: Place, analysis: Analysis) -> None:
    """Keep `analysis` for its match, whole or not at all."""
    write_whole(_path(db, analysis.game_id), msgspec.json.encode(analysis))


def load(db: Place, game_id: str, match: Match) -> Analysis | None:
    """The analysis kept for the match, if it judged this very log."""
    try:
        kept = msgspec.json.decode(_path(db, game_id).read_bytes(), type=Analysis)
    except (FileNotFoundError, msgspec.DecodeError, msgspec.ValidationError):
        return None
    if kept.version != VERSION or kept.fingerprint != fingerprint(match):
        return None
    if kept.cut and kept.rounds != rounds_of(match.game):  # its game's cut has changed since: an
        return None  # analysis cut sooner caught fewer blunders (docs/review.md)
    return kept


@contextmanager
def running(db: Place) -> Iterator[None]:
    """Held while an analysis runs on this machine; Busy when another holds it (it takes
    both cores)."""
    folder = spool(db) / ANALYSES
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / LOCK, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Busy(f"another analysis is running on {db}") from None
        yield
    finally:
        os.close(fd)
