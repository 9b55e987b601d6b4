"""`squire experiment`: two rule sets compared on one question, by paired simulated matches,
until the difference is known as precisely as asked.

Paired: match i of A and match i of B seat the same bots in the same seats and draw their
chance events (deals, draws) from one stream, so where the rules allow they share them; the
bots decide from a stream of their own. The difference of each pair then carries far less of
the luck than two independent runs would (the report says how much less). Sequential: pairs
are played in batches until the 95% interval of the mean difference is narrower than the
precision asked, or the most matches allowed are played. After every batch, what the
experiment knows is recorded in the warehouse beside its matches (`record`): its metric, A − B
with its interval, the matches played and, once it stops, why.
"""

from __future__ import annotations

import dataclasses
import gzip
import hashlib
import math
import random
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from ingest.pipeline.pipeline import Staged, Task, stage
from ingest.simulation.bots import policy
from ingest.simulation.simulate import _ENCODER, Spec, Written, _header, catalogue_for, write_log
from ingest.warehouse.location import Place
from ingest.warehouse.warehouse import write_experiment
from replay.game import Game, Result
from replay.log import Experiment, Final
from replay.playout import playout
from replay.registry import GAMES

Z95 = 1.959964  # the normal quantile of a two-sided 95% interval


# --- what is measured -------------------------------------------------------------------------


def metric_names(game: Game[Any, Any, Any]) -> list[str]:
    """Every metric `squire experiment GAME --metric` takes."""
    config = game.rulesets[game.standard_ruleset]
    seats = getattr(config, "max_players", 5)
    names = ["start_player_win_rate", *(f"seat_win_rate:{n}" for n in range(1, seats + 1))]
    names += [f"source_share:{source}" for source in game.sources]
    names.append("margin")
    if "pick" in game.item_fields:  # a drafted item: Knight Academy's cards
        names += [f"card_win_rate:{card}" for card in sorted(getattr(config, "deck", {}))]
    return names


Measure = Callable[[Any, list[Any], Result], float | None]


def measure(game: Game[Any, Any, Any], name: str) -> Measure:
    """The function that reads the metric off a played match (its header, events, result);
    ValueError for a name the game has no such metric for."""
    if name not in metric_names(game):
        raise ValueError(
            f"{game.name} has no metric {name!r}; `squire experiment {game.name} "
            "--list-metrics` lists them"
        )
    kind, _, arg = name.partition(":")
    if kind == "start_player_win_rate":
        return lambda header, events, result: _won(
            result, header.players.index(header.start_player)
        )
    if kind == "seat_win_rate":
        seat = int(arg) - 1
        return lambda header, events, result: (
            _won(result, seat) if seat < len(header.players) else None
        )
    if kind == "source_share":
        return lambda header, events, result: _share(result, arg)
    if kind == "margin":
        return lambda header, events, result: _margin(result)
    field_name = game.item_fields["pick"]
    return lambda header, events, result: _card(header, events, result, arg, field_name)


def _won(result: Result, seat: int) -> float:
    """A seat's share of the win: 1, 1/k in a k-way tie, else 0."""
    return 1 / len(result.winners) if seat in result.winners else 0.0


def _share(result: Result, source: str) -> float | None:
    total = sum(result.scores[seat] for seat in result.winners)
    if total <= 0:
        return None
    return sum(result.sources[seat].get(source, 0) for seat in result.winners) / total


def _margin(result: Result) -> float:
    beaten = [s for seat, s in enumerate(result.scores) if seat not in result.winners]
    best = max(result.scores)
    return float(best - max(beaten)) if beaten else 0.0


def _card(header: Any, events: list[Any], result: Result, card: str, name: str) -> float | None:
    """Of the seats that drafted `card` in the match, the share of the win they took."""
    takers = {
        header.players.index(e.player)
        for e in events
        if type(e).__struct_config__.tag == "pick" and getattr(e, name) == card
    }
    if not takers:
        return None
    return sum(_won(result, seat) for seat in takers) / len(takers)


# --- playing the pairs ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Arms:
    """The experiment: the game, the table and bots, the two sets of changes, the metric."""

    game: str
    players: int
    bots: tuple[str, ...]
    seed: int
    a: Mapping[str, Any]
    b: Mapping[str, Any]
    metric: str
    ruleset: str | None = None
    variant: str | None = None
    paired: bool = True

    @property
    def id(self) -> str:
        """The experiment's id: the same arguments, the same id (and the same matches)."""
        fields = msgspec.to_builtins(dataclasses.asdict(self))
        return "exp-" + hashlib.sha256(msgspec.json.encode(fields)).hexdigest()[:8]

    def spec(self, side: str) -> Spec:
        return Spec(
            game=self.game,
            players=self.players,
            bots=self.bots,
            seed=self.seed,
            ruleset=self.ruleset,
            rules=dict(self.a if side == "a" else self.b),
            variant=self.variant,
        )


@dataclass(frozen=True)
class Pair:
    index: int
    a: float | None
    b: float | None
    logs: tuple[bytes, bytes] | None = None


def play(arms: Arms, side: str, index: int) -> tuple[float | None, bytes]:
    """Match `index` of one arm: its metric and its compressed log."""
    game = GAMES[arms.game]
    assert game.simulation is not None
    spec = arms.spec(side)
    run_id = spec.run_id
    # The same table, chance and bots' streams on both sides of a pair (unpaired: B's own).
    key = f"{arms.seed}:{index}" if arms.paired or side == "a" else f"{arms.seed}:{index}:b"
    header = msgspec.structs.replace(
        _header(spec, index, random.Random(f"{key}:table"), run_id),
        source="squire experiment",
        experiment=Experiment(id=arms.id, arm=side),
    )
    state = game.new_game(game.ruleset(header), header, catalogue_for(spec.game))
    bots = [policy(game, header.agents[p]) if p in header.agents else None for p in header.players]
    events = playout(
        game, state, bots, random.Random(f"{key}:bots"), random.Random(f"{key}:chance")
    )
    result = game.result(state)
    lines: list[Any] = [header, *events]
    if result.complete:
        lines.append(Final(scores=dict(zip(header.players, result.scores))))
    data = gzip.compress(_ENCODER.encode_lines(lines), compresslevel=3, mtime=0)
    value = measure(game, arms.metric)(header, events, result) if result.complete else None
    return value, data


@dataclass(frozen=True)
class Store:
    """Where a worker stages its pairs' matches (the warehouse `db`, committed by the main
    process), when, and where it keeps their logs (`logs`, else they go once staged)."""

    db: Place
    stamp: datetime
    logs: Path | None = None
    storage: dict[str, str] = field(default_factory=dict)  # as an ingest's Task carries it


def play_and_stage(task: tuple[Arms, int, int, Store]) -> tuple[list[Pair], list[Staged]]:
    """A worker's share, played and staged for the warehouse where it was played, as an
    ingest's worker stages its logs: the main process only commits."""
    arms, start, stop, store = task
    pairs = play_pairs((arms, start, stop, True))
    folder = store.logs or Path(tempfile.mkdtemp(prefix="squire-experiment-"))
    paths: list[str] = []
    names: dict[str, str] = {}
    try:
        for pair in pairs:
            assert pair.logs is not None
            for side, data in zip(("a", "b"), pair.logs):
                name = f"{arms.game}-{arms.id}-{side}-{pair.index:06d}"
                (folder / side).mkdir(parents=True, exist_ok=True)
                path = str(write_log(folder / side, Written(name, data, {}, {}, [])))
                paths.append(path)
                names[path] = f"{arms.id}/{side}/{pair.index:06d}"  # what the warehouse records
        staged = stage(Task(paths, store.db, store.stamp, names, store.storage))
    finally:
        if store.logs is None:
            shutil.rmtree(folder, ignore_errors=True)
    return [Pair(p.index, p.a, p.b) for p in pairs], staged


def play_pairs(task: tuple[Arms, int, int, bool]) -> list[Pair]:
    """A worker's share: pairs start … stop − 1 (with their logs when asked)."""
    arms, start, stop, keep = task
    out = []
    for index in range(start, stop):
        va, la = play(arms, "a", index)
        vb, lb = play(arms, "b", index)
        out.append(Pair(index, va, vb, (la, lb) if keep else None))
    return out


# --- the statistics ------------------------------------------------------------------------------


@dataclass
class Tally:
    """The pairs so far, and what they say."""

    pairs: list[Pair] = field(default_factory=list)

    def usable(self) -> list[tuple[float, float]]:
        """Pairs where the metric is defined on both sides (a card drafted in both)."""
        return [(p.a, p.b) for p in sorted(self.pairs, key=lambda p: p.index)
                if p.a is not None and p.b is not None]  # fmt: skip

    def summary(self) -> dict[str, Any]:
        rows = self.usable()
        n = len(rows)
        if n < 2:
            return {"pairs": n, "difference": None, "ci95": None}
        a = [x for x, _ in rows]
        b = [y for _, y in rows]
        d = [x - y for x, y in rows]
        mean_d = sum(d) / n
        se_paired = math.sqrt(_variance(d) / n)
        se_unpaired = math.sqrt((_variance(a) + _variance(b)) / n)
        saved = 1 - (se_paired / se_unpaired) ** 2 if se_unpaired else 0.0
        return {
            "pairs": n,
            "mean_a": sum(a) / n,
            "mean_b": sum(b) / n,
            "difference": mean_d,
            "ci95": [mean_d - Z95 * se_paired, mean_d + Z95 * se_paired],
            "sd_difference": math.sqrt(_variance(d)),
            "variance_saved": saved,
        }


def _variance(values: Sequence[float]) -> float:
    n = len(values)
    mean = sum(values) / n
    return sum((v - mean) ** 2 for v in values) / (n - 1)


def needed(sd: float, precision: float) -> int:
    """Pairs for a 95% interval `precision` wide, for a difference of this spread."""
    return max(2, math.ceil((2 * Z95 * sd / precision) ** 2))


def run(
    arms: Arms,
    precision: float,
    most: int,
    batch: int,
    pairs_of: Callable[[list[tuple[Arms, int, int, bool]]], Iterator[list[Pair]]],
    chunks: Callable[[int], list[tuple[int, int]]],
    keep: bool = False,
    on_pairs: Callable[[list[Pair]], None] | None = None,
) -> Iterator[dict[str, Any]]:
    """Batch after batch: a report of each (the first with the estimate of the pairs the
    precision needs), then the final one with why it stopped."""
    tally = Tally()
    played = 0
    while True:
        size = min(batch, most - played)
        work = [(arms, played + lo, played + hi, keep) for lo, hi in chunks(size)]
        for pairs in pairs_of(work):
            tally.pairs.extend(pairs)
            if on_pairs is not None:
                on_pairs(pairs)
        played += size
        report = {"batch": played // batch + (played % batch > 0), "matches": played,
                  **tally.summary()}  # fmt: skip
        if played == size and report.get("sd_difference") is not None:
            report["estimated_matches"] = needed(report["sd_difference"], precision)
        yield report
        ci = report.get("ci95")
        if ci is not None and ci[1] - ci[0] < precision:
            stopped = "precision"
            break
        if played >= most:
            stopped = "max"
            break
    final = tally.summary()
    yield {
        "experiment": arms.id,
        "metric": arms.metric,
        "a": dict(arms.a),
        "b": dict(arms.b),
        "difference": final.get("difference"),
        "ci95": final.get("ci95"),
        "matches": played,
        "pairs_measured": final["pairs"],
        "means": {"a": final.get("mean_a"), "b": final.get("mean_b")},
        "paired": arms.paired,
        "variance_saved": final.get("variance_saved"),
        "stopped": stopped,
    }


# --- what the warehouse keeps of it ------------------------------------------------------------


def result_row(
    arms: Arms, report: Mapping[str, Any], precision: float, most: int
) -> dict[str, Any]:
    """The warehouse's record of the experiment (EXPERIMENT_RESULTS) from one of `run`'s
    reports: a batch's (not stopped yet) or the final one."""
    final = "stopped" in report
    means = report["means"] if final else {"a": report.get("mean_a"), "b": report.get("mean_b")}
    low, high = report.get("ci95") or (None, None)
    return {
        "experiment": arms.id,
        "game": arms.game,
        "metric": arms.metric,
        "a": msgspec.json.encode(dict(arms.a)).decode(),
        "b": msgspec.json.encode(dict(arms.b)).decode(),
        "players": arms.players,
        "bots": ",".join(arms.bots),
        "seed": arms.seed,
        "ruleset": arms.ruleset,
        "variant": arms.variant,
        "paired": arms.paired,
        "precision": precision,
        "most": most,
        "matches": report["matches"],
        "pairs_measured": report["pairs_measured"] if final else report["pairs"],
        "mean_a": means["a"],
        "mean_b": means["b"],
        "a_minus_b": report.get("difference"),
        "a_minus_b_low": low,
        "a_minus_b_high": high,
        "variance_saved": report.get("variance_saved"),
        "stopped": report.get("stopped"),
        "recorded_at": datetime.now(UTC),
    }


def record(db: Place, arms: Arms, report: Mapping[str, Any], precision: float, most: int) -> None:
    """Keep what a report says of the experiment in the warehouse `db` (its writer's lock held)."""
    write_experiment(db, result_row(arms, report, precision, most))
