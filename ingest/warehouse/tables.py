"""The warehouse's tables: their columns and types, a rejected log's row, and who played a
match (people or bots), as every writer and reader of the warehouse spells them."""

from __future__ import annotations

from dataclasses import dataclass

import pyarrow as pa

from replay.errors import rejection


@dataclass
class Reject:
    path: str
    line: int
    rule: str
    message: str
    log_sha256: str

    def __str__(self) -> str:
        return rejection(self.path, self.line, self.rule, self.message)


COLUMNS: dict[str, tuple[str, ...]] = {
    "games": (
        "game_id",
        "game",
        "variant",
        "ruleset",
        "rules",
        "ruleset_key",
        "player_count",
        "seat_count",
        "complete",
        "event_count",
        "played_at",
        "source",
        "path",
        "log_sha256",
        "engine_version",
        "header",
        "catalogue",
        "catalogue_version",
        "catalogue_sha256",
        "experiment",
        "arm",
        "origin",
    ),
    "seats": (
        "game_id",
        "seat",
        "player",
        "agent",
        "neutral",
        "start_player",
        "position",
        "score",
        "rank",
        "won",
        "tie_break",
    ),
    "events": ("game_id", "event_index", "line", "kind", "player", "round", "payload"),
    "score_events": ("game_id", "event_index", "round", "player", "source", "points"),
    "track_moves": (
        "game_id",
        "event_index",
        "round",
        "player",
        "track",
        "progress_before",
        "progress_after",
        "cause",
    ),
    "resource_changes": ("game_id", "event_index", "round", "player", "resource", "delta", "cause"),
    "pieces_removed": (
        "game_id",
        "event_index",
        "round",
        "player",
        "victim",
        "place",
        "piece",
        "count",
        "cause",
    ),
    # Derived while replaying, so the dashboards need not rebuild them for every question:
    # each marker at the end of each round (before a reset) and its place there, and the
    # leader of each track then, as the engine ranks them (ingest.warehouse.fact_rows); the
    # component each event takes with its position in the seat's round; and each seat's final
    # points from each of its game's sources, zeros included.
    "round_progress": ("game_id", "round", "player", "track", "progress", "arrived"),
    "seat_points": ("game_id", "seat", "player", "source", "points"),
    "track_leaders": ("game_id", "round", "track", "leader", "changed"),
    "item_events": ("game_id", "event_index", "round", "player", "action", "item", "position"),
}

# Seats, events, lines and rounds are bounded by the log's limits (LOG-6); what the rules
# add up (scores, points, progress, resources) is 64-bit, whatever a ruleset or catalogue
# makes of it.
TYPES: dict[str, pa.DataType] = {
    "seat": pa.int32(),
    "player_count": pa.int32(),
    "seat_count": pa.int32(),
    "event_count": pa.int32(),
    "event_index": pa.int32(),
    "line": pa.int32(),
    "round": pa.int32(),
    "score": pa.int64(),
    "rank": pa.int32(),
    "points": pa.int64(),
    "progress_before": pa.int64(),
    "progress_after": pa.int64(),
    "complete": pa.bool_(),
    "progress": pa.int64(),
    "arrived": pa.int32(),
    "position": pa.int32(),
    "changed": pa.bool_(),
    "delta": pa.int64(),
    "count": pa.int64(),
    "neutral": pa.bool_(),
    "start_player": pa.bool_(),
    "won": pa.bool_(),
    "tie_break": pa.bool_(),
    "played_at": pa.timestamp("us", tz="UTC"),
}


def origin(players: list[str], agents: dict[str, str], neutral: str | None) -> str:
    """Who played the match: "bot" when a bot sat at every seat that can win (a simulation),
    "human" when a person sat at one (a club's match, even with bots beside them)."""
    return "bot" if all(p in agents for p in players if p != neutral) else "human"


# The same, for the parts stored before `games.origin` (a reader's view, the summaries of such
# a part): a match whose every seat that can win had a bot.
ORIGIN_SQL = """coalesce({games}.origin, CASE WHEN {games}.game_id IN (
    SELECT game_id FROM {seats} WHERE NOT neutral GROUP BY game_id HAVING count(agent) = count(*)
) THEN 'bot' ELSE 'human' END)"""
