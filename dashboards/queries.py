"""Named SQL the pages run, with bound parameters (`?`), never formatted values. The filter
clause each takes comes from `Filters.where`, built from fixed column names."""

from __future__ import annotations

MATCH_LIST = """
SELECT g.game_id, g.game, g.variant, g.player_count, g.complete,
       coalesce(g.played_at, g.ingested_at) AS played, g.source,
       string_agg(s.player, ', ' ORDER BY s.seat) AS players
FROM games g JOIN seats s USING (game_id)
WHERE (? IS NULL OR g.game = ?)
  AND (? = '' OR g.game_id ILIKE '%' || ? || '%')
  AND CAST(coalesce(g.played_at, g.ingested_at) AS DATE) BETWEEN ? AND ?
GROUP BY ALL
HAVING ? = '' OR bool_or(s.player ILIKE '%' || ? || '%')
ORDER BY played DESC, g.game_id
LIMIT 500
"""

MATCH_HEADER = "SELECT game, header FROM games WHERE game_id = ?"

MATCH_PAYLOADS = "SELECT payload FROM events WHERE game_id = ? ORDER BY event_index"

DATE_RANGE = """
SELECT min(CAST(coalesce(played_at, ingested_at) AS DATE)),
       max(CAST(coalesce(played_at, ingested_at) AS DATE))
FROM games
"""

FILTER_CHOICES = """
SELECT DISTINCT game, variant, ruleset_key, player_count FROM games WHERE complete
ORDER BY ALL
"""

# --- scoring sources -------------------------------------------------------------------------

POINTS_BY_SOURCE = """
SELECT game_id, seat, player, agent, won, player_count, source, position, points
FROM points_by_source WHERE NOT neutral AND {where}
"""

# The winner without one source: does it change? A match counts once per source.
DECISIVE_SOURCES = """
WITH totals AS (
    SELECT game_id, seat, neutral, sum(points) AS total
    FROM points_by_source WHERE {where} GROUP BY ALL
), without AS (
    SELECT p.game_id, p.source, p.seat, p.won, p.neutral, t.total - p.points AS rest
    FROM points_by_source p JOIN totals t USING (game_id, seat)
    WHERE {where_p}
), best AS (
    SELECT game_id, source, max(rest) AS top FROM without WHERE NOT neutral GROUP BY ALL
)
SELECT source, count(*) AS matches, count(*) FILTER (WHERE changed) AS winner_changes
FROM (
    SELECT w.game_id, w.source,
           bool_or((w.won AND w.rest < b.top) OR (NOT w.won AND w.rest = b.top)) AS changed
    FROM without w JOIN best b USING (game_id, source)
    WHERE NOT w.neutral
    GROUP BY ALL
)
GROUP BY ALL
"""

# --- track races -----------------------------------------------------------------------------

MATCH_TRACK_MOVES = """
SELECT event_index, round, player, track, progress_before, progress_after, cause
FROM track_moves WHERE game_id = ? ORDER BY event_index
"""

MATCH_SEATS = "SELECT seat, player, won, score, neutral FROM seats WHERE game_id = ? ORDER BY seat"

# Each disc's progress at the end of each round (before a reset): rounds without a move carry
# the last value forward, or 0 after a reset. `{matches}` picks the matches.
_PROGRESS_GRID = """
WITH chosen AS ({matches}), ends AS (
    SELECT game_id, player, track, round,
           arg_max(CASE WHEN cause = 'reset' THEN progress_before ELSE progress_after END,
                   event_index * 2 + (cause != 'reset')::INTEGER) AS progress,
           bool_or(cause = 'reset') AS reset_after,
           max(event_index) FILTER (WHERE cause != 'reset') AS arrived
    FROM track_moves WHERE game_id IN (SELECT game_id FROM chosen)
    GROUP BY ALL
), grid AS (
    SELECT r.game_id, r.player, r.won, t.track, n.round
    FROM seat_results r
    CROSS JOIN (SELECT DISTINCT track FROM ends) t
    CROSS JOIN (SELECT DISTINCT round FROM ends) n
    WHERE NOT r.neutral AND r.game_id IN (SELECT game_id FROM chosen)
), progress AS (
    SELECT g.game_id, g.player, g.won, g.track, g.round,
           CASE WHEN e.progress IS NULL OR (e.reset_after AND e.round < g.round) THEN 0
                ELSE e.progress END AS progress,
           coalesce(e.arrived, 0) AS arrived
    FROM grid g ASOF LEFT JOIN ends e
      ON g.game_id = e.game_id AND g.player = e.player AND g.track = e.track
     AND g.round >= e.round
)
"""

ROUND_END_PROGRESS = _PROGRESS_GRID.replace(
    "{matches}", "SELECT game_id FROM seat_results WHERE {where}") + """
SELECT round, track, won, avg(progress) AS mean_progress, count(*) AS seats
FROM progress GROUP BY ALL ORDER BY track, round, won
"""

# The leader of each track at each round's end (ties: the later arrival), latest matches.
ROUND_LEADERS = _PROGRESS_GRID.replace(
    "{matches}", "SELECT game_id FROM seat_results WHERE {where} "
                 "GROUP BY game_id ORDER BY max(played_at) DESC NULLS LAST LIMIT 2000") + """
SELECT game_id, track, round,
       arg_max(player, progress * 100000 + arrived) AS leader,
       arg_max(won, progress * 100000 + arrived) AS leader_won,
       max(progress) AS top
FROM progress GROUP BY ALL HAVING max(progress) > 0
ORDER BY game_id, track, round
"""

# --- win rates -------------------------------------------------------------------------------

WIN_RATES = """
SELECT {dimension} AS value, count(*) AS matches, count(*) FILTER (WHERE won) AS wins
FROM seat_results WHERE NOT neutral AND {where}
GROUP BY ALL ORDER BY value
"""

# --- balance ---------------------------------------------------------------------------------

SEAT_TABLE = """
SELECT player_count, seat, count(*) AS matches, count(*) FILTER (WHERE won) AS wins
FROM seat_results WHERE NOT neutral AND {where}
GROUP BY ALL ORDER BY player_count, seat
"""

# Knight Academy draft: each pick with its position in the seat's round (1 = first pick).
CARD_PICKS = """
WITH picks AS (
    SELECT e.game_id, e.round, e.player, e.kind,
           json_extract_string(e.payload, '$.card') AS card,
           row_number() OVER (PARTITION BY e.game_id, e.round, e.player, e.kind
                              ORDER BY e.event_index) AS position
    FROM events e
    WHERE e.kind IN ('pick', 'play') AND e.game_id IN (
        SELECT game_id FROM games WHERE game = 'knight-academy' AND complete AND {where})
)
SELECT p.card, split_part(p.card, '-', 1) AS card_type,
       TRY_CAST(split_part(p.card, '-', 2) AS INTEGER) AS value,
       count(*) FILTER (WHERE p.kind = 'pick') AS picks,
       avg(p.position) FILTER (WHERE p.kind = 'pick') AS mean_pick_position,
       avg((p.position <= 2)::INTEGER) FILTER (WHERE p.kind = 'pick') AS early_pick_rate,
       avg(r.won::INTEGER) FILTER (WHERE p.kind = 'pick') AS win_rate_when_picked,
       count(*) FILTER (WHERE p.kind = 'play') AS plays,
       avg(r.won::INTEGER) FILTER (WHERE p.kind = 'play') AS win_rate_when_played
FROM picks p JOIN seat_results r ON r.game_id = p.game_id AND r.player = p.player
WHERE NOT r.neutral
GROUP BY ALL ORDER BY card_type, value DESC
"""

# Each source's share of winners' points (by absolute size: penalties count as a share too).
SOURCE_SHARE_OF_WINNERS = """
WITH sums AS (
    SELECT ruleset_key, source, position, sum(points) AS points, count(DISTINCT game_id) AS n
    FROM points_by_source WHERE won AND NOT neutral AND {where}
    GROUP BY ruleset_key, source, position
)
SELECT ruleset_key, source, points / n AS mean_points,
       abs(points) / sum(abs(points)) OVER (PARTITION BY ruleset_key) AS share
FROM sums ORDER BY ruleset_key, position
"""

RULESET_SUMMARY = """
SELECT ruleset_key, agent, count(*) AS seats, count(*) FILTER (WHERE won) AS wins,
       avg(score) AS mean_score
FROM seat_results WHERE NOT neutral AND {where}
GROUP BY ALL ORDER BY ruleset_key, agent
"""
