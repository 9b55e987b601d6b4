"""The Albus Academy boards: each player's 3 × 4 board with its tiles in their rotation,
connector halves on their edges, whole links drawn between positions, exhausted positions
greyed and the position the current event touched outlined; beside them the public tiles and
homework, and each player's will, shards, homework and prestige, drawn from the engine's view
for the viewer's perspective: private homework it may not see arrives as HIDDEN, shown hidden."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import polars as pl
import streamlit as st
from plotly.subplots import make_subplots

from dashboards.common import held, literal
from dashboards.i18n import phase, t

HALF = {0: (0.0, 0.36), 1: (0.36, 0.0), 2: (0.0, -0.36), 3: (-0.36, 0.0)}  # N E S W


def anchors(events: list[dict[str, Any]]) -> dict[int, str]:
    """Jumps: the start, and the first turn of each round."""
    marks: dict[int, str] = {0: t("start")}
    seen: set[int] = set()
    for event in events:
        rnd = event["round"]
        if rnd and rnd not in seen and event["kind"] in ("cast", "rest"):
            seen.add(rnd)
            marks[event["index"] - 1] = f"{t('round')} {rnd}"
    return marks


def caption(view: dict[str, Any]) -> str:
    return f"{t('round')} {view['round']} · {phase(view['phase'])} · {view['turn_of']}"


def figure(
    view: dict[str, Any], players: list[str], event: dict[str, Any] | None = None
) -> go.Figure:
    raw = (event or {}).get("raw", {})
    touched = tuple(raw["at"]) if raw.get("at") else None
    actor = raw.get("player")
    fig = make_subplots(
        rows=1,
        cols=len(players),
        subplot_titles=[literal(p) for p in players],
        horizontal_spacing=0.04,
    )
    # The shapes go to the layout at once: each add_shape validates every shape added before
    # it again, which cost a rerun of the viewer 0.2 s for four boards.
    shapes: list[dict[str, Any]] = []
    for i, player in enumerate(players, 1):
        axes = {"xref": f"x{i if i > 1 else ''}", "yref": f"y{i if i > 1 else ''}"}
        seat = view["seats"][player]
        xs, ys, labels, hovers = [], [], [], []
        hx, hy = [], []
        for cell in seat["board"]:
            r, c = cell["at"]
            x, y = c, -r
            outline = touched == (r, c) and actor == player
            shapes.append(
                {
                    "type": "rect",
                    "x0": x - 0.45,
                    "x1": x + 0.45,
                    "y0": y - 0.45,
                    "y1": y + 0.45,
                    "fillcolor": "#c9c9c9"
                    if cell["exhausted"]
                    else "#f1e9d8"
                    if cell["tile"]
                    else "#fbfaf7",
                    "line": {
                        "color": "#d4a017" if outline else "#888",
                        "width": 4 if outline else 1,
                    },
                    "layer": "below",
                    **axes,
                }
            )
            if cell["tile"]:
                xs.append(x)
                ys.append(y)
                labels.append(
                    literal(cell["tile"])
                    + ("" if cell["tile"] in ("nw", "ne", "sw", "se") else f"↻{cell['rotation']}")
                )
                hovers.append(
                    literal(f"{cell['tile']} {cell['actions']}")
                    + (f" ({t('exhausted')})" if cell["exhausted"] else "")
                )
            for edge, mark in enumerate(cell["edges"] or ""):
                if mark != "-":
                    dx, dy = HALF[edge]
                    hx.append(x + dx)
                    hy.append(y + dy)
            link = {"type": "line", "line": {"color": "#7b3fa0", "width": 5}, **axes}
            if cell["link_east"]:
                shapes.append({**link, "x0": x + 0.3, "x1": x + 0.7, "y0": y, "y1": y})
            if cell["link_south"]:
                shapes.append({**link, "x0": x, "x1": x, "y0": y - 0.3, "y1": y - 0.7})
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="text",
                text=labels,
                hovertext=hovers,
                hoverinfo="text",
                showlegend=False,
                textfont={"size": 11},
            ),
            row=1,
            col=i,
        )
        fig.add_trace(
            go.Scatter(
                x=hx,
                y=hy,
                mode="markers",
                showlegend=False,
                hoverinfo="skip",
                marker={"size": 6, "color": "#7b3fa0"},
            ),
            row=1,
            col=i,
        )
        fig.update_xaxes(visible=False, range=[-0.6, 3.6], row=1, col=i)
        fig.update_yaxes(
            visible=False, range=[-2.6, 0.6], scaleanchor=f"x{i if i > 1 else ''}", row=1, col=i
        )
    fig.update_layout(
        shapes=shapes,
        height=320,
        margin={"l": 5, "r": 5, "t": 30, "b": 5},
        plot_bgcolor="white",
    )
    return fig


def side(view: dict[str, Any], players: list[str]) -> None:
    st.caption(
        f"{t('public_tiles')}: {', '.join(view['public_tiles']) or '—'} "
        f"({t('bag')} {view['bag']})  \n"
        f"{t('public_homework')}: {', '.join(view['public_homework']) or '—'} "
        f"({t('deck')} {view['deck']})"
    )
    if view.get("casting"):
        cast = view["casting"]
        st.caption(
            f"{t('casting')}: {cast['at']} · {', '.join(cast['done']) or '—'} · "
            f"{t('may_trigger')}: {', '.join(map(str, cast['may_trigger'])) or '—'}"
        )
    columns: dict[str, list[str]] = {
        "": [
            t("will"),
            t("shards"),
            t("private_homework"),
            t("spells"),
            t("items"),
            t("prestige"),
            t("class_dismissed"),
        ]
    }
    for player, me in view["seats"].items():
        columns[player] = [
            str(me["will"]),
            str(me["shards"]),
            held(me["private"]["homework"]) or "—",
            ", ".join(me["spells"]) or "—",
            ", ".join(me["items"]) or "—",
            str(me["score"]),
            "✓" if me["class_dismissed"] else "",
        ]
    st.dataframe(pl.DataFrame(columns), hide_index=True)
