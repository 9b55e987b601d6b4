"""Named SQL the pages run, with named bound parameters (`$game_id`), never formatted values.
The filter clause each takes at `{where}` comes from `Filters.where`, built from fixed column
names, with parameters of its own (`$filter_…`)."""

from __future__ import annotations

from datetime import date

MATCH_LIST = """
SELECT g.game_id, g.game, g.variant, g.player_count, g.complete,
       coalesce(g.played_at, g.ingested_at) AS played, g.source,
       string_agg(s.player, ', ' ORDER BY s.seat) AS player_names
FROM games g JOIN seats s USING (game_id)
WHERE ($game IS NULL OR g.game = $game)
  AND ($id_contains = '' OR g.game_id ILIKE '%' || $id_contains || '%')
  AND CAST(coalesce(g.played_at, g.ingested_at) AS DATE) BETWEEN $first AND $last
GROUP BY ALL
HAVING $player = '' OR bool_or(s.player ILIKE '%' || $player || '%')
ORDER BY played DESC, g.game_id
LIMIT 500
"""
ANY_MATCH = {"game": None, "id_contains": "", "first": date.min, "last": date.max, "player": ""}

MATCH_HEADER = "SELECT game, header FROM games WHERE game_id = $game_id"

MATCH_PAYLOADS = "SELECT payload FROM events WHERE game_id = $game_id ORDER BY event_index"

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

# Points by source for winners and the rest: means and the five numbers of a box plot.
SOURCE_SUMMARY = """
SELECT source, position, won, count(*) AS seats, avg(points) AS mean,
       min(points) AS low, quantile_cont(points, 0.25) AS q1, median(points) AS median,
       quantile_cont(points, 0.75) AS q3, max(points) AS high
FROM points_by_source WHERE NOT neutral AND {where}
GROUP BY ALL ORDER BY position, won DESC
"""

# Mean points by source for each value of a fixed grouping column ({by}).
SOURCE_MEANS_BY = """
SELECT {by} AS value, source, position, avg(points) AS mean
FROM points_by_source WHERE NOT neutral AND {where}
GROUP BY ALL ORDER BY value, position
"""

MATCH_POINTS = """
SELECT player, source, position, points FROM points_by_source
WHERE game_id = $game_id ORDER BY seat, position
"""

LATEST_MATCHES = """
SELECT game_id FROM games WHERE complete AND {where}
ORDER BY coalesce(played_at, ingested_at) DESC, game_id DESC LIMIT 200
"""

# The winner without one source: does it change? A match counts once per source.
DECISIVE_SOURCES = """
WITH pts AS (
    SELECT p.game_id, p.seat, p.source, p.points, r.won, r.neutral
    FROM seat_points p JOIN seat_results r USING (game_id, seat)
    WHERE {where}
), without AS (
    SELECT game_id, source, won, neutral,
           sum(points) OVER (PARTITION BY game_id, seat) - points AS rest
    FROM pts
), judged AS (
    SELECT game_id, source, won, rest,
           max(rest) FILTER (WHERE NOT neutral) OVER (PARTITION BY game_id, source) AS top
    FROM without WHERE NOT neutral
)
SELECT source, count(DISTINCT game_id) AS matches,
       count(DISTINCT game_id) FILTER (
           WHERE (won AND rest < top) OR (NOT won AND rest = top)) AS winner_changes
FROM judged GROUP BY ALL
"""

# --- track races -----------------------------------------------------------------------------

MATCH_TRACK_MOVES = """
SELECT event_index, round, player, track, progress_before, progress_after, cause
FROM track_moves WHERE game_id = $game_id ORDER BY event_index
"""

MATCH_SEATS = (
    "SELECT seat, player, won, score, neutral FROM seats WHERE game_id = $game_id ORDER BY seat"
)

# Each disc's progress at the end of each round (round_progress is filled at ingest).
ROUND_END_PROGRESS = """
SELECT p.round, p.track, r.won, avg(p.progress) AS mean_progress, count(*) AS seats
FROM round_progress p
JOIN seat_results r ON r.game_id = p.game_id AND r.player = p.player
WHERE NOT r.neutral AND {where}
GROUP BY ALL ORDER BY p.track, p.round, r.won
"""

# The leader of each track at each round's end (track_leaders is filled at ingest): how often
# that leader went on to win, and how often the lead changed hands.
ROUND_LEADERS = """
SELECT l.track, l.round, avg(r.won::INTEGER) AS winner_leads_share,
       count(*) FILTER (WHERE l.changed) AS lead_changes, count(*) AS matches
FROM track_leaders l
JOIN seat_results r ON r.game_id = l.game_id AND r.player = l.leader
WHERE {where}
GROUP BY ALL ORDER BY l.track, l.round
"""

# --- win rates -------------------------------------------------------------------------------

WIN_RATES = """
SELECT {dimension} AS value, count(*) AS matches, count(*) FILTER (WHERE won) AS wins,
       count(*) FILTER (WHERE tie_break) AS tie_breaks
FROM seat_results WHERE NOT neutral AND {where}
GROUP BY ALL ORDER BY value
"""

# --- balance ---------------------------------------------------------------------------------

SEAT_TABLE = """
SELECT player_count, position AS seat, count(*) AS matches,
       count(*) FILTER (WHERE won) AS wins, count(*) FILTER (WHERE tie_break) AS tie_breaks
FROM seat_results WHERE NOT neutral AND {where}
GROUP BY ALL ORDER BY player_count, seat
"""

# Components taken, by item: how early, how often, and how the seats that took them fared
# (item_events is filled at ingest; position 1 = a seat's first pick of the round).
ITEMS = """
SELECT i.item, split_part(i.item, '-', 1) AS item_type,
       TRY_CAST(split_part(i.item, '-', 2) AS INTEGER) AS value,
       count(*) FILTER (WHERE i.action = $pick) AS picks,
       avg(i.position) FILTER (WHERE i.action = $pick) AS mean_pick_position,
       avg((i.position <= 2)::INTEGER) FILTER (WHERE i.action = $pick) AS early_pick_rate,
       avg(r.won::INTEGER) FILTER (WHERE i.action = $pick) AS win_rate_when_picked,
       count(*) FILTER (WHERE i.action = $play) AS plays,
       avg(r.won::INTEGER) FILTER (WHERE i.action = $play) AS win_rate_when_played
FROM item_events i
JOIN seat_results r ON r.game_id = i.game_id AND r.player = i.player
WHERE NOT r.neutral AND {where}
GROUP BY ALL ORDER BY item_type, value DESC
"""

# Any game's components (item_events: cards, tiles, homework, squares): per seat that took one,
# how many times, from which round, and how those seats fared.
COMPONENTS = """
WITH took AS (
    SELECT game_id, player, action, item, count(*) AS times, min(round) AS first_round
    FROM item_events GROUP BY ALL
)
SELECT t.action, t.item, sum(t.times) AS taken, count(*) AS seats,
       avg(t.first_round) AS mean_first_round, avg(r.won::INTEGER) AS win_rate_of_takers
FROM took t JOIN seat_results r ON r.game_id = t.game_id AND r.player = t.player
WHERE NOT r.neutral AND {where}
GROUP BY ALL ORDER BY t.action, win_rate_of_takers DESC, t.item
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

# --- what the overview and the filters ask -----------------------------------------------------

HAS_MATCHES = "SELECT count(*) AS n FROM games"

GAME_TOTALS = """
SELECT game, count(*) AS matches, sum(complete::INTEGER) AS complete,
       min(CAST(coalesce(played_at, ingested_at) AS DATE)) AS first,
       max(CAST(coalesce(played_at, ingested_at) AS DATE)) AS last
FROM games GROUP BY game ORDER BY game
"""

# The experiments stored for a game (`squire experiment`), an arm a row.
EXPERIMENTS_OF_GAME = """
SELECT experiment, arm, any_value(ruleset_key) AS rules, count(*) AS matches
FROM games WHERE game = $game AND experiment IS NOT NULL GROUP BY ALL ORDER BY 1, 2
"""

RULESETS_OF_GAME = (
    "SELECT DISTINCT variant, ruleset_key FROM games WHERE game = $game ORDER BY ruleset_key, "
    "variant <> 'base', variant"
)

# The latest complete matches under the filters, to replay (the draft's hate-drafts): their
# headers, the players who could win and the winners; then their event lines.
LATEST_MATCHES_SEATED = """
WITH chosen AS (
    SELECT game_id, header, played_at FROM games WHERE complete AND {where}
    ORDER BY played_at DESC, game_id LIMIT $limit
)
SELECT c.game_id, any_value(c.header) AS header,
       list(s.player) FILTER (WHERE NOT s.neutral) AS seated,
       list(s.player) FILTER (WHERE s.won) AS winners
FROM chosen c JOIN seats s USING (game_id) GROUP BY c.game_id
"""
# The range lets a reader skip the parts and row groups that cannot hold any of the ids (their
# game_id statistics): a correlated look-up per match read the whole table each time.
EVENT_LINES = """
SELECT game_id, list(payload ORDER BY event_index) AS payloads FROM events
WHERE game_id BETWEEN $low AND $high AND game_id IN (SELECT unnest($ids))
GROUP BY game_id
"""

# --- a player's page: every name rated, the bot a seat was or else its player -------------

PLAYER_NAMES = """
SELECT DISTINCT coalesce(agent, player) AS name FROM seat_results WHERE NOT neutral ORDER BY name
"""

PLAYER_MATCHES = """
SELECT r.game_id, r.game, r.played_at, r.player_count, r.player AS seat_name,
       r.position + 1 AS seat, r.score, r.rank, r.won,
       (SELECT string_agg(o.player, ', ' ORDER BY o.seat) FROM seats o
        WHERE o.game_id = r.game_id) AS players
FROM seat_results r
WHERE coalesce(r.agent, r.player) = $name AND NOT r.neutral
ORDER BY r.played_at DESC, r.game_id LIMIT 500
"""

PLAYER_RESULTS = """
SELECT game, player_count, position + 1 AS seat, count(*) AS seats,
       count(*) FILTER (WHERE won) AS wins, avg(won::INTEGER) AS win_rate
FROM seat_results WHERE coalesce(agent, player) = $name AND NOT neutral
GROUP BY ALL ORDER BY game, player_count, seat
"""

# A name's mean points from each source beside the mean of every winning seat of that game.
PLAYER_SOURCES = """
WITH mine AS (
    SELECT game, source, any_value(position) AS position, avg(points) AS mean_points
    FROM points_by_source WHERE coalesce(agent, player) = $name AND NOT neutral
    GROUP BY ALL
), winners AS (
    SELECT game, source, avg(points) AS winners_mean
    FROM points_by_source WHERE won AND NOT neutral AND game IN (SELECT game FROM mine)
    GROUP BY ALL
)
SELECT m.game, m.source, m.mean_points, w.winners_mean
FROM mine m JOIN winners w USING (game, source) ORDER BY m.game, m.position
"""

PLAYER_ITEMS = """
WITH took AS (
    SELECT i.game_id, i.player, i.action, i.item, count(*) AS times
    FROM item_events i GROUP BY ALL
)
SELECT r.game, t.action, t.item, sum(t.times) AS taken, count(*) AS seats,
       avg(r.won::INTEGER) AS win_rate_of_takers
FROM took t JOIN seat_results r ON r.game_id = t.game_id AND r.player = t.player
WHERE coalesce(r.agent, r.player) = $name AND NOT r.neutral
GROUP BY ALL ORDER BY taken DESC, r.game, t.item LIMIT 20
"""

# Head to head: against each other name at the same table, who finished ahead.
PLAYER_OPPONENTS = """
SELECT coalesce(o.agent, o.player) AS opponent, count(DISTINCT me.game_id) AS matches,
       count(*) FILTER (WHERE me.rank < o.rank) AS ahead,
       count(*) FILTER (WHERE me.rank > o.rank) AS behind,
       count(*) FILTER (WHERE me.rank = o.rank) AS level
FROM seat_results me JOIN seat_results o ON o.game_id = me.game_id AND o.seat != me.seat
WHERE coalesce(me.agent, me.player) = $name AND NOT me.neutral AND NOT o.neutral
GROUP BY ALL ORDER BY matches DESC, opponent LIMIT 15
"""
