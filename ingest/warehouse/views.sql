-- Views over the warehouse tables, for the dashboards and anyone's SQL (docs/warehouse.md).

-- One row per seat of a complete match, with what the match was.
CREATE OR REPLACE VIEW seat_results AS
SELECT g.game, g.variant, g.ruleset, g.ruleset_key, g.player_count, g.played_at, g.source,
       g.experiment, g.arm, s.*
FROM seats s JOIN games g USING (game_id)
WHERE g.complete;

-- Win rate by seat position, per game, variant, rule set and player count (neutral left out).
CREATE OR REPLACE VIEW win_rate_by_seat AS
SELECT game, variant, ruleset_key, player_count, seat,
       count(*) AS matches, count(*) FILTER (WHERE won) AS wins, avg(won::INTEGER) AS win_rate
FROM seat_results WHERE NOT neutral
GROUP BY ALL;

-- Win rate by bot (simulated seats only).
CREATE OR REPLACE VIEW win_rate_by_agent AS
SELECT game, variant, ruleset_key, player_count, agent,
       count(*) AS seats, count(*) FILTER (WHERE won) AS wins, avg(won::INTEGER) AS win_rate
FROM seat_results WHERE agent IS NOT NULL AND NOT neutral
GROUP BY ALL;

-- Points each seat took from each of its game's scoring sources in each complete match,
-- zeros included (a distribution needs them); seat_points is filled at ingest.
CREATE OR REPLACE VIEW points_by_source AS
SELECT r.game, r.variant, r.ruleset_key, r.player_count, r.played_at, r.experiment, r.arm,
       r.game_id, r.seat, r.player, r.agent, r.neutral, r.won, p.source, src.position, p.points
FROM seat_results r
JOIN seat_points p USING (game_id, seat)
JOIN sources src ON src.game = r.game AND src.source = p.source;

-- Each stored experiment (`squire experiment`): its arms as stored, and what its run recorded
-- (experiment_results: the metric, A − B with its 95% interval, the matches played, why it
-- stopped). One stored by a squire that recorded none reads NULL there, `recorded` false.
CREATE OR REPLACE VIEW experiments AS
WITH arms AS (
    SELECT game, experiment,
           count(*) FILTER (WHERE arm = 'a') AS stored_a,
           count(*) FILTER (WHERE arm = 'b') AS stored_b,
           any_value(ruleset_key) FILTER (WHERE arm = 'a') AS rules_a,
           any_value(ruleset_key) FILTER (WHERE arm = 'b') AS rules_b
    FROM games WHERE experiment IS NOT NULL
    GROUP BY game, experiment
)
SELECT arms.*, r.experiment IS NOT NULL AS recorded, r.* EXCLUDE (experiment, game)
FROM arms LEFT JOIN experiment_results r ON r.experiment = arms.experiment;
