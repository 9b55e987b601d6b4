"""Track races: one match's progress step by step, and over many matches how winners'
discs move, who leads when, and how often the lead changes hands."""

from __future__ import annotations

from typing import cast

import plotly.express as px
import polars as pl
import streamlit as st

from dashboards import queries
from dashboards.common import filters, has_matches, literal, named, where
from dashboards.data import query
from dashboards.i18n import t
from dashboards.stats import with_error_bars, with_wilson
from dashboards.tables import show

st.title(t("tracks"))
if not has_matches():
    st.stop()
flt = filters()

st.subheader(t("match"))
sql, params = where(flt, queries.LATEST_MATCHES)
ids = query(sql, params)["game_id"].to_list()
if ids:
    game_id = st.selectbox(t("match_id"), ids, key="tracks-match")
    moves = query(queries.MATCH_TRACK_MOVES, {"game_id": game_id})
    seats = query(queries.MATCH_SEATS, {"game_id": game_id})
    tracks = moves["track"].unique(maintain_order=True).to_list()
    track = st.selectbox(t("track"), tracks, format_func=t, key="tracks-track")
    last = int(cast("int | None", moves["event_index"].max()) or 0)
    series = []
    for player in seats["player"]:  # a step line per player: progress after every move
        mine = moves.filter((pl.col("player") == player) & (pl.col("track") == track))
        points = [(0, 0), *zip(mine["event_index"], mine["progress_after"])]
        points.append((last, points[-1][1]))
        series += [{"step": s, "progress": p, t("player"): literal(player)} for s, p in points]
    st.plotly_chart(
        px.line(
            pl.DataFrame(series).to_pandas(),
            x="step",
            y="progress",
            color=t("player"),
            line_shape="hv",
            labels={"step": t("step"), "progress": t(track)},
        )
        # px writes each player's name into the hover template, where it would be read as one
        .update_traces(
            hovertemplate=f"%{{fullData.name}}<br>{t('step')} %{{x}}<br>{t(track)} %{{y}}"
            "<extra></extra>"
        )
        .update_layout(height=320, yaxis_title=t(track)),
        key="one-race",
    )

st.subheader(f"{t('progress')} — {t('winners')} / {t('others')}")
sql, params = where(flt, queries.ROUND_END_PROGRESS)
means = query(sql, params)
if not means.is_empty():
    means = means.with_columns(
        pl.col("track").replace_strict({x: t(x) for x in means["track"].unique()}).alias("label"),
        pl.when(pl.col("won"))
        .then(pl.lit(t("winners")))
        .otherwise(pl.lit(t("others")))
        .alias("group"),
    )
    st.plotly_chart(
        px.line(
            means.to_pandas(),
            x="round",
            y="mean_progress",
            color="group",
            facet_col="label",
            facet_col_wrap=4,
            markers=True,
            labels={
                "mean_progress": t("progress"),
                "round": t("round"),
                "group": "",
                "label": t("track"),
            },
        )
        .for_each_annotation(lambda a: a.update(text=a.text.split("=")[-1]))
        .update_layout(height=460),
        key="many-races",
    )
    show(
        named(means.select("track", "round", "won", "mean_progress", "seats"), "track"),
        "progress-by-round",
    )

st.subheader(f"{t('leader')} · {t('lead_changes')}")
st.caption(t("leaders_caption"))
sql, params = where(flt, queries.ROUND_LEADERS)
leaders = query(sql, params)
if not leaders.is_empty():
    leaders = with_wilson(
        leaders.with_columns(
            pl.col("track").replace_strict({x: t(x) for x in leaders["track"].unique()})
        ),
        "leader_wins",
        "matches",
    )
    st.plotly_chart(
        px.line(
            with_error_bars(leaders, "winner_leads_share").to_pandas(),
            x="round",
            y="winner_leads_share",
            color="track",
            markers=True,
            error_y="above",
            error_y_minus="below",
            hover_data={"matches": True, "above": False, "below": False},
            labels={
                "winner_leads_share": t("share"),
                "round": t("round"),
                "track": "",
                "matches": t("matches"),
            },
        ).update_layout(height=320, yaxis_tickformat=".0%"),
        key="leaders",
    )
    # Round by round, where each match counts once: a share over the rounds together would
    # count a match once a round, as if its rounds were independent matches.
    st.caption(t("leaders_by_round_caption"))
    show(
        named(leaders, "track").select(
            "track",
            "round",
            "matches",
            "leader_wins",
            "winner_leads_share",
            "interval_low",
            "interval_high",
            "lead_changes",
        ),
        "track-leaders",
        height=300,
    )
    st.caption(t("lead_changes_caption"))
    changes = (
        leaders.group_by("track")
        .agg(
            # The summaries count matches round by round: the most at one round's end stands
            # for the track's matches.
            pl.col("matches").max().alias("matches"),
            pl.col("lead_changes").sum().alias("lead_changes"),
        )
        .with_columns((pl.col("lead_changes") / pl.col("matches")).alias("lead_changes_per_match"))
    )
    show(named(changes.sort("track"), "track"), "track-lead-changes")
