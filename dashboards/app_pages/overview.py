"""What is in the warehouse, and the latest matches with a link into the viewer."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import streamlit as st

from dashboards import queries
from dashboards.common import game_label, has_matches
from dashboards.data import query
from dashboards.i18n import t
from dashboards.tables import show

st.title("squire")
st.caption(t("overview"))
if not has_matches():
    st.stop()

totals = query(queries.GAME_TOTALS)
for column, row in zip(st.columns(max(1, totals.height)), totals.iter_rows(named=True)):
    column.metric(
        game_label(row["game"]), f"{row['matches']:,}", help=f"{row['first']} … {row['last']}"
    )
    if row["experiment_matches"]:  # kept apart: designs under changed rules (Balance)
        column.caption(t("experiment_matches").format(n=f"{row['experiment_matches']:,}"))

st.subheader(t("latest"))
latest = query(queries.MATCH_LIST, queries.ANY_MATCH).head(10)
viewer = Path(__file__).with_name("viewer.py")
for row in latest.iter_rows(named=True):
    st.page_link(
        viewer,
        label=f"{row['game_id']} — {row['player_names']}",
        icon=":material/search:",
        query_params={"game": row["game_id"]},
    )
# The games by name in the reader's language; a match of unknown origin says so.
show(
    latest.with_columns(
        pl.col("game").replace_strict({g: game_label(g) for g in latest["game"].unique()}),
        pl.col("source").fill_null("—"),
    ),
    "latest-matches",
)
