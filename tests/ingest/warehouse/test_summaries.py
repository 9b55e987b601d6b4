"""The summaries (ingest.warehouse.summaries) answer every statistics question exactly as the
rows do: under every filter, after a compaction, for a warehouse of the older format converted,
and for a batch whose matches were partly stored already."""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from dashboards import queries
from dashboards.data import Filters
from ingest.pipeline.pipeline import ingest
from ingest.warehouse import store, summaries
from ingest.warehouse.compact import compact
from ingest.warehouse.warehouse import open_reader
from replay.registry import GAMES
from tests.ingest.warehouse.older import as_parts

ROOT = Path(__file__).parents[3]
SAMPLES = ROOT / "data" / "samples"

# The questions as asked of the rows, before summaries: what each summary must answer alike.
ROWS = {
    "PLAYER_MATCHES": """
SELECT r.game_id, r.game, r.played_at, r.player_count, r.player AS seat_name,
       r.position + 1 AS seat, r.score, r.rank, r.won,
       (SELECT string_agg(o.player, ', ' ORDER BY o.seat) FROM seats o
        WHERE o.game_id = r.game_id) AS players
FROM seat_results r
WHERE coalesce(r.agent, r.player) = $name AND NOT r.neutral AND r.experiment IS NULL
ORDER BY r.played_at DESC, r.game_id LIMIT 500
""",
    "MATCH_LIST": """
SELECT g.game_id, g.game, g.variant, g.player_count, g.complete,
       coalesce(g.played_at, g.ingested_at) AS played, g.source,
       string_agg(s.player, ', ' ORDER BY s.seat) AS player_names
FROM games g JOIN seats s USING (game_id)
WHERE ($game IS NULL OR g.game = $game)
  AND ($id_contains = '' OR g.game_id ILIKE '%' || $id_contains || '%')
  AND CAST(coalesce(g.played_at, g.ingested_at) AS DATE) BETWEEN $first AND $last
  AND ((g.experiment IS NULL AND list_contains($origins, g.origin))
       OR ($experiments AND g.experiment IS NOT NULL))
GROUP BY ALL
HAVING $player = '' OR bool_or(s.player ILIKE '%' || $player || '%')
ORDER BY played DESC, g.game_id
LIMIT 500
""",
    "SOURCE_SUMMARY": """
SELECT source, position, won, count(*) AS seats, avg(points) AS mean,
       min(points) AS low, quantile_cont(points, 0.25) AS q1, median(points) AS median,
       quantile_cont(points, 0.75) AS q3, max(points) AS high
FROM points_by_source WHERE NOT neutral AND {where}
GROUP BY ALL ORDER BY position, won DESC
""",
    "SOURCE_MEANS_BY": """
SELECT {by} AS value, source, position, avg(points) AS mean, count(*) AS seats
FROM points_by_source WHERE NOT neutral AND {where}
GROUP BY ALL ORDER BY value, position
""",
    "DECISIVE_SOURCES": """
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
""",
    "ROUND_END_PROGRESS": """
SELECT p.round, p.track, r.won, avg(p.progress) AS mean_progress, count(*) AS seats
FROM round_progress p
JOIN seat_results r ON r.game_id = p.game_id AND r.player = p.player
WHERE NOT r.neutral AND {where}
GROUP BY ALL ORDER BY p.track, p.round, r.won
""",
    "ROUND_LEADERS": """
SELECT l.track, l.round, avg(r.won::INTEGER) AS winner_leads_share,
       count(*) FILTER (WHERE l.changed) AS lead_changes, count(*) AS matches,
       count(*) FILTER (WHERE r.won) AS leader_wins
FROM track_leaders l
JOIN seat_results r ON r.game_id = l.game_id AND r.player = l.leader
WHERE {where}
GROUP BY ALL ORDER BY l.track, l.round
""",
    "WIN_RATES": """
SELECT {dimension} AS value, count(*) AS seats, count(*) FILTER (WHERE won) AS wins,
       count(*) FILTER (WHERE tie_break) AS tie_breaks
FROM seat_results WHERE NOT neutral AND {where}
GROUP BY ALL ORDER BY value
""",
    "SEAT_TABLE": """
SELECT player_count, position AS seat, count(*) AS matches,
       count(*) FILTER (WHERE won) AS wins, count(*) FILTER (WHERE tie_break) AS tie_breaks
FROM seat_results WHERE NOT neutral AND {where}
GROUP BY ALL ORDER BY player_count, seat
""",
    "ITEMS": """
SELECT i.item, split_part(i.item, '-', 1) AS item_type,
       TRY_CAST(split_part(i.item, '-', 2) AS INTEGER) AS value,
       count(*) FILTER (WHERE i.action = $pick) AS picks,
       avg(i.position) FILTER (WHERE i.action = $pick) AS mean_pick_position,
       avg((i.position <= 2)::INTEGER) FILTER (WHERE i.action = $pick) AS early_pick_rate,
       avg(r.won::INTEGER) FILTER (WHERE i.action = $pick) AS win_rate_when_picked,
       count(*) FILTER (WHERE i.action = $play) AS plays,
       avg(r.won::INTEGER) FILTER (WHERE i.action = $play) AS win_rate_when_played,
       count(*) FILTER (WHERE i.action = $pick AND i.position <= 2) AS early_picks,
       count(*) FILTER (WHERE i.action = $pick AND r.won) AS wins_when_picked,
       count(*) FILTER (WHERE i.action = $play AND r.won) AS wins_when_played
FROM item_events i
JOIN seat_results r ON r.game_id = i.game_id AND r.player = i.player
WHERE NOT r.neutral AND {where}
GROUP BY ALL ORDER BY item_type, value DESC
""",
    "COMPONENTS": """
WITH took AS (
    SELECT game_id, player, action, item, count(*) AS times, min(round) AS first_round
    FROM item_events GROUP BY ALL
)
SELECT t.action, t.item, sum(t.times) AS taken, count(*) AS seats,
       avg(t.first_round) AS mean_first_round, avg(r.won::INTEGER) AS win_rate_of_takers,
       count(*) FILTER (WHERE r.won) AS wins
FROM took t JOIN seat_results r ON r.game_id = t.game_id AND r.player = t.player
WHERE NOT r.neutral AND {where}
GROUP BY ALL ORDER BY t.action, win_rate_of_takers DESC, t.item
""",
    "SOURCE_SHARE_OF_WINNERS": """
WITH w AS (
    SELECT game_id, ruleset_key, source, position, sum(points) AS points
    FROM points_by_source WHERE won AND NOT neutral AND {where} GROUP BY ALL
), t AS (
    SELECT game_id, sum(points) AS total FROM w GROUP BY game_id
), n AS (
    SELECT ruleset_key, count(DISTINCT game_id) AS n FROM w GROUP BY ALL
)
SELECT ruleset_key, source, sum(w.points) / any_value(n.n) AS mean_points,
       avg(w.points / t.total) FILTER (WHERE t.total > 0) AS share,
       count(*) FILTER (WHERE t.total > 0) AS matches,
       share - 1.959964 * stddev_samp(w.points / t.total) FILTER (WHERE t.total > 0)
           / sqrt(matches) AS interval_low,
       share + 1.959964 * stddev_samp(w.points / t.total) FILTER (WHERE t.total > 0)
           / sqrt(matches) AS interval_high
FROM w JOIN t USING (game_id) JOIN n USING (ruleset_key)
GROUP BY ruleset_key, source, position HAVING count(*) FILTER (WHERE t.total > 0) > 0
ORDER BY ruleset_key, position
""",
    "RULESET_SUMMARY": """
SELECT ruleset_key, agent, count(*) AS seats, count(*) FILTER (WHERE won) AS wins,
       avg(score) AS mean_score
FROM seat_results WHERE NOT neutral AND {where}
GROUP BY ALL ORDER BY ruleset_key, agent
""",
    "FILTER_CHOICES": """
SELECT DISTINCT game, variant, ruleset_key, player_count FROM games WHERE complete
ORDER BY ALL
""",
    "PLAYER_NAMES": """
SELECT DISTINCT coalesce(agent, player) AS name FROM seat_results WHERE NOT neutral ORDER BY name
""",
    "PLAYER_RESULTS": """
SELECT game, player_count, position + 1 AS seat, count(*) AS seats,
       count(*) FILTER (WHERE won) AS wins, avg(won::INTEGER) AS win_rate
FROM seat_results
WHERE coalesce(agent, player) = $name AND NOT neutral AND experiment IS NULL
GROUP BY ALL ORDER BY game, player_count, seat
""",
    "PLAYER_SOURCES": """
WITH mine AS (
    SELECT game, source, any_value(position) AS position, avg(points) AS mean_points
    FROM points_by_source
    WHERE coalesce(agent, player) = $name AND NOT neutral AND experiment IS NULL
    GROUP BY ALL
), winners AS (
    SELECT game, source, avg(points) AS winners_mean
    FROM points_by_source
    WHERE won AND NOT neutral AND experiment IS NULL AND game IN (SELECT game FROM mine)
    GROUP BY ALL
)
SELECT m.game, m.source, m.mean_points, w.winners_mean
FROM mine m JOIN winners w USING (game, source) ORDER BY m.game, m.position
""",
    "PLAYER_ITEMS": """
WITH took AS (
    SELECT i.game_id, i.player, i.action, i.item, count(*) AS times
    FROM item_events i GROUP BY ALL
)
SELECT r.game, t.action, t.item, sum(t.times) AS taken, count(*) AS seats,
       avg(r.won::INTEGER) AS win_rate_of_takers, count(*) FILTER (WHERE r.won) AS wins
FROM took t JOIN seat_results r ON r.game_id = t.game_id AND r.player = t.player
WHERE coalesce(r.agent, r.player) = $name AND NOT r.neutral AND r.experiment IS NULL
GROUP BY ALL ORDER BY taken DESC, r.game, t.item LIMIT 20
""",
    "PLAYER_OPPONENTS": """
SELECT coalesce(o.agent, o.player) AS opponent, count(DISTINCT me.game_id) AS matches,
       count(*) FILTER (WHERE me.rank < o.rank) AS ahead,
       count(*) FILTER (WHERE me.rank > o.rank) AS behind,
       count(*) FILTER (WHERE me.rank = o.rank) AS level
FROM seat_results me JOIN seat_results o ON o.game_id = me.game_id AND o.seat != me.seat
WHERE coalesce(me.agent, me.player) = $name AND NOT me.neutral AND NOT o.neutral
  AND me.experiment IS NULL AND coalesce(o.agent, o.player) <> $name
GROUP BY ALL ORDER BY matches DESC, opponent LIMIT 15
""",
}

DIMENSIONS = [
    "position + 1",
    "CASE WHEN start_player THEN 'yes' ELSE 'no' END",
    "player",
    "coalesce(agent, '—')",
    "player_count",
    "ruleset_key",
]
GROUPS = ["coalesce(agent, '—')", "player_count", "player"]


def asked(name: str, flt: Filters) -> list[tuple[str, str, dict[str, object]]]:
    """The question `name` in each of its forms, as summaries and as rows, with its values."""
    clause, params = flt.where()
    params = {**params, "pick": "pick", "play": "play"}
    mine, rows = getattr(queries, name), ROWS[name]
    forms = {"WIN_RATES": ("{dimension}", DIMENSIONS), "SOURCE_MEANS_BY": ("{by}", GROUPS)}
    slot, values = forms.get(name, ("", [""]))
    out = []
    for value in values:
        a, b = (
            (q.replace(slot, value) if slot else q).replace("{where}", clause) for q in (mine, rows)
        )
        out.append((a, b, {k: v for k, v in params.items() if f"${k}" in a + b}))
    return out


def answers(
    con: duckdb.DuckDBPyConnection, flt: Filters, name: str
) -> list[tuple[pl.DataFrame, pl.DataFrame]]:
    return [(con.sql(a, params=p).pl(), con.sql(b, params=p).pl()) for a, b, p in asked(name, flt)]


def same(found: pl.DataFrame, expected: pl.DataFrame, name: str) -> None:
    assert found.columns == expected.columns, name
    # in any order: the rows' ORDER BY leaves ties (sources of two games at one position),
    # and the summaries' ORDER BY is theirs, word for word
    found, expected = found.sort(found.columns), expected.sort(expected.columns)
    assert_frame_equal(found, expected, check_dtypes=False, abs_tol=1e-9, rel_tol=1e-9)


NOT_SUMMED = ["MATCH_LIST", "PLAYER_MATCHES"]
PER_NAME = ["PLAYER_RESULTS", "PLAYER_SOURCES", "PLAYER_ITEMS", "PLAYER_OPPONENTS"]
FILTERED = [n for n in ROWS if n not in PER_NAME + NOT_SUMMED]


def every_filter(db: Path) -> list[Filters]:
    con = open_reader(db)
    (days,) = con.sql("SELECT min(played_at)::DATE, max(played_at)::DATE FROM games").fetchall()
    con.close()
    middle = days[0] + (days[1] - days[0]) / 2
    out = []
    for i, game in enumerate(sorted(GAMES)):  # each game whole, then narrowed another way
        narrowed = [
            Filters(game=game, player_counts=[3], dates=(middle, date.max)),
            Filters(game=game, variants=["base"], dates=(days[0], middle)),
        ]
        out += [Filters(game=game), narrowed[i % 2]]
    return [*out, Filters()]


@pytest.fixture
def warehouse(sample_parts) -> Path:
    """The samples, one game at a time: several parts, every game (read, never changed)."""
    return sample_parts


def check_all(db: Path, filters: list[Filters]) -> int:
    """Compare every question under every filter (and per name); how many answers had rows."""
    answered = 0
    con = open_reader(db)
    for flt in filters:
        for name in FILTERED:
            for found, expected in answers(con, flt, name):
                same(found, expected, name)
                answered += not expected.is_empty()
    names = [r[0] for r in con.sql(ROWS["PLAYER_NAMES"]).fetchall()]
    for player in names[:6]:
        for name in PER_NAME:
            found = con.sql(getattr(queries, name), params={"name": player}).pl()
            expected = con.sql(ROWS[name], params={"name": player}).pl()
            same(found, expected, name)
            answered += not expected.is_empty()
    con.close()
    return answered


def test_summaries_answer_as_the_rows_do(warehouse):
    filters = every_filter(warehouse)
    assert check_all(warehouse, filters) > 6 * len(filters)


def test_the_box_plot_quartiles_are_exact():
    """Hand-made: points 1, 2, 2, 7 from one source. quantile_cont puts q1 at index 0.75
    (1 + 0.75 * (2 - 1) = 1.75), the median at 1.5 (2), q3 at 2.25 (2 + 0.25 * 5 = 3.25)."""
    import duckdb

    con = duckdb.connect()
    con.execute(
        "CREATE TABLE summary_points AS SELECT * FROM (VALUES ('g', 'a', true, 1, 1), "
        "('g', 'a', true, 2, 2), ('g', 'a', true, 7, 1)) t(game, source, won, points, seats)"
    )
    con.execute("CREATE TABLE sources AS SELECT 'g' AS game, 'a' AS source, 0 AS position")
    (row,) = con.sql(queries.SOURCE_SUMMARY.replace("{where}", "TRUE")).fetchall()
    assert row == ("a", 0, True, 4, 3.0, 1, 1.75, 2.0, 3.25, 7)


def test_a_compacted_warehouse_answers_as_its_rows_do(warehouse, tmp_path):
    db = tmp_path / "warehouse"
    shutil.copytree(warehouse, db)
    assert compact(db).summaries == len(summaries.SUMMARIES)  # each summed by its keys
    check_all(db, every_filter(db)[::6])


def test_a_warehouse_of_parts_is_converted_on_first_open_and_answers_alike(warehouse, tmp_path):
    """The older format, parts with their summaries (some without: written before them),
    and a merged part beside the two it replaced: converted when first opened, every table
    counted, and every question answered as before."""
    old = tmp_path / "old"
    counts = as_parts(warehouse, old)
    first = sorted((old / "parts").iterdir())[0]
    for name in summaries.SUMMARIES:  # as a part written before summaries existed
        (first / summaries.file_name(name)).unlink()
    filters = every_filter(warehouse)[1::6]
    con = open_reader(old)
    assert {t: con.sql(f"SELECT count(*) FROM {t}").fetchall()[0][0] for t in counts} == counts
    con.close()
    assert not (old / "parts").exists() and store.exists(old)
    assert json.loads((old / "meta.json").read_text()) == {"schema_version": 3}
    assert check_all(old, filters) == check_all(warehouse, filters)


def test_a_batch_partly_stored_before_is_summarised_for_its_new_matches(tmp_path):
    db = tmp_path / "warehouse"
    game = SAMPLES / "knight-academy"
    logs = sorted(game.iterdir())
    first = tmp_path / "first"
    first.mkdir()
    for log in logs[::2]:
        shutil.copy(log, first / log.name)
    ingest([first], db=db, jobs=1)
    ingest([game], db=db, jobs=1)  # half of each batch is stored already
    check_all(db, [Filters(game="knight-academy"), Filters()])


def test_the_match_list_chooses_its_matches_before_it_joins_their_seats(warehouse):
    con = open_reader(warehouse)
    for sought in (
        queries.ANY_MATCH,
        {**queries.ANY_MATCH, "player": "an"},
        {**queries.ANY_MATCH, "game": "heraldry", "id_contains": "1"},
        {**queries.ANY_MATCH, "first": date(2026, 10, 1), "player": "dee"},
    ):
        found = con.sql(queries.MATCH_LIST, params=sought).pl()
        assert found.equals(con.sql(ROWS["MATCH_LIST"], params=sought).pl())
        assert not found.is_empty()
    con.close()


def test_a_names_latest_matches_are_chosen_before_their_tables_are_joined(warehouse):
    con = open_reader(warehouse)
    every = queries.PLAYER_MATCHES.replace("{among}", queries.EVERY)
    for name in ("Ann", "Cid", "Eve", "Gawain"):  # fewer than the 500 shown: no ties cut
        found = con.sql(every, params={"name": name}).pl()
        same(found, con.sql(ROWS["PLAYER_MATCHES"], params={"name": name}).pl(), name)
    recent = queries.PLAYER_MATCHES.replace("{among}", queries.RECENT.replace("5000", "900"))
    for name in ("greedy", "random"):  # the latest 500 are among the latest 900 matches
        found = con.sql(recent, params={"name": name}).pl()
        assert found.height == 500 and found.equals(con.sql(every, params={"name": name}).pl())
    con.close()
