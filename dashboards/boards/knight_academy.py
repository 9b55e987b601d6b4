"""The Knight Academy board: seven tracks of 20 squares, each disc at its square, stacks in
their order (the disc on top drawn highest), laps marked."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import polars as pl
import streamlit as st

from dashboards.common import PALETTE, perspective
from dashboards.i18n import phase, t


def anchors(events: list[dict[str, Any]]) -> dict[int, str]:
    """Jumps: the state just before each round's deal, draft, play and scoring began."""
    marks: dict[int, str] = {0: t("start")}
    seen: set[tuple[int, str]] = set()
    for event in events:
        mark = (event["round"], event["kind"])
        if mark not in seen:
            seen.add(mark)
            marks.setdefault(
                event["index"] - 1, f"{t('round')} {event['round']} — {t('phase_' + event['kind'])}"
            )
    return marks


def caption(view: dict[str, Any]) -> str:
    step = view.get("draft_step")
    return f"{t('round')} {view['round']} · {phase(view['phase'])}" + (
        f" · {t('step')} {step}" if step else ""
    )


def side(view: dict[str, Any], players: list[str]) -> None:
    """Deck, discard and each seat's cards, seen by everyone or by one player."""
    viewer = perspective(players)
    st.metric(t("deck"), view["deck"])
    st.metric(t("discard"), view["discard"])
    rows = []
    for player, seat in view["seats"].items():
        visible = viewer is None or viewer == player
        rows.append(
            {
                t("player"): player + (f" ({t('neutral')})" if seat["neutral"] else ""),
                t("hand"): ", ".join(seat["hand"])
                if visible
                else f"{len(seat['hand'])} {t('cards')} ({t('hidden')})",
                t("picked"): ", ".join(seat["picked"])
                if visible
                else f"{len(seat['picked'])} {t('cards')} ({t('hidden')})",
                t("score"): seat["score"],
                **{t(source): points for source, points in seat["sources"].items()},
            }
        )
    st.dataframe(pl.DataFrame(rows), hide_index=True)


def figure(
    view: dict[str, Any], players: list[str], event: dict[str, Any] | None = None
) -> go.Figure:
    tracks = list(view["tracks"])
    length = 20
    fig = go.Figure()
    for row in range(len(tracks)):
        y = len(tracks) - 1 - row
        fig.add_shape(
            type="rect",
            x0=-0.5,
            x1=length + 0.5,
            y0=y - 0.45,
            y1=y + 0.45,
            fillcolor="#f4efe1" if row % 2 else "#ebe3cc",
            line_width=0,
            layer="below",
        )
    for seat, player in enumerate(players):
        xs, ys, texts, symbols = [], [], [], []
        for row, track in enumerate(tracks):
            for disc in view["tracks"][track]:
                if disc["player"] != player:
                    continue
                xs.append(disc["square"])
                ys.append(len(tracks) - 1 - row - 0.3 + 0.16 * disc["order"])
                lap = f" · {t('lap')} {disc['lap'] + 1}" if disc["lap"] else ""
                texts.append(f"{player}: {t(track)} {disc['progress']}{lap}")
                symbols.append("diamond" if disc["lap"] else "circle")
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="markers",
                name=player,
                text=texts,
                hoverinfo="text",
                marker={
                    "size": 16,
                    "color": PALETTE[seat % len(PALETTE)],
                    "symbol": symbols,
                    "line": {"width": 1.5, "color": "#222"},
                },
            )
        )
    fig.update_layout(
        height=420,
        margin={"l": 10, "r": 10, "t": 10, "b": 30},
        xaxis={"range": [-0.7, length + 0.7], "dtick": 1, "title": None, "showgrid": False},
        yaxis={
            "tickvals": list(range(len(tracks))),
            "ticktext": [t(track) for track in reversed(tracks)],
            "showgrid": False,
            "range": [-0.6, len(tracks) - 0.4],
        },
        legend={"orientation": "h", "y": -0.12},
        plot_bgcolor="white",
    )
    return fig
