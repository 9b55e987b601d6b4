"""A player's page (or a bot's): rating over time, matches, results by seat, where the points
come from, what it takes, and whom it meets. Deep link: /player?name=Ann."""

from __future__ import annotations

import plotly.graph_objects as go
import polars as pl
import streamlit as st

from dashboards import queries
from dashboards.common import PALETTE, game_label, games_named, has_matches, named, plain
from dashboards.data import query
from dashboards.i18n import t
from dashboards.ratings import COLUMNS, RATING_FORMATS, explained, one_name, over_time
from dashboards.stats import with_wilson
from dashboards.tables import show
from ingest.analyses.ratings import KINDS, PROVISIONAL

st.title(t("player_page"))
if not has_matches():
    st.stop()

names = query(queries.PLAYER_NAMES)["name"].to_list()
asked = st.query_params.get("name")
if asked and asked not in names:  # a link to a name no stored match has: said, not dropped
    st.warning(t("no_such_name").format(name=plain(asked)))
if st.session_state.get("name") not in names:
    st.session_state.pop("name", None)
# A selectbox shows its options as text, no Markdown: the names as they are, which is also
# what the address holds (`/player?name=Jean-Luc O'Brien`).
name = st.selectbox(t("player"), names, key="name", bind="query-params", index=None)
if name is None:
    st.info(t("choose_player"))
    st.stop()

# The latest matches are the latest among the recent ones when there are enough of them there
# (their order is the same), else they are sought among all.
matches = query(queries.PLAYER_MATCHES.replace("{among}", queries.RECENT), {"name": name})
if matches.height < 500:
    matches = query(queries.PLAYER_MATCHES.replace("{among}", queries.EVERY), {"name": name})

st.subheader(t("ratings"))
rated = over_time(one_name(name), name)
if rated.is_empty():
    st.caption(t("not_rated"))
else:
    # a person and a bot who share the name are rated apart: each line says whose it is
    both = rated["kind"].n_unique() > 1
    fig = go.Figure()
    lines = rated.select("game", "kind").unique(maintain_order=True).iter_rows()
    for i, (game, kind) in enumerate(lines):
        mine = rated.filter((pl.col("game") == game) & (pl.col("kind") == kind))
        if mine.is_empty():
            continue
        colour = PALETTE[i % len(PALETTE)]
        x = mine["nth"].to_list()  # its n-th rated match of the game
        fig.add_trace(
            go.Scatter(
                x=x + x[::-1],
                y=mine["rating_high"].to_list() + mine["rating_low"].to_list()[::-1],
                fill="toself",
                fillcolor=colour,
                opacity=0.15,
                line={"width": 0},
                hoverinfo="skip",
                showlegend=False,
            )
        )
        label = f"{game_label(game)} ({t(kind)})" if both else game_label(game)
        fig.add_trace(go.Scatter(x=x, y=mine["rating"], name=label, line={"color": colour}))
    fig.update_layout(
        height=300,
        margin={"t": 10, "b": 10},
        yaxis_title=t("rating"),
        xaxis_title=t("matches"),
    )
    st.plotly_chart(fig, key="rating-over-time")
    latest = rated.group_by("game", "kind", maintain_order=True).last()
    latest = latest.with_columns((pl.col("rated") < PROVISIONAL).alias("provisional"))
    latest = latest.select(
        "game",
        *(("kind",) if both else ()),
        "rating",
        "rating_low",
        "rating_high",
        pl.col("rated").alias("matches"),
        "provisional",
    )
    if both:
        latest = latest.with_columns(pl.col("kind").replace_strict({k: t(k) for k in KINDS}))
    helps = {c: h for c, h in COLUMNS.items() if isinstance(h, str)}
    explained(
        games_named(latest),
        f"rating-{name}",
        {**helps, "game": "help_rating_game", "kind": "help_kind"},
        formats=RATING_FORMATS,
    )

st.subheader(t("results_by_seat"))
st.caption(t("rates_caption"))
results = with_wilson(query(queries.PLAYER_RESULTS, {"name": name}), "wins", "seats")
show(games_named(results), f"results-{name}")

st.subheader(t("sources_vs_winners"))
sources = query(queries.PLAYER_SOURCES, {"name": name})
if not sources.is_empty():
    show(games_named(named(sources, "source")), f"sources-{name}")

st.subheader(t("taken_most"))
taken = with_wilson(query(queries.PLAYER_ITEMS, {"name": name}), "wins", "seats")
show(
    games_named(
        taken.select(
            "game",
            "action",
            "item",
            "taken",
            "seats",
            "wins",
            "win_rate_of_takers",
            "interval_low",
            "interval_high",
        )
    ),
    f"components-{name}",
)

st.subheader(t("opponents"))
explained(
    query(queries.PLAYER_OPPONENTS, {"name": name}),
    f"opponents-{name}",
    {
        "opponent": "help_opponent",
        "matches": "help_opponent_matches",
        "ahead": "help_ahead",
        "behind": "help_behind",
        "level": "help_level",
    },
)

st.subheader(t("matches_played"))
played = games_named(matches.with_columns(("/viewer?game=" + pl.col("game_id")).alias("open")))
# What a player reads first comes first; the table's size is in the list of its players, so
# the count is left to the files, and the table fits a laptop's width.
show(
    played.select(
        "played_at",
        "game",
        "players",
        "seat",
        "seat_name",
        "score",
        "rank",
        "won",
        "open",
        "game_id",
    ),
    f"matches-{name}",
    links={"open": t("open_match")},
    files=played.drop("open"),
)
