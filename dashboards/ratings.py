"""The ratings on the pages: a game's leaderboard under the filters, a name's rating over time,
and links to a player's page (ingest.ratings rates the matches)."""

from __future__ import annotations

from urllib.parse import quote

import polars as pl
import streamlit as st

from dashboards.data import Filters, query, signature
from dashboards.i18n import t
from ingest.ratings import SEATS, Z, leaderboard, rate

STORED = "SELECT * FROM ratings WHERE game = $game ORDER BY played_at, game_id"


@st.cache_data(ttl=600, show_spinner=False, max_entries=32)
def _rated(sql: str, params: tuple[tuple[str, object], ...], signature_: str) -> pl.DataFrame:
    seats = query(sql, dict(params))
    return rate(seats.with_columns(pl.col("played_at").dt.convert_time_zone("UTC")))


# Narrowed filters rate again over the matches they leave, up to this many (about 65 µs a
# match); beyond, the page shows the ratings over all matches and says so.
RERATE = 20_000
COUNT = "SELECT count(*) AS matches FROM games g WHERE g.complete AND {where}"


def history(flt: Filters) -> tuple[pl.DataFrame, bool]:
    """The game's ratings match by match, and whether they are over all its matches: as
    stored, or rated afresh over the matches the filters leave (a narrower field rates
    differently) where those are few enough to rate while the page waits."""
    narrowed = flt.narrowed
    clause, params = flt.where("g")
    if narrowed:
        count = query(COUNT.replace("{where}", clause), params)["matches"][0]
        narrowed = count <= RERATE
    if not narrowed:
        stored = query(STORED, {"game": flt.game})
        if not stored.is_empty():
            return stored, True
    rated = _rated(SEATS.replace("{where}", clause), tuple(sorted(params.items())), signature())
    return rated, not narrowed


def page_of(name: str) -> str:
    return f"/player?name={quote(name)}"


def board(flt: Filters) -> tuple[pl.DataFrame, bool]:
    """The leaderboard, each name with a link to its page; whether over all the matches."""
    rated, whole = history(flt)
    table = leaderboard(rated, flt.game or "")
    return table.with_columns(
        pl.col("kind").replace_strict({"bot": t("bot"), "player": t("player")}),
        pl.col("name").map_elements(page_of, return_dtype=pl.String).alias("page"),
    ), whole


def over_time(history: pl.DataFrame, name: str) -> pl.DataFrame:
    """One name's rating after each of its matches, with its 95% interval."""
    return (
        history.filter(pl.col("name") == name)
        .select(
            "game",
            "game_id",
            "played_at",
            pl.col("mu").alias("rating"),
            (pl.col("mu") - Z * pl.col("sigma")).alias("low"),
            (pl.col("mu") + Z * pl.col("sigma")).alias("high"),
        )
        .sort("played_at", "game_id")
    )
