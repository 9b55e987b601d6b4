"""What is in the warehouse, and the latest matches with a link into the viewer."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import streamlit as st

from dashboards import queries
from dashboards.common import game_label, has_matches, origin_choice
from dashboards.data import query
from dashboards.i18n import t
from dashboards.tables import show

st.title("squire")
st.caption(t("overview"))
# A club's own matches come in here: recorded at the table, move by move.
st.page_link(
    Path(__file__).with_name("record.py"), label=t("record_link"), icon=":material/edit_note:"
)
if not has_matches():
    st.stop()

origins, experiments = origin_choice(st, "home-origin")
totals = query(queries.GAME_TOTALS)
for column, row in zip(st.columns(max(1, totals.height)), totals.iter_rows(named=True)):
    shown = sum(row[o] for o in origins) + (row["experiment_matches"] if experiments else 0)
    column.metric(
        game_label(row["game"]),
        t("one_match") if shown == 1 else t("n_matches").format(n=f"{shown:,}"),
        help=f"{row['first']} … {row['last']}",
    )
    counts = t("origin_counts").format(human=f"{row['human']:,}", bot=f"{row['bot']:,}")
    if experiments:
        counts += " · " + t("origin_experiments").format(n=f"{row['experiment_matches']:,}")
    column.caption(counts)
    if row["experiment_matches"] and not experiments:  # kept apart: designs under changed rules
        column.caption(t("experiment_matches").format(n=f"{row['experiment_matches']:,}"))

st.subheader(t("latest"))
latest = query(
    queries.MATCH_LIST, {**queries.ANY_MATCH, "origins": origins, "experiments": experiments}
).head(10)
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
