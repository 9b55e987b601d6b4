"""Who was winning: each seat's chance to win after any step of a match, from what the match's
facts say so far, by a model fitted on stored matches of the same game.

The model is a conditional logit (McFadden's choice model): a seat's chance is the softmax,
over the seats that can win, of a weighted sum of its features. The features are the facts the
engines established up to that step, relative to the other seats: points, each race track's
position, each resource held, and being the start player, each also weighted by how far
through the match the step is. So nothing here reads a rule; what the rules did is in the facts.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import msgspec
import numpy as np
import polars as pl

# Steps a fitted match contributes: evenly spaced, so long matches do not outweigh short ones.
STEPS_PER_MATCH = 24
# A ridge on the weights: enough that a feature no match varies still has a solution.
RIDGE = 1.0
TOLERANCE = 1e-6


class Facts(msgspec.Struct, frozen=True, kw_only=True):
    """A set of matches' facts, in the warehouse's shape (one frame per table)."""

    seats: pl.DataFrame  # game_id, player, neutral, position, won
    lengths: pl.DataFrame  # game_id, event_count
    scores: pl.DataFrame  # game_id, event_index, player, points
    tracks: pl.DataFrame  # game_id, event_index, player, track, progress_after
    resources: pl.DataFrame  # game_id, event_index, player, resource, delta

    def only(self, ids: Sequence[str]) -> Facts:
        """The same facts of only these matches."""
        keep = pl.col("game_id").is_in(list(ids))
        return Facts(
            seats=self.seats.filter(keep),
            lengths=self.lengths.filter(keep),
            scores=self.scores.filter(keep),
            tracks=self.tracks.filter(keep),
            resources=self.resources.filter(keep),
        )


class Scales(msgspec.Struct, frozen=True, kw_only=True):
    """What one unit of each feature is: a fitted match's typical size of it."""

    points: float
    tracks: dict[str, float]
    resources: dict[str, float]


class Model(msgspec.Struct, frozen=True, kw_only=True):
    game: str
    names: list[str]
    weights: list[float]
    scales: Scales
    matches: int  # the matches it was fitted on

    @property
    def method(self) -> str:
        return (
            "conditional logit on the points, track positions and resources so far "
            f"(fitted on {self.matches} stored matches of {self.game})"
        )


def scales_of(facts: Facts) -> Scales:
    """A winner's mean final score; each track's furthest square; each resource's most held."""
    finals = facts.scores.group_by("game_id", "player").agg(pl.col("points").sum())
    best = finals.group_by("game_id").agg(pl.col("points").max())["points"]
    held = (
        facts.resources.sort("event_index")
        .with_columns(pl.col("delta").cum_sum().over("game_id", "player", "resource").alias("held"))
        .group_by("resource")
        .agg(pl.col("held").abs().max())
    )
    tracks = facts.tracks.group_by("track").agg(pl.col("progress_after").abs().max())
    return Scales(
        points=max(1.0, float(best.mean() or 1.0)),  # type: ignore[arg-type]
        tracks={t: max(1.0, float(v)) for t, v in tracks.sort("track").iter_rows()},
        resources={r: max(1.0, float(v)) for r, v in held.sort("resource").iter_rows()},
    )


def sampled_steps(lengths: pl.DataFrame, per_match: int | None) -> pl.DataFrame:
    """The steps features are built at: every one (`None`), or `per_match` evenly spaced
    before the last (whose chances are the result's, not the model's)."""
    rows: list[tuple[Any, int]] = []
    for game_id, count in lengths.select("game_id", "event_count").iter_rows():
        if per_match is None:
            rows.extend((game_id, s) for s in range(count + 1))
        else:
            top = max(0, count - 1)
            picked = {round(i * top / max(1, per_match - 1)) for i in range(per_match)}
            rows.extend((game_id, s) for s in sorted(picked))
    ids = lengths.schema["game_id"]
    return pl.DataFrame(rows, schema={"game_id": ids, "step": pl.Int64}, orient="row")


def _at_steps(
    grid: pl.DataFrame, changes: pl.DataFrame, key: str, value: str, cumulative: bool
) -> pl.DataFrame:
    """Each (match, step, player) with `value` as it stood after that step: the last one (a
    position) or the sum so far (points, resources); with a `key`, a column for each of its
    values (each track, each resource)."""
    names = changes[key].unique().sort().to_list() if key else []
    if changes.is_empty():
        return grid.with_columns([pl.lit(0.0).alias(n) for n in (names if key else [value])])
    by = ["game_id", "player"]
    keyed = [*by, *([key] if key else [])]
    running = changes.sort("event_index", maintain_order=True).with_columns(
        (pl.col(value).cum_sum().over(keyed) if cumulative else pl.col(value))
        .cast(pl.Float64)
        .alias("v"),
        pl.col("event_index").cast(pl.Int64),
    )
    # the last change of each event (an event may move a marker twice)
    running = running.group_by([*keyed, "event_index"]).agg(pl.col("v").last())
    if key:
        # A row per event that changed any of a seat's markers, with every marker as it then
        # stood: one as-of join of the grid, rather than one per marker (which took the fit
        # to several times the memory).
        running = (
            running.pivot(key, index=[*by, "event_index"], values="v")
            .sort([*by, "event_index"])
            .with_columns(pl.col(names).forward_fill().over(by))
        )
    joined = grid.sort("step").join_asof(
        running.sort("event_index"),
        left_on="step",
        right_on="event_index",
        by=by,
        strategy="backward",
        check_sortedness=False,  # sorted above; polars cannot check it within groups
    )
    filled = joined.drop("event_index").with_columns(pl.col(names or ["v"]).fill_null(0.0))
    return filled if key else filled.rename({"v": value})


def features(facts: Facts, scales: Scales, steps: pl.DataFrame) -> tuple[pl.DataFrame, list[str]]:
    """One row per (match, step, seat that can win), sorted by match and step, with the feature
    columns named in the second value. Relative features are against the other such seats."""
    contenders = facts.seats.filter(~pl.col("neutral")).select("game_id", "player", "position")
    grid = steps.join(contenders, on="game_id")
    lengths = facts.lengths.select("game_id", pl.col("event_count").cast(pl.Float64))
    frame = _at_steps(grid, facts.scores, "", "points", True)
    tracks = [t for t in scales.tracks]
    resources = [r for r in scales.resources]
    known = facts.tracks.filter(pl.col("track").is_in(tracks))
    held = facts.resources.filter(pl.col("resource").is_in(resources))
    keys = ["game_id", "step", "player"]
    for part in (
        _at_steps(grid, known, "track", "progress_after", False),
        _at_steps(grid, held, "resource", "delta", True),
    ):
        extra = [c for c in part.columns if c not in (*keys, "position")]
        frame = frame.join(part.select(*keys, *extra), on=keys, how="left")
    frame = frame.join(lengths, on="game_id")
    group = ["game_id", "step"]
    t = (pl.col("step") / pl.col("event_count").clip(lower_bound=1)).alias("t")
    frame = frame.with_columns(t)
    base: list[pl.Expr] = []
    points = pl.col("points") / scales.points
    others = pl.when(pl.len().over(group) > 1)
    base.append((points - points.mean().over(group)).alias("points"))
    # the gap to the best of the others: 0 when alone, positive when ahead of everyone
    top = points.max().over(group)
    second = points.sort(descending=True).head(2).last().over(group)
    base.append(
        others.then(pl.when(points >= top).then(points - second).otherwise(points - top))
        .otherwise(0.0)
        .alias("gap")
    )
    for name, scale in (
        *((f"track:{k}", scales.tracks[k]) for k in tracks),
        *((f"resource:{r}", scales.resources[r]) for r in resources),
    ):
        column = name.split(":", 1)[1]
        value = (pl.col(column).fill_null(0.0) if column in frame.columns else pl.lit(0.0)) / scale
        base.append((value - value.mean().over(group)).alias(name))
    base.append((pl.col("position") == 0).cast(pl.Float64).alias("first"))
    frame = frame.with_columns(base)
    names = [e.meta.output_name() for e in base]
    frame = frame.with_columns([(pl.col(n) * pl.col("t")).alias(f"{n}·t") for n in names])
    names = [*names, *(f"{n}·t" for n in names)]
    return frame.sort("game_id", "step", "player"), names


def _groups(frame: pl.DataFrame) -> np.ndarray:
    """Where each (match, step) group starts in the sorted frame."""
    change = frame.select(
        (pl.col("game_id") != pl.col("game_id").shift(1))
        | (pl.col("step") != pl.col("step").shift(1))
    ).to_series()
    starts: np.ndarray = np.flatnonzero(change.fill_null(True).to_numpy())
    return starts


def _softmax(u: np.ndarray, starts: np.ndarray) -> np.ndarray:
    top = np.maximum.reduceat(u, starts)
    sizes = np.diff(np.append(starts, len(u)))
    e = np.exp(u - np.repeat(top, sizes))
    shares: np.ndarray = e / np.repeat(np.add.reduceat(e, starts), sizes)
    return shares


def fit(facts: Facts, game: str) -> Model:
    """Maximum likelihood by Newton's method (the log-likelihood is concave)."""
    scales = scales_of(facts)
    frame, names = features(facts, scales, sampled_steps(facts.lengths, STEPS_PER_MATCH))
    won = facts.seats.filter(~pl.col("neutral")).select(
        "game_id",
        "player",
        (pl.col("won").cast(pl.Float64) / pl.col("won").cast(pl.Float64).sum().over("game_id"))
        .fill_nan(0.0)
        .alias("y"),
    )
    frame = frame.join(won, on=["game_id", "player"], how="left").sort("game_id", "step", "player")
    x = frame.select(names).to_numpy().astype(np.float64)
    y = frame["y"].fill_null(0.0).to_numpy()
    starts = _groups(frame)
    w = np.zeros(len(names))
    for _ in range(50):
        p = _softmax(x @ w, starts)
        grad = x.T @ (y - p) - RIDGE * w
        px = x * p[:, None]
        m = np.add.reduceat(px, starts)
        hess = px.T @ x - m.T @ m + RIDGE * np.eye(len(names))
        delta = np.linalg.solve(hess, grad)
        w += delta
        if np.abs(delta).max() < TOLERANCE:
            break
    return Model(
        game=game,
        names=names,
        weights=[float(v) for v in w],
        scales=scales,
        matches=facts.lengths.height,
    )


def predict(model: Model, facts: Facts, steps: pl.DataFrame) -> pl.DataFrame:
    """game_id, step, player, p: each seat's chance to win after each step."""
    frame, names = features(facts, model.scales, steps)
    if frame.is_empty():
        return frame.select("game_id", "step", "player").with_columns(p=pl.lit(0.0))
    weights = dict(zip(model.names, model.weights, strict=True))
    w = np.array([weights.get(n, 0.0) for n in names])
    x = frame.select(names).to_numpy().astype(np.float64)
    p = _softmax(x @ w, _groups(frame))
    return frame.select("game_id", "step", "player").with_columns(pl.Series("p", p))


def leader(facts: Facts, steps: pl.DataFrame) -> pl.DataFrame:
    """The naive estimate: the seats leading on points share the win (all, before any)."""
    contenders = facts.seats.filter(~pl.col("neutral")).select("game_id", "player")
    grid = steps.join(contenders, on="game_id")
    frame = _at_steps(grid, facts.scores, "", "points", True)
    group = ["game_id", "step"]
    leads = (pl.col("points") == pl.col("points").max().over(group)).cast(pl.Float64)
    return (
        frame.with_columns(leads.alias("lead"))
        .with_columns((pl.col("lead") / pl.col("lead").sum().over(group)).alias("p"))
        .select("game_id", "step", "player", "p")
        .sort("game_id", "step", "player")
    )


def turning_points(
    timeline: Sequence[tuple[int, dict[str, float]]], count: int = 5, least: float = 0.05
) -> list[tuple[int, str, float, float]]:
    """The steps that moved a seat's chance most: (step, player, before, after), the biggest
    move first, at most `count`, each at least `least`; a step is named once, for the seat
    it moved most (the first named on a tie)."""
    moves: list[tuple[float, int, str, float, float]] = []
    for (_, before), (step, after) in itertools.pairwise(timeline):
        swing = max(after, key=lambda who: abs(after[who] - before.get(who, 0.0)))
        size = abs(after[swing] - before.get(swing, 0.0))
        if size >= least:
            moves.append((size, step, swing, before.get(swing, 0.0), after[swing]))
    moves.sort(key=lambda m: (-m[0], m[1]))
    return [(step, who, b, a) for _, step, who, b, a in moves[:count]]


def _truth(facts: Facts) -> pl.DataFrame:
    """Each seat that can win: its share of the win (1, or 1/k for k winners; else 0)."""
    won = pl.col("won").cast(pl.Float64)
    return facts.seats.filter(~pl.col("neutral")).select(
        "game_id", "player", (won / won.sum().over("game_id")).fill_nan(0.0).alias("y")
    )


def _scored(chances: pl.DataFrame, truth: pl.DataFrame) -> pl.DataFrame:
    return chances.join(truth, on=["game_id", "player"]).with_columns(
        ((pl.col("p") - pl.col("y")) ** 2).alias("sq")
    )


BINS = 10


def calibration(train: Facts, test: Facts, game: str) -> dict[str, object]:
    """Fit on `train`, measure on `test` (matches it never saw) at the same sampled steps:
    the Brier score (per prediction of a whole table: the sum over its seats of the squared
    error) of the model, of "the seats leading on points win" and of "everyone alike", and a
    reliability table of the model and of the leader rule."""
    model = fit(train, game)
    steps = sampled_steps(test.lengths, STEPS_PER_MATCH)
    truth = _truth(test)
    estimates = {
        "model": predict(model, test, steps),
        "leader": leader(test, steps),
    }
    uniform = estimates["leader"].with_columns((1.0 / pl.len().over("game_id", "step")).alias("p"))
    estimates["uniform"] = uniform
    out: dict[str, object] = {
        "game": game,
        "train_matches": train.lengths.height,
        "test_matches": test.lengths.height,
        "predictions": steps.height,
        "method": model.method,
    }
    reliability: dict[str, list[dict[str, object]]] = {}
    for name, chances in estimates.items():
        scored = _scored(chances, truth)
        per_table = scored.group_by("game_id", "step").agg(pl.col("sq").sum())
        out[f"brier_{name}"] = round(float(per_table["sq"].mean() or 0.0), 4)  # type: ignore[arg-type]
        if name == "uniform":
            continue
        binned = (
            scored.with_columns(
                (pl.col("p") * BINS).floor().clip(upper_bound=BINS - 1).cast(pl.Int32).alias("bin")
            )
            .group_by("bin")
            .agg(
                pl.len().alias("n"),
                pl.col("p").mean().alias("predicted"),
                pl.col("y").mean().alias("won"),
            )
            .sort("bin")
        )
        reliability[name] = [
            {
                "bin": f"{10 * b}–{10 * (b + 1)}%",
                "n": n,
                "predicted": round(p, 3),
                "won": round(w, 3),
            }
            for b, n, p, w in binned.iter_rows()
        ]
    out["reliability"] = reliability
    return out
