"""The ratings on the pages: a game's leaderboard under the filters, people and bots in tables
of their own, a name's rating over time, and links to a player's page
(ingest.analyses.ratings rates the matches). Every column says what it holds in a tooltip."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import quote

import polars as pl
import streamlit as st

from dashboards.data import Filters, chosen_version, query, signature
from dashboards.i18n import t
from dashboards.stats import with_wilson
from dashboards.tables import show
from ingest.analyses.ratings import KINDS, PLAYED, SEATS, Z, leaderboard, rank, rate

# The stored leaderboard, reckoned where the ratings are (a million matches rate four million
# seats): as ingest.analyses.ratings.leaderboard reckons it from a history.
LEADERBOARD = """
SELECT name, kind,
       arg_max(mu, (played_at, game_id)) AS rating, arg_max(sigma, (played_at, game_id)) AS sigma,
       count(*) AS matches, count(*) FILTER (WHERE wins > 0) / count(*) AS win_rate
FROM ratings WHERE game = $game GROUP BY kind, name
"""
# A name's ratings over time, thinned to about POINTS a game (a bot may have a million; a
# chart shows no more), its last match always kept; a person and a bot of one name apart.
POINTS = 2_000
ONE_NAME = f"""
WITH mine AS (
    SELECT *, row_number() OVER (PARTITION BY game, kind ORDER BY played_at, game_id) AS i,
           count(*) OVER (PARTITION BY game, kind) AS n
    FROM ratings WHERE name = $name
)
SELECT * EXCLUDE (i, n), i AS nth, n AS rated FROM mine
WHERE i % greatest(1, n // {POINTS}) = 0 OR i = n
ORDER BY played_at, game_id
"""


# At an earlier version, the games the name played whose stored ratings that version cannot
# read (rated again from their start since: ingest.warehouse.warehouse.RATINGS_UPTO).
UNREAD = """
SELECT DISTINCT g.game FROM games g JOIN seats s USING (game_id)
WHERE g.complete AND g.experiment IS NULL AND NOT s.neutral
  AND coalesce(s.agent, s.player) = $name AND g.game NOT IN (SELECT DISTINCT game FROM ratings)
ORDER BY g.game
"""
GAME_MATCHES = "SELECT count(*) AS matches FROM games g WHERE g.complete AND " + PLAYED


def one_name(name: str) -> pl.DataFrame:
    """ONE_NAME's rows of `name`; at an earlier version, with those of a game rated again
    since, rated afresh over the version's matches as the leaderboards are (up to RERATE
    matches of the game)."""
    history = query(ONE_NAME, {"name": name})
    if chosen_version() is None:
        return history
    for game in query(UNREAD, {"name": name})["game"].to_list():
        if query(GAME_MATCHES, {"game": game})["matches"][0] > RERATE:
            continue
        fresh = _rated(SEATS.replace("{where}", PLAYED), (("game", game),), signature())
        mine = (
            fresh.filter(pl.col("name") == name)
            .sort("played_at", "game_id")
            .with_columns(
                (pl.int_range(pl.len()).over("kind") + 1).alias("nth"),
                pl.len().over("kind").alias("rated"),
            )
        )
        mine = mine.filter(
            (pl.col("nth") % (pl.col("rated") // POINTS).clip(lower_bound=1) == 0)
            | (pl.col("nth") == pl.col("rated"))
        )
        utc = pl.col("played_at").dt.convert_time_zone("UTC")  # DuckDB's Etc/UTC, polars' UTC
        history = pl.concat(
            [history.with_columns(utc), mine.with_columns(utc)], how="diagonal_relaxed"
        )
    return history.sort("played_at", "game_id")


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


# The leaderboard's columns, each with what it holds (a label key), for people and for bots.
COLUMNS: dict[str, str | dict[str, str]] = {
    "name": {"player": "help_person_name", "bot": "help_bot_name"},
    "rating": "help_rating",
    "rating_low": "help_rating_low",
    "rating_high": "help_rating_high",
    "matches": "help_rated_matches",
    "win_rate": "help_win_rate_of_matches",
    "win_rate_low": "help_win_rate_low",
    "win_rate_high": "help_win_rate_high",
    "provisional": "help_provisional",
    "page": "help_page",
}
# skill points, to one decimal
RATING_FORMATS = {c: "%.1f" for c in ("rating", "rating_low", "rating_high")}


def board(flt: Filters) -> tuple[pl.DataFrame, bool]:
    """The leaderboard, each with a link to its page and its kind (`player` or `bot`, as
    ingest.analyses.ratings.KINDS); whether over all the matches. The rating's interval and the
    win rate's (of its matches) are named apart: neither is read as the other's."""
    table, whole = board_of(flt)
    table = table.with_columns(
        pl.col("name").map_elements(page_of, return_dtype=pl.String).alias("page"),
        # the share of its matches it won, so this many of them
        (pl.col("win_rate") * pl.col("matches")).round().cast(pl.Int64).alias("won"),
    ).rename({"low": "rating_low", "high": "rating_high"})
    table = with_wilson(table, "won", "matches", "win_rate_low", "win_rate_high")
    return table.select("kind", *COLUMNS), whole


def apart(table: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """The leaderboard of each kind, people first: its own order (by rating, highest first)
    kept, the kind left to the table's title."""
    return {kind: table.filter(pl.col("kind") == kind).drop("kind") for kind in KINDS}


def show_board(flt: Filters) -> None:
    """The ratings' section of a page: people, then bots, in tables of their own."""
    leaders, whole = board(flt)
    st.caption(t("ratings_apart_caption"))
    # The best win rate is not always the best rating (denier's in the samples): said where
    # both stand side by side.
    st.caption(t("rating_not_win_rate"))
    if flt.narrowed and whole:  # too many matches to rate again while the page waits
        st.caption(t("ratings_all").format(most=f"{RERATE:,}"))
    for kind, table in apart(leaders).items():
        st.markdown(f"**{t('rated_people' if kind == 'player' else 'rated_bots')}**")
        if table.is_empty():
            st.caption(t("no_rated_people" if kind == "player" else "no_rated_bots"))
            continue
        helps = {c: h if isinstance(h, str) else h[kind] for c, h in COLUMNS.items()}
        explained(
            table,
            f"ratings-{'people' if kind == 'player' else 'bots'}",
            helps,
            links={"page": t("open_page")},
            formats=RATING_FORMATS,
        )


def explained(
    frame: pl.DataFrame,
    name: str,
    helps: Mapping[str, str],
    height: int | None = None,
    links: Mapping[str, str] | None = None,
    formats: Mapping[str, str] | None = None,
) -> None:
    """A table as dashboards.tables.show draws it, each header with a tooltip saying what its
    column holds (`helps`: a label key by column)."""
    show(frame, name, height=height, links=links, helps=helps, formats=formats)


def over_time(history: pl.DataFrame, name: str) -> pl.DataFrame:
    """One name's rating after each of its matches (ONE_NAME: some of them, each with its
    number among the name's matches of the game, and their count), with its 95% interval."""
    return (
        history.filter(pl.col("name") == name)
        .select(
            "game",
            "kind",
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
