"""The ratings on the pages: a game's leaderboard under the filters, a name's rating over time,
and links to a player's page (ingest.analyses.ratings rates the matches)."""

from __future__ import annotations

from urllib.parse import quote

import polars as pl
import streamlit as st

from dashboards.data import Filters, query, signature
from dashboards.i18n import t
from dashboards.stats import with_wilson
from ingest.analyses.ratings import SEATS, Z, leaderboard, rank, rate

# The stored leaderboard, reckoned where the ratings are (a million matches rate four million
# seats): as ingest.analyses.ratings.leaderboard reckons it from a history.
LEADERBOARD = """
SELECT name, arg_max(kind, (played_at, game_id)) AS kind,
       arg_max(mu, (played_at, game_id)) AS rating, arg_max(sigma, (played_at, game_id)) AS sigma,
       count(*) AS matches, count(*) FILTER (WHERE wins > 0) / count(*) AS win_rate
FROM ratings WHERE game = $game GROUP BY name
"""
# A name's ratings over time, thinned to about POINTS a game (a bot may have a million; a
# chart shows no more), its last match always kept.
POINTS = 2_000
ONE_NAME = f"""
WITH mine AS (
    SELECT *, row_number() OVER (PARTITION BY game ORDER BY played_at, game_id) AS i,
           count(*) OVER (PARTITION BY game) AS n
    FROM ratings WHERE name = $name
)
SELECT * EXCLUDE (i, n), i AS nth, n AS rated FROM mine
WHERE i % greatest(1, n // {POINTS}) = 0 OR i = n
ORDER BY played_at, game_id
"""


@st.cache_data(ttl=600, show_spinner=False, max_entries=32)
def _rated(sql: str, params: tuple[tuple[str, object], ...], signature_: str) -> pl.DataFrame:
    seats = query(sql, dict(params))
    return rate(seats.with_columns(pl.col("played_at").dt.convert_time_zone("UTC")))


# Narrowed filters rate again over the matches they leave, up to this many (about 65 µs a
# match); beyond, the page shows the ratings over all matches and says so.
RERATE = 20_000
COUNT = "SELECT coalesce(sum(matches), 0) AS matches FROM summary_matches g WHERE {where}"


def board_of(flt: Filters) -> tuple[pl.DataFrame, bool]:
    """The game's leaderboard, and whether it is over all its matches: as stored, or rated
    afresh over the matches the filters leave (a narrower field rates differently) where
    those are few enough to rate while the page waits."""
    narrowed = flt.narrowed
    clause, params = flt.where("g")
    if narrowed:
        count = query(COUNT.replace("{where}", clause), params)["matches"][0]
        narrowed = count <= RERATE
    if not narrowed:
        stored = query(LEADERBOARD, {"game": flt.game})
        if not stored.is_empty():
            return rank(stored), True
    rated = _rated(SEATS.replace("{where}", clause), tuple(sorted(params.items())), signature())
    return leaderboard(rated, flt.game or ""), not narrowed


def page_of(name: str) -> str:
    return f"/player?name={quote(name)}"


def board(flt: Filters) -> tuple[pl.DataFrame, bool]:
    """The leaderboard, each name with a link to its page; whether over all the matches. The
    rating's interval and the win rate's (of its matches) are named apart: neither is read
    as the other's."""
    table, whole = board_of(flt)
    table = table.with_columns(
        pl.col("kind").replace_strict({"bot": t("bot"), "player": t("player")}),
        pl.col("name").map_elements(page_of, return_dtype=pl.String).alias("page"),
        # the share of its matches it won, so this many of them
        (pl.col("win_rate") * pl.col("matches")).round().cast(pl.Int64).alias("won"),
    ).rename({"low": "rating_low", "high": "rating_high"})
    table = with_wilson(table, "won", "matches", "win_rate_low", "win_rate_high")
    return table.select(
        "name",
        "kind",
        "rating",
        "rating_low",
        "rating_high",
        "matches",
        "win_rate",
        "win_rate_low",
        "win_rate_high",
        "provisional",
        "page",
    ), whole


def over_time(history: pl.DataFrame, name: str) -> pl.DataFrame:
    """One name's rating after each of its matches (ONE_NAME: some of them, each with its
    number among the name's matches of the game, and their count), with its 95% interval."""
    return (
        history.filter(pl.col("name") == name)
        .select(
            "game",
            "game_id",
            "played_at",
            "nth",
            "rated",
            pl.col("mu").alias("rating"),
            (pl.col("mu") - Z * pl.col("sigma")).alias("rating_low"),
            (pl.col("mu") + Z * pl.col("sigma")).alias("rating_high"),
        )
        .sort("played_at", "game_id")
    )
