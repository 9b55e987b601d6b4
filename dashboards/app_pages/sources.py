"""Scoring sources: where the points come from, for winners and the rest, and which sources
decide matches."""

from __future__ import annotations

import plotly.express as px
import polars as pl
import streamlit as st

from dashboards import queries
from dashboards.common import filters, has_matches, where
from dashboards.data import query
from dashboards.i18n import t
from dashboards.tables import show

st.title(t("sources"))
if not has_matches():
    st.stop()
flt = filters("sources")
sql, params = where(flt, queries.POINTS_BY_SOURCE)
points = query(sql, params)
if points.is_empty():
    st.info(t("empty"))
    st.stop()
order = points.sort("position")["source"].unique(maintain_order=True).to_list()
named = points.with_columns(
    pl.col("source").replace_strict({s: t(s) for s in order}).alias("label"),
    pl.when(pl.col("won")).then(pl.lit(t("winners"))).otherwise(pl.lit(t("others")))
    .alias("group"),
)
labels = [t(s) for s in order]

st.subheader(f"{t('mean')} — {t('winners')} / {t('others')}")
means = (named.group_by("label", "group").agg(pl.col("points").mean().alias("mean"),
                                              pl.len().alias("seats"))
         .sort("label"))
st.plotly_chart(px.bar(means.to_pandas(), x="label", y="mean", color="group", barmode="group",
                       category_orders={"label": labels})
                .update_layout(height=320, xaxis_title=None, yaxis_title=t("points")),
                key="means")
show(means.rename({"label": t("source"), "group": "", "mean": t("mean"),
                   "seats": t("seat")}), "points-by-source-means")

st.subheader(t("points"))
st.plotly_chart(px.box(named.to_pandas(), x="label", y="points", color="group",
                       category_orders={"label": labels})
                .update_layout(height=360, xaxis_title=None), key="distribution")

st.subheader(f"{t('mean')} — {t('bot')} / {t('players')}")
by = st.radio("", ["agent", "player_count", "player"], horizontal=True, key="sources-by",
              format_func=lambda k: {"agent": t("bot"), "player_count": t("players"),
                                     "player": t("player")}[k], label_visibility="collapsed")
pivot = (named.group_by(by, "label").agg(pl.col("points").mean().round(2))
         .pivot(on="label", index=by, values="points").sort(by))
show(pivot.select([by, *[c for c in labels if c in pivot.columns]]), f"points-by-source-{by}")

st.subheader(t("decisive"))
clause, values = flt.where()
clause_p, values_p = flt.where("p")
decisive = query(queries.DECISIVE_SOURCES.replace("{where_p}", clause_p)
                 .replace("{where}", clause), values + values_p)
decisive = decisive.with_columns(
    (pl.col("winner_changes").cast(pl.Float64) / pl.col("matches")).alias("share"),
    pl.col("source").replace_strict({s: t(s) for s in order}, default=pl.col("source")),
).sort("share", descending=True)
st.caption("How often the winner changes when the source is left out of every total.")
show(decisive.rename({"source": t("source"), "matches": t("matches"),
                      "winner_changes": t("decisive"), "share": t("share")}), "decisive-sources")

st.subheader(t("match"))
matches = points["game_id"].unique().sort().to_list()
game_id = st.selectbox(t("match_id"), matches, index=len(matches) - 1, key="sources-match")
one = named.filter(pl.col("game_id") == game_id)
st.plotly_chart(px.bar(one.to_pandas(), x="player", y="points", color="label",
                       category_orders={"label": labels})
                .update_layout(height=320, xaxis_title=None), key="one-match")
