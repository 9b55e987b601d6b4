"""Pre-aggregated tables: the statistics pages' answers, summed per batch at ingest.

A statistics page asks the same few questions of every match under its filters (points by
source, wins by seat, progress by round, …). Asked of the rows, each question joins and
groups the whole warehouse: seconds at 100,000 matches, tens of seconds at a million. So
every batch also stores its answers, grouped by what the filters narrow by — game, variant,
rule set, player count, the day played (UTC), who played (people or bots), experiment and
arm — and by what the pages show, in a table of each summary's (`summary_<name>`). Every
measure is a count or a sum, so the rows of several batches add up: a reader sums them at
read time, and a compaction writes each summary again summed by its keys (`added`). The box
plot's quartiles come from a histogram of points (points are whole numbers), so they are
exact too.

A part of the older format (ingest.warehouse.convert) kept its summaries beside its rows,
named with their VERSION; a part written before summaries existed, or with an earlier
version of them (grouped by fewer keys), has them derived from its rows when converted.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import duckdb
import pyarrow as pa

from ingest.warehouse.tables import ORIGIN_SQL

# Raised when the summaries' keys change: a part's summaries of an earlier version are
# derived from its rows until a compaction writes them again.
VERSION = 2

# What the filters narrow by (dashboards.data.Filters): every summary is grouped by these.
# The day is taken in UTC, whatever the reader's time zone.
FILTERED = (
    "game",
    "variant",
    "ruleset_key",
    "player_count",
    "played_at",
    "origin",
    "experiment",
    "arm",
)
_MATCHES = f"""
    SELECT game_id, game, variant, ruleset_key, player_count,
           CAST(played_at AT TIME ZONE 'UTC' AS DATE) AS played_at,
           {ORIGIN_SQL.format(games="g", seats="{seats}")} AS origin, experiment, arm
    FROM {{games}} g WHERE complete
"""
_DIMS = ", ".join(f"m.{c}" for c in FILTERED)

# Each summary: the SQL over one part's tables ({games}, {seats}, …), whose GROUP BY columns
# are its keys and whose other columns are counts or sums.
SUMMARIES: dict[str, tuple[tuple[str, ...], str]] = {
    # Complete matches, and those with a winner among the seats that can win.
    "matches": (
        FILTERED,
        f"""
        WITH m AS ({_MATCHES}), w AS (
            SELECT game_id, bool_or(won AND NOT neutral) AS has FROM {{seats}} GROUP BY game_id
        )
        SELECT {_DIMS}, count(*) AS matches, count(*) FILTER (WHERE w.has) AS won_matches
        FROM m LEFT JOIN w USING (game_id) GROUP BY ALL
        """,
    ),
    # Seats that can win: wins, tie-breaks and scores by seat, player and bot.
    "seats": (
        (*FILTERED, "position", "start_player", "player", "agent"),
        f"""
        WITH m AS ({_MATCHES})
        SELECT {_DIMS}, s.position, s.start_player, s.player, s.agent, count(*) AS seats,
               count(*) FILTER (WHERE s.won) AS wins,
               count(*) FILTER (WHERE s.tie_break) AS tie_breaks,
               count(s.score) AS scored, sum(s.score) AS score
        FROM m JOIN {{seats}} s USING (game_id) WHERE NOT s.neutral GROUP BY ALL
        """,
    ),
    # How many seats took each number of points from each source: the box plot's histogram.
    "points": (
        (*FILTERED, "source", "won", "points"),
        f"""
        WITH m AS ({_MATCHES})
        SELECT {_DIMS}, p.source, s.won, p.points, count(*) AS seats
        FROM m JOIN {{seats}} s USING (game_id)
        JOIN {{seat_points}} p ON p.game_id = s.game_id AND p.seat = s.seat
        WHERE NOT s.neutral GROUP BY ALL
        """,
    ),
    # Points from each source by player and bot: means by group and winners' shares.
    "source_points": (
        (*FILTERED, "source", "won", "player", "agent"),
        f"""
        WITH m AS ({_MATCHES})
        SELECT {_DIMS}, p.source, s.won, s.player, s.agent, count(*) AS seats,
               sum(p.points) AS points
        FROM m JOIN {{seats}} s USING (game_id)
        JOIN {{seat_points}} p ON p.game_id = s.game_id AND p.seat = s.seat
        WHERE NOT s.neutral GROUP BY ALL
        """,
    ),
    # Each source's share of the winners' points, match by match (signed: a penalty is a
    # negative share; winners of a tie together), summed: the mean is the experiment metric
    # `source_share` over the same matches; with their squares, its interval. A match whose
    # winners scored nothing has none.
    "winner_shares": (
        (*FILTERED, "source"),
        f"""
        WITH m AS ({_MATCHES}), w AS (
            SELECT p.game_id, p.source, sum(p.points) AS points
            FROM {{seat_points}} p JOIN {{seats}} s USING (game_id, seat)
            WHERE s.won AND NOT s.neutral GROUP BY ALL
        ), t AS (SELECT game_id, sum(points) AS total FROM w GROUP BY game_id)
        SELECT {_DIMS}, w.source, count(*) AS matches, sum(w.points / t.total) AS share,
               sum(pow(w.points / t.total, 2)) AS share_squares
        FROM m JOIN w USING (game_id) JOIN t USING (game_id) WHERE t.total > 0 GROUP BY ALL
        """,
    ),
    # The winner without one source: matches where it changes (a match counts once a source).
    "decisive": (
        (*FILTERED, "source"),
        f"""
        WITH m AS ({_MATCHES}), pts AS (
            SELECT p.game_id, p.seat, p.source, p.points, s.won, s.neutral
            FROM {{seat_points}} p JOIN {{seats}} s USING (game_id, seat)
            WHERE p.game_id IN (SELECT game_id FROM m)
        ), without AS (
            SELECT game_id, source, won, neutral,
                   sum(points) OVER (PARTITION BY game_id, seat) - points AS rest
            FROM pts
        ), judged AS (
            SELECT game_id, source, won, rest,
                   max(rest) FILTER (WHERE NOT neutral) OVER (PARTITION BY game_id, source) AS top
            FROM without WHERE NOT neutral
        )
        SELECT {_DIMS}, j.source, count(DISTINCT j.game_id) AS matches,
               count(DISTINCT j.game_id) FILTER (
                   WHERE (j.won AND j.rest < j.top) OR (NOT j.won AND j.rest = j.top)
               ) AS winner_changes
        FROM judged j JOIN m USING (game_id) GROUP BY ALL
        """,
    ),
    # Each disc's progress at each round's end, winners apart.
    "progress": (
        (*FILTERED, "round", "track", "won"),
        f"""
        WITH m AS ({_MATCHES})
        SELECT {_DIMS}, p.round, p.track, s.won, count(*) AS seats,
               count(p.progress) AS measured, sum(p.progress) AS progress
        FROM m JOIN {{round_progress}} p USING (game_id)
        JOIN {{seats}} s ON s.game_id = p.game_id AND s.player = p.player
        WHERE NOT s.neutral GROUP BY ALL
        """,
    ),
    # Each track's leader at each round's end: how often it went on to win, lead changes.
    "leaders": (
        (*FILTERED, "track", "round"),
        f"""
        WITH m AS ({_MATCHES})
        SELECT {_DIMS}, l.track, l.round, count(*) AS matches,
               count(*) FILTER (WHERE s.won) AS leader_wins,
               count(*) FILTER (WHERE l.changed) AS lead_changes
        FROM m JOIN {{track_leaders}} l USING (game_id)
        JOIN {{seats}} s ON s.game_id = l.game_id AND s.player = l.leader
        GROUP BY ALL
        """,
    ),
    # Components taken, each event: how early in the round and how the takers fared.
    "items": (
        (*FILTERED, "action", "item"),
        f"""
        WITH m AS ({_MATCHES})
        SELECT {_DIMS}, i.action, i.item, count(*) AS taken, count(i.position) AS placed,
               sum(i.position) AS position, count(*) FILTER (WHERE i.position <= 2) AS early,
               count(*) FILTER (WHERE s.won) AS wins
        FROM m JOIN {{item_events}} i USING (game_id)
        JOIN {{seats}} s ON s.game_id = i.game_id AND s.player = i.player
        WHERE NOT s.neutral GROUP BY ALL
        """,
    ),
    # Components taken, each seat that took one: how many times, from which round.
    "components": (
        (*FILTERED, "action", "item"),
        f"""
        WITH m AS ({_MATCHES}), took AS (
            SELECT game_id, player, action, item, count(*) AS times, min(round) AS first_round
            FROM {{item_events}} GROUP BY ALL
        )
        SELECT {_DIMS}, t.action, t.item, sum(t.times) AS taken, count(*) AS seats,
               count(t.first_round) AS rounded, sum(t.first_round) AS first_round,
               count(*) FILTER (WHERE s.won) AS wins
        FROM m JOIN took t USING (game_id)
        JOIN {{seats}} s ON s.game_id = t.game_id AND s.player = t.player
        WHERE NOT s.neutral GROUP BY ALL
        """,
    ),
    # A name's components (the player page, which no filter narrows but leaves experiments
    # out): the bot or the player.
    "name_items": (
        ("game", "experiment", "name", "action", "item"),
        f"""
        WITH m AS ({_MATCHES}), took AS (
            SELECT game_id, player, action, item, count(*) AS times
            FROM {{item_events}} GROUP BY ALL
        )
        SELECT m.game, m.experiment, coalesce(s.agent, s.player) AS name, t.action, t.item,
               sum(t.times) AS taken, count(*) AS seats, count(*) FILTER (WHERE s.won) AS wins
        FROM m JOIN took t USING (game_id)
        JOIN {{seats}} s ON s.game_id = t.game_id AND s.player = t.player
        WHERE NOT s.neutral GROUP BY ALL
        """,
    ),
    # Head to head: against each other name at the same table, who finished ahead.
    "opponents": (
        ("game", "experiment", "name", "opponent"),
        f"""
        WITH m AS ({_MATCHES})
        SELECT m.game, m.experiment, coalesce(me.agent, me.player) AS name,
               coalesce(o.agent, o.player) AS opponent, count(DISTINCT me.game_id) AS matches,
               count(*) FILTER (WHERE me.rank < o.rank) AS ahead,
               count(*) FILTER (WHERE me.rank > o.rank) AS behind,
               count(*) FILTER (WHERE me.rank = o.rank) AS level
        FROM m JOIN {{seats}} me USING (game_id)
        JOIN {{seats}} o ON o.game_id = me.game_id AND o.seat != me.seat
        WHERE NOT me.neutral AND NOT o.neutral GROUP BY ALL
        """,
    ),
}
# The tables the summaries are derived from.
SOURCES = ("games", "seats", "seat_points", "round_progress", "track_leaders", "item_events")


def file_name(summary: str) -> str:
    return f"summary_{summary}.v{VERSION}.parquet"


def sql(summary: str, tables: Mapping[str, str]) -> str:
    """The summary's SQL over the named relations (a table name each, or a subquery)."""
    return SUMMARIES[summary][1].format(**{t: tables.get(t, t) for t in SOURCES})


def summarise(tables: Mapping[str, pa.Table]) -> dict[str, pa.Table]:
    """Every summary of one batch of matches, from its tables' rows."""
    # One thread: a worker process replays beside others, one a core.
    con = duckdb.connect(config={"threads": 1})
    try:
        con.execute("SET TimeZone = 'UTC'")
        for name in SOURCES:
            con.register(name, tables[name])
        return {name: _whole(con.sql(sql(name, {})).to_arrow_table()) for name in SUMMARIES}
    finally:
        con.close()


def _whole(rows: pa.Table) -> pa.Table:
    """Sums as 64-bit integers (DuckDB sums into 128 bits, which Arrow holds as decimals)."""
    schema = pa.schema(
        [pa.field(f.name, pa.int64()) if pa.types.is_decimal(f.type) else f for f in rows.schema]
    )
    return rows.cast(schema)


def added(con: duckdb.DuckDBPyConnection, summary: str, relation: str) -> pa.Table:
    """Rows of a summary (from several parts) summed by its keys: what one part would hold."""
    keys = SUMMARIES[summary][0]
    found = con.sql(f"SELECT * FROM {relation} LIMIT 0")
    columns = {c: str(kind) for c, kind in zip(found.columns, found.types) if c not in keys}
    grouped = ", ".join(keys)
    # Counts and whole sums stay whole; a sum of shares stays a fraction.
    sums = ", ".join(
        f"sum({c}) AS {c}" if kind == "DOUBLE" else f"sum({c})::BIGINT AS {c}"
        for c, kind in columns.items()
    )
    summed = con.sql(f"SELECT {grouped}, {sums} FROM {relation} GROUP BY ALL")
    return _whole(summed.to_arrow_table())


def merged(summaries: list[dict[str, pa.Table]]) -> dict[str, pa.Table]:
    """The summaries of several parts as one part's: summed by their keys."""
    con = duckdb.connect(config={"threads": 1})
    try:
        out = {}
        for name in SUMMARIES:
            con.register("stacked", pa.concat_tables([s[name] for s in summaries]))
            out[name] = added(con, name, "stacked")
            con.unregister("stacked")
        return out
    finally:
        con.close()


def missing(part: Path) -> bool:
    """Whether a part of the older format lacks this version's summaries."""
    return any(not (part / file_name(n)).exists() for n in SUMMARIES)
