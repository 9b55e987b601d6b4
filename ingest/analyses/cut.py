"""Playouts cut at the round's end, scored by the fitted chances model (ingest.analyses.outlook):
the `Scorer` a move analysis hands to replay.analysis.judge.

A playout to the end of a match ends in a win or a loss, one bit with the whole rest of the
match's luck in it; cut at the round's end and scored by the model, it ends in a chance, and
costs a round's events instead of the rest of the match's. The model reads what the facts say
so far: the match's own facts up to the decision, summed into where each seat stood then, and
each run's facts after it, as an ingest would store them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from ingest.analyses.outlook import Facts, Model, predict
from ingest.warehouse.fact_rows import TABLES, add_fact_rows
from replay.replayer import Match, Outcome, Step

_SCORES = {"game_id": pl.String, "event_index": pl.Int64, "player": pl.String,
           "points": pl.Int64}  # fmt: skip
_TRACKS = {"game_id": pl.String, "event_index": pl.Int64, "player": pl.String,
           "track": pl.String, "progress_after": pl.Int64}  # fmt: skip
_RESOURCES = {"game_id": pl.String, "event_index": pl.Int64, "player": pl.String,
              "resource": pl.String, "delta": pl.Int64}  # fmt: skip


class ModelScorer:
    """Scores cut playouts of one match by `model`."""

    def __init__(self, model: Model, match: Match, outcome: Outcome) -> None:
        self.model = model
        self.players = list(match.header.players)
        self.steps = outcome.steps
        self.length = len(outcome.steps)  # the match's: how far through it a step is
        neutral = getattr(match.header, "neutral", None)
        first = self.players.index(match.header.start_player)
        n = len(self.players)
        self.seated = [(p, p == neutral, (s - first) % n) for s, p in enumerate(self.players)]
        self._stood: dict[int, tuple[list[Any], list[Any], list[Any]]] = {}

    def _before(self, start: int) -> tuple[list[Any], list[Any], list[Any]]:
        """Where each seat stood before event `start`: points and resources summed, each
        track's marker where it last moved to."""
        if start not in self._stood:
            rows: dict[str, list[tuple[Any, ...]]] = {table: [] for table in TABLES}
            add_fact_rows(rows, "", self.players, self.steps[: start - 1])
            points: dict[str, int] = {}
            for _, _, _, who, _, value in rows["score_events"]:
                points[who] = points.get(who, 0) + value
            tracks: dict[tuple[str, str], int] = {}
            for _, _, _, who, track, _, after, _ in rows["track_moves"]:
                tracks[who, track] = after
            held: dict[tuple[str, str], int] = {}
            for _, _, _, who, resource, delta, _ in rows["resource_changes"]:
                held[who, resource] = held.get(who, 0) + delta
            self._stood[start] = (
                [(who, v) for who, v in points.items()],
                [(who, t, v) for (who, t), v in tracks.items()],
                [(who, r, v) for (who, r), v in held.items()],
            )
        return self._stood[start]

    def __call__(
        self, seat: int, start: int, runs: Sequence[Sequence[tuple[Any, Sequence[Any]]]]
    ) -> list[float]:
        points, tracks, held = self._before(start)
        rows: dict[str, list[tuple[Any, ...]]] = {table: [] for table in TABLES}
        scores: list[tuple[Any, ...]] = []
        moved: list[tuple[Any, ...]] = []
        resources: list[tuple[Any, ...]] = []
        seats: list[tuple[Any, ...]] = []
        steps: list[tuple[Any, ...]] = []
        for r, run in enumerate(runs):
            run_id = str(r)
            scores += [(run_id, 0, who, v) for who, v in points]
            moved += [(run_id, 0, who, t, v) for who, t, v in tracks]
            resources += [(run_id, 0, who, res, v) for who, res, v in held]
            seats += [(run_id, who, neutral, position, False) for who, neutral, position in
                      self.seated]  # fmt: skip
            steps.append((run_id, start - 1 + len(run)))
            played = [Step(start + k, 0, 0, e, f) for k, (e, f) in enumerate(run)]
            add_fact_rows(rows, run_id, self.players, played)
        scores += [(g, i, who, p) for g, i, _, who, _, p in rows["score_events"]]
        moved += [(g, i, who, t, a) for g, i, _, who, t, _, a, _ in rows["track_moves"]]
        resources += [(g, i, who, res, d) for g, i, _, who, res, d, _ in rows["resource_changes"]]
        facts = Facts(
            seats=pl.DataFrame(
                seats,
                schema={
                    "game_id": pl.String,
                    "player": pl.String,
                    "neutral": pl.Boolean,
                    "position": pl.Int64,
                    "won": pl.Boolean,
                },
                orient="row",
            ),
            lengths=pl.DataFrame(
                [(g, max(self.length, s)) for g, s in steps],
                schema={"game_id": pl.String, "event_count": pl.Int64},
                orient="row",
            ),
            scores=pl.DataFrame(scores, schema=_SCORES, orient="row"),
            tracks=pl.DataFrame(moved, schema=_TRACKS, orient="row"),
            resources=pl.DataFrame(resources, schema=_RESOURCES, orient="row"),
        )
        at = pl.DataFrame(steps, schema={"game_id": pl.String, "step": pl.Int64}, orient="row")
        chances = predict(self.model, facts, at).filter(pl.col("player") == self.players[seat])
        found = dict(zip(chances["game_id"].to_list(), chances["p"].to_list()))
        return [float(found.get(str(r), 0.0)) for r in range(len(runs))]
