"""Where a page shows a rate it shows its n and its 95% interval: the n as the rows count it,
the interval Wilson's of the counts shown."""

from __future__ import annotations

import pandas as pd
import polars as pl
import pytest

from dashboards.i18n import every_label
from dashboards.stats import wilson, with_wilson

from . import test_pages as pages

LABELS = every_label()  # the shared words and every game's own

app, sql = pages.app, pages.sql  # the pages' fixture, and SQL on the warehouse


def _frame(at, *columns: str) -> pd.DataFrame:
    """The one table shown whose columns include `columns`."""
    [frame] = [d.value for d in at.dataframe if set(columns) <= set(d.value.columns)]
    return frame


def _assert_wilson(hits, n, low, high) -> None:
    expected = [wilson(h, k) for h, k in zip(hits, n, strict=True)]
    assert list(low) == pytest.approx([b[0] for b in expected])
    assert list(high) == pytest.approx([b[1] for b in expected])


def test_the_intervals_of_a_table_are_wilsons_row_by_row_and_none_of_nothing():
    counts = [(0, 1), (1, 1), (7, 20), (500, 1000), (3, 0), (None, 4)]
    frame = with_wilson(pl.DataFrame(counts, schema=["hits", "n"], orient="row"), "hits", "n")
    shown = list(zip(frame["interval_low"], frame["interval_high"], strict=True))
    for (hits, n), (low, high) in zip(counts[:4], shown, strict=False):
        assert (low, high) == pytest.approx(wilson(hits, n), abs=1e-12)
    assert shown[4:] == [(None, None), (None, None)]  # a rate of no seats is no rate


def test_balance_shows_each_seats_matches_and_the_wilson_interval_of_its_wins(app, warehouse):
    at = app("balance")
    shown = _frame(at, "player_count", "seat", "matches", "wins", "win_rate", "interval_low")
    rows = sql(
        warehouse,
        """SELECT player_count, position + 1, count(*), count(*) FILTER (WHERE won)
        FROM seat_results WHERE NOT neutral AND game = 'knight-academy' GROUP BY 1, 2
        ORDER BY 1, 2""",
    )
    table = shown[["player_count", "seat", "matches", "wins"]]
    assert [tuple(r) for r in table.itertuples(index=False)] == rows
    _assert_wilson(shown["wins"], shown["matches"], shown["interval_low"], shown["interval_high"])
    assert shown["win_rate"].tolist() == pytest.approx((shown["wins"] / shown["matches"]).tolist())
    assert (shown["interval_low"] <= shown["win_rate"]).all()
    assert (shown["win_rate"] <= shown["interval_high"]).all()


def test_sources_decisive_table_shows_each_sources_matches_and_its_wilson_interval(app, warehouse):
    at = app("sources")
    en = {key: entry["en"] for key, entry in LABELS.items()}
    shown = _frame(at, "decisive", "interval_low").set_index("source")
    rows = sql(
        warehouse,
        """SELECT p.source, count(DISTINCT p.game_id) FROM seat_points p
        JOIN seat_results r USING (game_id, seat)
        WHERE NOT r.neutral AND r.game = 'knight-academy' GROUP BY 1""",
    )
    assert {source: n for source, n in shown["matches"].items()} == {
        en[source]: n for source, n in rows
    }
    _assert_wilson(
        shown["decisive"],
        shown["matches"],
        shown["interval_low"],
        shown["interval_high"],
    )
    assert shown["decisive"].sum() > 0  # a share of nothing but zeros would pass unseen


def test_tracks_leaders_table_shows_each_rounds_matches_and_the_wilson_interval_of_its_share(
    app, warehouse
):
    at = app("tracks")
    shown = _frame(at, "track", "round", "matches", "leader_wins", "interval_low")
    rows = sql(
        warehouse,
        """SELECT l.track, l.round, count(*), count(*) FILTER (WHERE r.won)
        FROM track_leaders l JOIN seat_results r ON r.game_id = l.game_id AND r.player = l.leader
        WHERE r.game = 'knight-academy' GROUP BY 1, 2""",
    )
    expected = {(LABELS[track]["en"], rnd): (n, won) for track, rnd, n, won in rows}
    table = shown[["track", "round", "matches", "leader_wins"]]
    assert {(track, rnd): (n, won) for track, rnd, n, won in table.itertuples(index=False)} == (
        expected
    )
    _assert_wilson(
        shown["leader_wins"], shown["matches"], shown["interval_low"], shown["interval_high"]
    )
    assert shown["winner_leads_share"].tolist() == pytest.approx(
        (shown["leader_wins"] / shown["matches"]).tolist()
    )
    # the lead changes per match are of the most matches at one round's end
    changes = _frame(at, "lead_changes_per_match").set_index("track")
    most = shown.groupby("track")["matches"].max()
    assert changes["matches"].to_dict() == most.to_dict()


def test_the_ratings_name_the_ratings_interval_apart_from_the_win_rates(app, warehouse):
    at = app("win_rates", of="heraldry")
    boards = pages._ratings(at)  # the people's, then the bots'
    assert len(boards) == 2
    for board in boards:
        assert {"rating_low", "rating_high", "win_rate_low", "win_rate_high"} <= set(board.columns)
        assert "low" not in board.columns and "high" not in board.columns
        won = (board["win_rate"] * board["matches"]).round()
        _assert_wilson(won, board["matches"], board["win_rate_low"], board["win_rate_high"])
        assert (board["rating_low"] < board["rating"]).all()


def test_a_players_results_and_components_show_their_seats_and_wilson_intervals(app, warehouse):
    at = app("player", name="greedy")
    results = _frame(at, "seat", "seats", "wins", "win_rate", "interval_low")
    rows = sql(
        warehouse,
        """SELECT count(*), count(*) FILTER (WHERE won) FROM seat_results
        WHERE agent = 'greedy' AND NOT neutral AND experiment IS NULL""",
    )
    assert (results["seats"].sum(), results["wins"].sum()) == rows[0]
    _assert_wilson(
        results["wins"], results["seats"], results["interval_low"], results["interval_high"]
    )
    taken = _frame(at, "win_rate_of_takers", "seats", "wins", "interval_low")
    _assert_wilson(taken["wins"], taken["seats"], taken["interval_low"], taken["interval_high"])
    assert taken["win_rate_of_takers"].tolist() == pytest.approx(
        (taken["wins"] / taken["seats"]).tolist()
    )


def test_balances_rule_set_sides_count_only_the_matches_chosen(app, warehouse):
    """People's matches alone: the two sides of the rule-set comparison count no bot's seat
    (the examples were played by people, the samples by bots)."""
    at = app("balance", **{"filter-origin": "human"})
    columns = {"played_by", "seats", "mean_score"}
    sides = [d.value for d in at.dataframe if columns <= set(d.value.columns)]
    people = LABELS["people_seats"]["en"]  # a person's seat is no bot's
    assert sides and all((side["played_by"] == people).all() for side in sides)
    both = app("balance")  # and with simulations too, their bots are there
    assert any(
        (side["played_by"] != people).any()
        for side in (d.value for d in both.dataframe)
        if columns <= set(side.columns)
    )
