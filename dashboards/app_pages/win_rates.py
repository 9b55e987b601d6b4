"""Win rates by seat (in turn order), start player, player, bot, player count and rule set,
with intervals, and how many of the wins the game's tie-break decided."""

from __future__ import annotations

import plotly.graph_objects as go
import polars as pl
import streamlit as st

from dashboards import queries
from dashboards.common import filters, has_matches, literal, where
from dashboards.data import query
from dashboards.i18n import language, t
from dashboards.ratings import show_board
from dashboards.rulesets import keys_in_words
from dashboards.stats import wilson
from dashboards.tables import show

st.title(t("win_rates"))
if not has_matches():
    st.stop()
flt = filters()

st.subheader(t("ratings"))
show_board(flt)

# Fixed column expressions by dimension (never user text in the SQL).
DIMENSIONS = {
    "seat": "position + 1",  # in turn order from the start player
    "start_player": "CASE WHEN start_player THEN 'yes' ELSE 'no' END",
    "player": "player",
    "bot": "agent",  # the seats bots played: a person's seat is no bot's
    "players": "player_count",
    "ruleset": "ruleset_key",
}


def rates(dimension: str) -> pl.DataFrame:
    sql, params = where(flt, queries.WIN_RATES.replace("{dimension}", DIMENSIONS[dimension]))
    frame = query(sql, params)
    if dimension == "bot":
        frame = frame.filter(pl.col("value").is_not_null())
    if dimension == "start_player":  # the answer in the reader's language
        frame = frame.with_columns(
            pl.col("value").replace_strict(
                {"yes": t("yes"), "no": t("no")}, default=pl.col("value")
            )
        )
    if dimension == "ruleset":  # in words, not as the warehouse files it
        frame = keys_in_words(frame, "value", language())
    bounds = [wilson(w, n) for w, n in zip(frame["wins"], frame["seats"])]
    return frame.with_columns(
        (pl.col("wins") / pl.col("seats")).alias("win_rate"),
        pl.Series("low", [b[0] for b in bounds]),
        pl.Series("high", [b[1] for b in bounds]),
    )


st.caption(t("win_rates_of_seats"))
for dimension in DIMENSIONS:
    frame = rates(dimension)
    if frame.is_empty():
        continue
    st.subheader(t(dimension))
    # a rule set's name in words runs long: its table takes the page's width, under its chart
    chart, table = (
        (st.container(), st.container()) if dimension == "ruleset" else st.columns([2, 3])
    )
    labels = [literal(v) for v in frame["value"]]  # players', bots' and rule sets' names
    chart.plotly_chart(
        go.Figure(
            go.Bar(
                x=labels,
                y=frame["win_rate"],
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": (frame["high"] - frame["win_rate"]).to_list(),
                    "arrayminus": (frame["win_rate"] - frame["low"]).to_list(),
                },
                text=[f"{n:,} {t('seats_unit')}" for n in frame["seats"]],
                textposition="outside",
            )
        ).update_layout(
            height=280,
            margin={"t": 10, "b": 10},
            yaxis_tickformat=".0%",
            xaxis_type="category",
            yaxis_title=t("win_rate"),
        ),
        key=f"chart-{dimension}",
    )
    with table:
        show(
            frame.rename({"value": dimension, "low": "interval_low", "high": "interval_high"}),
            f"win-rate-by-{dimension}",
            height=220,
        )
