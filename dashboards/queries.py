"""Named SQL the pages run, with named bound parameters (`$game_id`), never formatted values.
The filter clause each takes at `{where}` comes from `Filters.where`, built from fixed column
names, with parameters of its own (`$filter_…`)."""

from __future__ import annotations

from datetime import date

# The latest 500 matches that fit, chosen from `games` before their seats are joined: a join
# first would group every seat of the warehouse to show 500 of them.
MATCH_LIST = """
WITH named AS (
    SELECT DISTINCT game_id FROM seats
    WHERE $player <> '' AND player ILIKE '%' || $player || '%'
), chosen AS (
    SELECT game_id, game, variant, player_count, complete,
           coalesce(played_at, ingested_at) AS played, source
    FROM games
    WHERE ($game IS NULL OR game = $game)
      AND ($id_contains = '' OR game_id ILIKE '%' || $id_contains || '%')
      AND CAST(coalesce(played_at, ingested_at) AS DATE) BETWEEN $first AND $last
      AND ($player = '' OR game_id IN (SELECT game_id FROM named))
      AND ((experiment IS NULL AND list_contains($origins, origin))
           OR ($experiments AND experiment IS NOT NULL))
    ORDER BY played DESC, game_id LIMIT 500
)
SELECT c.*, string_agg(s.player, ', ' ORDER BY s.seat) AS player_names
FROM chosen c JOIN seats s USING (game_id)
WHERE s.game_id BETWEEN (SELECT min(game_id) FROM chosen) AND (SELECT max(game_id) FROM chosen)
GROUP BY ALL ORDER BY played DESC, c.game_id
"""
# Every match played, people's and simulations'; an experiment's (`squire experiment`) only
# when asked for.
ANY_MATCH = {
    "game": None,
    "id_contains": "",
    "first": date.min,
    "last": date.max,
    "player": "",
    "origins": ["human", "bot"],
    "experiments": False,
}

# The match the viewer opens when none is asked for: the latest played (an experiment's
# only when nothing else is stored), the first id among those played then. Two aggregates,
# not a sort: at a million matches 18 ms instead of 38.
LATEST_MATCH = """
WITH latest AS (
    SELECT arg_max(coalesce(played_at, ingested_at), (experiment IS NULL,
                   coalesce(played_at, ingested_at))) AS played,
           bool_or(experiment IS NULL) AS played_any
    FROM games
)
SELECT min(game_id) AS game_id FROM games, latest
WHERE coalesce(played_at, ingested_at) = latest.played
  AND (experiment IS NULL OR NOT latest.played_any)
"""

MATCH_HEADER = "SELECT game, header FROM games WHERE game_id = $game_id"

MATCH_PAYLOADS = "SELECT payload FROM events WHERE game_id = $game_id ORDER BY event_index"

FILTER_CHOICES = """
SELECT DISTINCT game, variant, ruleset_key, player_count FROM summary_matches
WHERE experiment IS NULL ORDER BY ALL
"""

# --- scoring sources -------------------------------------------------------------------------

# Points by source for winners and the rest: means and the five numbers of a box plot, from
# how many seats took each number of points (ingest.warehouse.summaries); the quartiles interpolate
# between the two seats around them, as quantile_cont does.
SOURCE_SUMMARY = """
WITH h AS (
    SELECT h.source, src.position, h.won, h.points, sum(h.seats) AS n
    FROM (SELECT * FROM summary_points WHERE {where}) h
    JOIN sources src ON src.game = h.game AND src.source = h.source
    GROUP BY ALL HAVING sum(h.seats) > 0
), c AS (
    SELECT *, sum(n) OVER (PARTITION BY source, position, won ORDER BY points) AS upto,
           sum(n) OVER (PARTITION BY source, position, won) - 1 AS last
    FROM h
), q AS (
    SELECT source, position, won, any_value(last) + 1 AS seats, sum(points * n) / sum(n) AS mean,
           min(points) AS low, max(points) AS high,
           min(points) FILTER (WHERE upto > floor(0.25 * last)) AS q1_lo,
           min(points) FILTER (WHERE upto > ceil(0.25 * last)) AS q1_hi,
           min(points) FILTER (WHERE upto > floor(0.5 * last)) AS q2_lo,
           min(points) FILTER (WHERE upto > ceil(0.5 * last)) AS q2_hi,
           min(points) FILTER (WHERE upto > floor(0.75 * last)) AS q3_lo,
           min(points) FILTER (WHERE upto > ceil(0.75 * last)) AS q3_hi
    FROM c GROUP BY source, position, won
)
SELECT source, position, won, seats::BIGINT AS seats, mean, low,
       q1_lo + (0.25 * (seats - 1) - floor(0.25 * (seats - 1))) * (q1_hi - q1_lo) AS q1,
       q2_lo + (0.5 * (seats - 1) - floor(0.5 * (seats - 1))) * (q2_hi - q2_lo) AS median,
       q3_lo + (0.75 * (seats - 1) - floor(0.75 * (seats - 1))) * (q3_hi - q3_lo) AS q3,
       high
FROM q ORDER BY position, won DESC
"""

# Mean points by source for each value of a fixed grouping column ({by}), and of how many
# seats (a source only some rule sets score is averaged over the seats under those).
SOURCE_MEANS_BY = """
WITH p AS (
    SELECT {by} AS value, game, source, points, seats
    FROM summary_source_points WHERE {where}
)
SELECT value, p.source, src.position, sum(points) / sum(seats) AS mean,
       sum(seats)::BIGINT AS seats
FROM p JOIN sources src ON src.game = p.game AND src.source = p.source
GROUP BY ALL HAVING sum(seats) > 0 ORDER BY value, position
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
SELECT source, sum(matches)::BIGINT AS matches, sum(winner_changes)::BIGINT AS winner_changes
FROM summary_decisive WHERE {where} GROUP BY ALL
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
SELECT round, track, won, sum(progress) / sum(measured) AS mean_progress,
       sum(seats)::BIGINT AS seats
FROM summary_progress WHERE {where}
GROUP BY ALL ORDER BY track, round, won
"""

# The leader of each track at each round's end (track_leaders is filled at ingest): how often
# that leader went on to win, and how often the lead changed hands.
ROUND_LEADERS = """
SELECT track, round, sum(leader_wins) / sum(matches) AS winner_leads_share,
       sum(lead_changes)::BIGINT AS lead_changes, sum(matches)::BIGINT AS matches,
       sum(leader_wins)::BIGINT AS leader_wins
FROM summary_leaders WHERE {where}
GROUP BY ALL ORDER BY track, round
"""

# --- win rates -------------------------------------------------------------------------------

WIN_RATES = """
SELECT {dimension} AS value, sum(seats)::BIGINT AS seats, sum(wins)::BIGINT AS wins,
       sum(tie_breaks)::BIGINT AS tie_breaks
FROM summary_seats WHERE {where}
GROUP BY ALL ORDER BY value
"""

# --- balance ---------------------------------------------------------------------------------

SEAT_TABLE = """
SELECT player_count, position AS seat, sum(seats)::BIGINT AS matches,
       sum(wins)::BIGINT AS wins, sum(tie_breaks)::BIGINT AS tie_breaks
FROM summary_seats WHERE {where}
GROUP BY ALL ORDER BY player_count, seat
"""

# Components taken, by item: how early, how often, and how the seats that took them fared
# (item_events is filled at ingest; position 1 = a seat's first pick of the round).
ITEMS = """
WITH i AS (
    SELECT action, item, sum(taken) AS taken, sum(placed) AS placed,
           sum(position) AS position, sum(early) AS early, sum(wins) AS wins
    FROM summary_items WHERE {where} GROUP BY ALL
)
SELECT item, split_part(item, '-', 1) AS item_type,
       TRY_CAST(split_part(item, '-', 2) AS INTEGER) AS value,
       coalesce(sum(taken) FILTER (WHERE action = $pick), 0)::BIGINT AS picks,
       sum(position) FILTER (WHERE action = $pick)
           / sum(placed) FILTER (WHERE action = $pick) AS mean_pick_position,
       sum(early) FILTER (WHERE action = $pick)
           / sum(placed) FILTER (WHERE action = $pick) AS early_pick_rate,
       sum(wins) FILTER (WHERE action = $pick)
           / sum(taken) FILTER (WHERE action = $pick) AS win_rate_when_picked,
       coalesce(sum(taken) FILTER (WHERE action = $play), 0)::BIGINT AS plays,
       sum(wins) FILTER (WHERE action = $play)
           / sum(taken) FILTER (WHERE action = $play) AS win_rate_when_played,
       coalesce(sum(early) FILTER (WHERE action = $pick), 0)::BIGINT AS early_picks,
       coalesce(sum(wins) FILTER (WHERE action = $pick), 0)::BIGINT AS wins_when_picked,
       coalesce(sum(wins) FILTER (WHERE action = $play), 0)::BIGINT AS wins_when_played
FROM i GROUP BY item ORDER BY item_type, value DESC
"""

# Any game's components (item_events: cards, tiles, homework, squares): per seat that took one,
# how many times, from which round, and how those seats fared.
COMPONENTS = """
SELECT action, item, sum(taken)::BIGINT AS taken, sum(seats)::BIGINT AS seats,
       sum(first_round) / sum(rounded) AS mean_first_round,
       sum(wins) / sum(seats) AS win_rate_of_takers, sum(wins)::BIGINT AS wins
FROM summary_components WHERE {where}
GROUP BY ALL ORDER BY action, win_rate_of_takers DESC, item
"""

# Each source's share of the winners' points, the mean over matches of the share in each (the
# experiment metric `source_share`): signed, so a penalty is a negative share.
# Half the 95% interval of a mean (normal, from the values' sum and sum of squares over n):
# none of fewer than two values (nor of summaries without the squares: `greatest` would
# read a missing sum as 0).
MEAN_HALF = """CASE WHEN matches > 1 AND squares IS NOT NULL THEN 1.959964 * sqrt(
    greatest(squares - share * share / matches, 0) / (matches - 1) / matches) END"""
SOURCE_SHARE_OF_WINNERS = """
WITH w AS (
    SELECT game, ruleset_key, source, share, share_squares, matches
    FROM summary_winner_shares WHERE {where}
), sums AS (
    SELECT w.ruleset_key, w.source, src.position, sum(w.share) AS share,
           sum(w.share_squares) AS squares, sum(w.matches)::BIGINT AS matches
    FROM w JOIN sources src ON src.game = w.game AND src.source = w.source GROUP BY ALL
), points AS (
    SELECT ruleset_key, source, sum(points) AS points FROM summary_source_points
    WHERE won AND {where} GROUP BY ALL
), won AS (
    SELECT ruleset_key, sum(won_matches) AS n FROM summary_matches WHERE {where} GROUP BY ALL
)
SELECT ruleset_key, source, points / n AS mean_points, share / matches AS share, matches,
       share / matches - {MEAN_HALF} AS interval_low, share / matches + {MEAN_HALF} AS interval_high
FROM sums JOIN points USING (ruleset_key, source) JOIN won USING (ruleset_key)
ORDER BY ruleset_key, position
""".replace("{MEAN_HALF}", MEAN_HALF)

RULESET_SUMMARY = """
SELECT ruleset_key, agent, sum(seats)::BIGINT AS seats, sum(wins)::BIGINT AS wins,
       sum(score) / sum(scored) AS mean_score
FROM summary_seats WHERE {where}
GROUP BY ALL ORDER BY ruleset_key, agent
"""

# --- what the overview and the filters ask -----------------------------------------------------

HAS_MATCHES = "SELECT count(*) AS n FROM games"

# Each game's matches and the days of its first and latest (every page's date filter spans
# them). A day follows from its time, so the extremes are cast, not every row: at a million
# matches 12 ms instead of 34.
GAME_TOTALS = """
SELECT game, count(*) FILTER (WHERE experiment IS NULL) AS matches,
       count(*) FILTER (WHERE complete AND experiment IS NULL) AS complete,
       count(*) FILTER (WHERE experiment IS NULL AND origin = 'human') AS human,
       count(*) FILTER (WHERE experiment IS NULL AND origin = 'bot') AS bot,
       count(*) FILTER (WHERE experiment IS NOT NULL) AS experiment_matches,
       CAST(min(coalesce(played_at, ingested_at)) AS DATE) AS first,
       CAST(max(coalesce(played_at, ingested_at)) AS DATE) AS last
FROM games GROUP BY game ORDER BY game
"""

# The experiments stored for a game, for the statistics' choice of where matches come from.
EXPERIMENT_IDS = """
SELECT DISTINCT experiment FROM summary_matches
WHERE game = $game AND experiment IS NOT NULL ORDER BY experiment
"""

# The experiments stored for a game (`squire experiment`), an arm a row.
EXPERIMENTS_OF_GAME = """
SELECT experiment, arm, any_value(ruleset_key) AS rules, count(*) AS matches
FROM games WHERE game = $game AND experiment IS NOT NULL GROUP BY ALL ORDER BY 1, 2
"""
# What each stored experiment measured and why it stopped (the warehouse's `experiments`
# view: NULL where an older squire recorded none).
EXPERIMENT_RESULTS = "SELECT * FROM experiments WHERE game = $game ORDER BY experiment"

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
FROM chosen c JOIN seats s USING (game_id)
WHERE s.game_id BETWEEN (SELECT min(game_id) FROM chosen) AND (SELECT max(game_id) FROM chosen)
GROUP BY c.game_id
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
SELECT DISTINCT coalesce(agent, player) AS name FROM summary_seats ORDER BY name
"""

# A name's latest matches, chosen before the tables' players are joined to them, among the
# matches `{among}` names: every complete one, or RECENT. A name that plays most matches (a
# bot) has its latest 500 among the latest few thousand, and finding them there spares
# joining millions of seats.
PLAYER_MATCHES = """
WITH among AS ({among}), mine AS (
    SELECT g.game_id, g.game, g.played_at, g.player_count, s.player AS seat_name,
           s.position + 1 AS seat, s.score, s.rank, s.won
    FROM among g JOIN seats s USING (game_id)
    WHERE coalesce(s.agent, s.player) = $name AND NOT s.neutral
      AND s.game_id BETWEEN (SELECT min(game_id) FROM among) AND (SELECT max(game_id) FROM among)
    ORDER BY g.played_at DESC, g.game_id LIMIT 500
), tables AS (
    SELECT game_id, string_agg(player, ', ' ORDER BY seat) AS players FROM seats
    WHERE game_id IN (SELECT game_id FROM mine)
      AND game_id BETWEEN (SELECT min(game_id) FROM mine) AND (SELECT max(game_id) FROM mine)
    GROUP BY game_id
)
SELECT m.*, t.players FROM mine m JOIN tables t USING (game_id)
ORDER BY m.played_at DESC, m.game_id, m.seat
"""
# A name's matches played (an experiment's are designs under changed rules, kept apart).
EVERY = (
    "SELECT game_id, game, played_at, player_count FROM games WHERE complete AND experiment IS NULL"
)
RECENT = f"{EVERY} ORDER BY played_at DESC, game_id LIMIT 5000"

PLAYER_RESULTS = """
SELECT game, player_count, position + 1 AS seat, sum(seats)::BIGINT AS seats,
       sum(wins)::BIGINT AS wins, sum(wins) / sum(seats) AS win_rate
FROM summary_seats WHERE coalesce(agent, player) = $name AND experiment IS NULL
GROUP BY ALL ORDER BY game, player_count, seat
"""

# A name's mean points from each source beside the mean of every winning seat of that game.
PLAYER_SOURCES = """
WITH mine AS (
    SELECT game, source, sum(points) / sum(seats) AS mean_points
    FROM summary_source_points
    WHERE coalesce(agent, player) = $name AND experiment IS NULL GROUP BY ALL
), winners AS (
    SELECT game, source, sum(points) / sum(seats) AS winners_mean
    FROM summary_source_points
    WHERE won AND experiment IS NULL AND game IN (SELECT game FROM mine) GROUP BY ALL
)
SELECT m.game, m.source, m.mean_points, w.winners_mean
FROM mine m JOIN winners w USING (game, source)
JOIN sources src ON src.game = m.game AND src.source = m.source
ORDER BY m.game, src.position
"""

PLAYER_ITEMS = """
SELECT game, action, item, sum(taken)::BIGINT AS taken, sum(seats)::BIGINT AS seats,
       sum(wins) / sum(seats) AS win_rate_of_takers, sum(wins)::BIGINT AS wins
FROM summary_name_items WHERE name = $name AND experiment IS NULL
GROUP BY ALL ORDER BY taken DESC, game, item LIMIT 20
"""

# Head to head: against each other name at the same table, who finished ahead (a bot seated
# twice at a table meets itself there: not an opponent).
PLAYER_OPPONENTS = """
SELECT opponent, sum(matches)::BIGINT AS matches, sum(ahead)::BIGINT AS ahead,
       sum(behind)::BIGINT AS behind, sum(level)::BIGINT AS level
FROM summary_opponents WHERE name = $name AND opponent <> name AND experiment IS NULL
GROUP BY ALL ORDER BY matches DESC, opponent LIMIT 15
"""
