"""Who was winning: the viewer's chart of each seat's chance after every step, and the
turning points (ingest.analyses.review estimates them; the model is fitted once per warehouse)."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go
import streamlit as st

from dashboards.common import PALETTE, literal, plain
from dashboards.data import signature, version_in, warehouse_path
from dashboards.i18n import t
from dashboards.match import load
from ingest.analyses.outlook import Model
from ingest.analyses.review import NotEnoughMatches, Review, model_of, review
from ingest.warehouse.location import place


@st.cache_resource(max_entries=8, show_spinner=False)
def _model(game: str, path: str, signature_: str) -> Model | str:
    """The game's model as the last ingest kept it (at the version chosen: as it was kept
    then), or why there is none (too few stored matches)."""
    try:
        return model_of(place(path), game, version_in(signature_))
    except NotEnoughMatches as err:
        return str(err)


@st.cache_resource(max_entries=64, show_spinner=False)
def _reviewed(game_id: str, signature_: str) -> Review | str | None:
    loaded = load(game_id)
    if loaded is None:
        return None
    model = _model(loaded.match.game.name, str(warehouse_path()), signature_)
    if isinstance(model, str):
        return model
    return review(loaded.match, model)


def reviewed(game_id: str) -> Review | str | None:
    """The match's review; a string says why there is none."""
    return _reviewed(game_id, signature())


def figure(reviewed: Review, players: Sequence[str], step: int) -> go.Figure:
    """One line a seat that can win, in its seat's colour; the viewer's step marked."""
    steps = [s for s, _ in reviewed.timeline]
    fig = go.Figure()
    named = list(reviewed.timeline[0][1]) if reviewed.timeline else []
    for who in named:
        seat = players.index(who) if who in players else len(players)
        fig.add_trace(
            go.Scatter(
                x=steps,
                y=[p.get(who, 0.0) for _, p in reviewed.timeline],
                mode="lines+markers",
                marker={"size": 4},
                line={"color": PALETTE[seat % len(PALETTE)], "width": 2},
                name=literal(who),
                hovertemplate=f"%{{fullData.name}} %{{y:.0%}} · {t('step')} %{{x}}<extra></extra>",
            )
        )
    fig.add_vline(x=step, line={"color": "#555", "dash": "dot"})
    fig.update_layout(
        height=200,
        margin={"l": 10, "r": 10, "t": 10, "b": 10},
        yaxis={"range": [0, 1], "tickformat": ".0%", "title": None},
        xaxis={"title": t("step")},
        legend={"orientation": "h", "y": 1.15},
        clickmode="event+select",
    )
    return fig


def turning_point_label(point: dict[str, object], said: Sequence[str]) -> str:
    """The step and what happened there in the move log's words, whose chance moved."""
    before, after = float(point["before"]), float(point["after"])  # type: ignore[arg-type]
    at = int(point["step"])  # type: ignore[call-overload]
    what = said[at - 1] if 0 < at <= len(said) else ""
    return plain(f"{at} · {what} — {point['player']} {before:.0%} → {after:.0%}")
