"""Scoring sources: where the points come from, for winners and the rest, and which sources
decide matches."""

from __future__ import annotations

import plotly.express as px
import plotly.graph_objects as go
import polars as pl
import streamlit as st

from dashboards import queries
from dashboards.common import filters, has_matches, literals, named, where
from dashboards.data import query
from dashboards.i18n import t
from dashboards.stats import with_wilson
from dashboards.tables import show

st.title(t("sources"))
if not has_matches():
    st.stop()
flt = filters()
sql, params = where(flt, queries.SOURCE_SUMMARY)
summary = query(sql, params)
if summary.is_empty():
    st.info(t("no_complete"))
    st.stop()
order = summary.sort("position")["source"].unique(maintain_order=True).to_list()
labels = [t(s) for s in order]
summary = summary.with_columns(
    pl.col("source").replace_strict({s: t(s) for s in order}).alias("label"),
    pl.when(pl.col("won")).then(pl.lit(t("winners"))).otherwise(pl.lit(t("others"))).alias("group"),
)

st.subheader(f"{t('mean')} — {t('winners')} / {t('others')}")
st.plotly_chart(
    px.bar(
        summary.to_pandas(),
        x="label",
        y="mean",
        color="group",
        barmode="group",
        category_orders={"label": labels},
        labels={"label": t("source"), "mean": t("mean"), "group": t("seats")},
    ).update_layout(height=320, xaxis_title=None, yaxis_title=t("points"), legend_title=None),
    key="means",
)
# The files keep the columns' names (show labels the headers): the sources and the seats'
# outcome by their labels, as the chart shows them.
show(
    summary.select(
        pl.col("label").alias("source"),
        pl.col("group").alias("outcome"),
        "seats",
        "mean",
        "low",
        "q1",
        "median",
        "q3",
        "high",
    ),
    "points-by-source",
)

st.subheader(t("points"))
box = go.Figure()
for group, frame in summary.group_by("group", maintain_order=True):
    box.add_trace(
        go.Box(
            name=str(group[0]),
            x=frame["label"].to_list(),
            q1=frame["q1"].to_list(),
            median=frame["median"].to_list(),
            q3=frame["q3"].to_list(),
            lowerfence=frame["low"].to_list(),
            upperfence=frame["high"].to_list(),
            mean=frame["mean"].to_list(),
        )
    )
st.plotly_chart(
    box.update_layout(
        boxmode="group",
        height=360,
        yaxis_title=t("points"),
        xaxis={"categoryorder": "array", "categoryarray": labels},
    ),
    key="distribution",
)

st.subheader(f"{t('mean')} — {t('bot')} / {t('players')}")
# Fixed grouping columns by choice (never user text in the SQL).
# Seats no bot played are one group of their own, named in the page's language below.
GROUPS = {"agent": "coalesce(agent, '')", "player_count": "player_count", "player": "player"}
by = st.radio(
    "by",
    list(GROUPS),
    horizontal=True,
    key="sources-by",
    format_func=lambda k: {"agent": t("bot"), "player_count": t("players"), "player": t("player")}[
        k
    ],
    label_visibility="collapsed",
)
st.caption(t("means_by_caption"))
sql, params = where(flt, queries.SOURCE_MEANS_BY.replace("{by}", GROUPS[by]))
# A row a group and source, not a grid: a source only some rule sets score has fewer seats
# than the rest of its group, so each mean needs its own n.
means = named(query(sql, params), "source").with_columns(pl.col("mean").round(2))
if by == "agent":
    means = means.with_columns(
        pl.when(pl.col("value") == "")
        .then(pl.lit(t("people_seats")))
        .otherwise(pl.col("value"))
        .alias("value")
    )
show(
    means.select("value", "source", "seats", "mean").rename(
        {"value": {"agent": "bot", "player_count": "players"}.get(by, by)}
    ),
    f"points-by-source-by-{by}",
)

st.subheader(t("decisive"))
sql, params = where(flt, queries.DECISIVE_SOURCES)
decisive = query(sql, params)
decisive = with_wilson(
    named(decisive, "source")
    .with_columns(
        (pl.col("winner_changes").cast(pl.Float64) / pl.col("matches")).alias("share"),
    )
    .sort("share", descending=True),
    "winner_changes",
    "matches",
)
st.caption(t("decisive_caption"))
show(decisive.rename({"winner_changes": "decisive"}), "decisive-sources")

st.subheader(t("match"))
sql, params = where(flt, queries.LATEST_MATCHES)
matches = query(sql, params)["game_id"].to_list()
if matches:
    game_id = st.selectbox(t("match_id"), matches, key="sources-match")
    one = literals(named(query(queries.MATCH_POINTS, {"game_id": game_id}), "source"), "player")
    st.plotly_chart(
        px.bar(
            one.to_pandas(),
            x="player",
            y="points",
            color="source",
            category_orders={"source": labels},
            labels={"player": t("player"), "points": t("points"), "source": t("source")},
        ).update_layout(height=320, xaxis_title=None),
        key="one-match",
    )
