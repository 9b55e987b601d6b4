"""A match's facts as the warehouse's rows: the one conversion, for what an ingest stores, what
the review's model reads and any other reader of a replayed match. Nothing here reads a rule:
where a track's markers stand at a round's end, and who leads it, are the engine's own
`TrackRanked` facts."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from replay.facts import PiecesRemoved, ResourceChanged, ScoreChanged, TrackMoved, TrackRanked
from replay.replayer import Step

Rows = dict[str, list[tuple[Any, ...]]]

# The tables filled from facts, in the columns of ingest.warehouse.tables.COLUMNS.
TABLES = (
    "score_events",
    "track_moves",
    "resource_changes",
    "pieces_removed",
    "round_progress",
    "track_leaders",
)


def fact_rows(game_id: str, players: Sequence[str], steps: Iterable[Step]) -> Rows:
    """Every fact of a match's steps as rows of `TABLES`."""
    rows: Rows = {table: [] for table in TABLES}
    add_fact_rows(rows, game_id, players, steps)
    return rows


def add_fact_rows(rows: Rows, game_id: str, players: Sequence[str], steps: Iterable[Step]) -> None:
    """Append to `rows` (a list for each of `TABLES`) the rows of a match's facts."""
    moves, scores = rows["track_moves"], rows["score_events"]
    resources, removed = rows["resource_changes"], rows["pieces_removed"]
    ends, leaders = rows["round_progress"], rows["track_leaders"]
    last_leader: dict[str, str] = {}  # track → the player who led it at the last round's end
    for step in steps:
        if not step.facts:
            continue
        index = step.index
        standing: list[TrackRanked] = []
        for fact in step.facts:
            if type(fact) is TrackMoved:
                moves.append(
                    (
                        game_id,
                        index,
                        fact.round,
                        players[fact.seat],
                        fact.track,
                        fact.before,
                        fact.after,
                        fact.cause,
                    )
                )
            elif type(fact) is ScoreChanged:
                scores.append(
                    (game_id, index, fact.round, players[fact.seat], fact.source, fact.points)
                )
            elif type(fact) is TrackRanked:
                standing.append(fact)
            elif type(fact) is ResourceChanged:
                resources.append(
                    (
                        game_id,
                        index,
                        fact.round,
                        players[fact.seat],
                        fact.resource,
                        fact.delta,
                        fact.cause,
                    )
                )
            elif type(fact) is PiecesRemoved:
                removed.append(
                    (
                        game_id,
                        index,
                        fact.round,
                        players[fact.seat],
                        players[fact.victim],
                        fact.place,
                        fact.piece,
                        fact.count,
                        fact.cause,
                    )
                )
        if standing:
            _round_ends(ends, leaders, last_leader, game_id, players, standing)


def _round_ends(
    ends: list[tuple[Any, ...]],
    leaders: list[tuple[Any, ...]],
    last_leader: dict[str, str],
    game_id: str,
    players: Sequence[str],
    standing: list[TrackRanked],
) -> None:
    """A round's end: each marker where it stands, with its place counted from the back
    (`arrived`: the higher ranks above on a shared square), and each track's leader."""
    markers: dict[tuple[int, str], int] = {}  # one event may end two rounds (Albus Academy)
    for fact in standing:
        key = (fact.round, fact.track)
        markers[key] = markers.get(key, 0) + 1
    for fact in standing:
        player = players[fact.seat]
        track = fact.track
        arrived = markers[fact.round, track] + 1 - fact.place
        ends.append((game_id, fact.round, player, track, fact.progress, arrived))
        if fact.leads:
            before = last_leader.get(track)
            leaders.append(
                (game_id, fact.round, track, player, before is not None and before != player)
            )
            last_leader[track] = player
