"""The Heraldry board: the hex map in its terrain colours, each player's pieces on their hexes
(city ■, fortress ◆, village ▲, knights ● with their number), the hexes the current event
touched outlined; below it, the seats' panel as tables: titles and points, tokens, pieces."""

from __future__ import annotations

import math
from typing import Any

import plotly.graph_objects as go
import polars as pl
import streamlit as st

from dashboards.common import PALETTE, literal, plain
from dashboards.i18n import language, t
from dashboards.rounds import round_words
from replay.games.heraldry import TERRAINS

from .sentences import sentences

__all__ = ["anchors", "caption", "figure", "sentences", "side", "tables"]

TERRAIN_COLOURS = {
    "forest": "#5b8c51",
    "plains": "#cfe3a0",
    "field": "#f3dc83",
    "mountain": "#a99583",
    "lake": "#7fb8e6",
}
SYMBOLS = {"city": "square", "fortress": "diamond", "village": "triangle-up"}
SQRT3 = math.sqrt(3)
RESOURCES = tuple(terrain for terrain in TERRAINS if terrain != "lake")  # HE-2: the tokens


def centre(q: int, r: int) -> tuple[float, float]:
    """Pointy-top axial layout, one unit from centre to corner."""
    return SQRT3 * (q + r / 2), -1.5 * r


def _outline(q: int, r: int, scale: float = 1.0) -> str:
    x, y = centre(q, r)
    corners = [
        (
            x + scale * math.cos(math.radians(60 * i - 30)),
            y + scale * math.sin(math.radians(60 * i - 30)),
        )
        for i in range(6)
    ]
    return "M " + " L ".join(f"{cx:.3f},{cy:.3f}" for cx, cy in corners) + " Z"


def touched(event: dict[str, Any] | None) -> set[tuple[int, int]]:
    """The hexes an event names: where something changed."""
    if not event:
        return set()
    raw = event.get("raw", {})
    hexes = [raw.get("hex"), raw.get("city")]
    hexes += [site["hex"] for site in raw.get("sites", [])]
    for step in raw.get("steps", []):
        hexes += [step["from"], step["to"]]
    return {(h[0], h[1]) for h in hexes if h}


def anchors(events: list[dict[str, Any]]) -> dict[int, str]:
    """Jumps: setup, every fifth round, and the turns that changed the standings."""
    marks: dict[int, str] = {0: t("start")}
    rounds: set[int] = set()
    for event in events:
        rnd, kind, index = event["round"], event["kind"], event["index"]
        if rnd not in rounds and (rnd <= 1 or rnd % 5 == 0):
            rounds.add(rnd)
            marks.setdefault(index - 1, f"{t('round')} {rnd}" if rnd else t("phase_place_city"))
        if kind in ("promote", "found_city") or any(f["fact"] == "removed" for f in event["facts"]):
            what = t("battle") if kind == "move" else t("phase_" + kind)
            # The jump shows the state after the turn: the round that state is in.
            shown = round_words({"round": event["round_after"]})
            marks[index] = f"{shown} — {event['player']}: {what}"
    return dict(sorted(marks.items()))


def caption(view: dict[str, Any]) -> str:
    phase = (
        t("phase_place_city")
        if view["phase"] == "setup"
        else t("phase_" + view["phase"])
        if view["phase"] == "over"
        else f"{t('turn')} {view['turn']}"
    )
    return f"{round_words(view)} · {phase}"


def figure(
    view: dict[str, Any], players: list[str], event: dict[str, Any] | None = None
) -> go.Figure:
    changed = touched(event)
    # The hexes go to the layout at once: each add_shape validates every shape added before
    # it again, which took a rerun of the viewer 0.4-0.7 s for a hundred hexes.
    outlines = [
        {
            "type": "path",
            "path": _outline(cell["q"], cell["r"], 0.97),
            "fillcolor": TERRAIN_COLOURS.get(cell["terrain"], "#ddd"),
            "line": {"color": "#6d6d6d", "width": 0.6},
            "layer": "below",
        }
        for cell in view["hexes"]
    ]
    outlines += [
        {
            "type": "path",
            "path": _outline(q, r, 0.93),
            "line": {"color": "#d4a017", "width": 4},
            "fillcolor": "rgba(0,0,0,0)",
        }
        for q, r in changed
    ]
    fig = go.Figure(layout={"shapes": outlines})
    # Terrain names on hover, one invisible point per hex.
    xs, ys = zip(*(centre(c["q"], c["r"]) for c in view["hexes"])) if view["hexes"] else ((), ())
    fig.add_trace(
        go.Scatter(
            x=xs,
            y=ys,
            mode="markers",
            marker={"size": 18, "opacity": 0},
            showlegend=False,
            hoverinfo="text",
            text=[f"[{c['q']}, {c['r']}] {literal(t(c['terrain']))}" for c in view["hexes"]],
        )
    )
    seat_of = {player: seat for seat, player in enumerate(players)}
    offsets = [(-0.32, 0.3), (0.32, 0.3), (-0.32, -0.3), (0.32, -0.3)]
    for player in players:
        seat = seat_of[player]
        shown = literal(player)
        colour = PALETTE[seat % len(PALETTE)]
        bx, by, bsym, btext = [], [], [], []
        kx, ky, ktext, khover = [], [], [], []
        for cell in view["hexes"]:
            x, y = centre(cell["q"], cell["r"])
            building = cell["building"]
            if building and building["player"] == player:
                bx.append(x)
                by.append(y + 0.1)
                bsym.append(SYMBOLS[building["piece"]])
                btext.append(f"{shown}: {t(building['piece'])} [{cell['q']}, {cell['r']}]")
            count = cell["knights"].get(player)
            if count:
                dx, dy = offsets[seat % len(offsets)]
                kx.append(x + dx)
                ky.append(y + dy)
                ktext.append(str(count) if count > 1 else "")
                khover.append(f"{shown}: {count} {t('knights')} [{cell['q']}, {cell['r']}]")
        fig.add_trace(
            go.Scatter(
                x=bx,
                y=by,
                mode="markers",
                name=shown,
                legendgroup=shown,
                hoverinfo="text",
                showlegend=False,
                text=btext,
                marker={
                    "size": 17,
                    "symbol": bsym,
                    "color": colour,
                    "line": {"width": 1.5, "color": "#222"},
                },
            )
        )
        fig.add_trace(
            go.Scatter(
                x=kx,
                y=ky,
                mode="markers+text",
                name=shown,
                legendgroup=shown,
                hoverinfo="text",
                hovertext=khover,
                text=ktext,
                textfont={"color": "white", "size": 10},
                marker={
                    "size": 13,
                    "symbol": "circle",
                    "color": colour,
                    "line": {"width": 1, "color": "#222"},
                },
            )
        )
    fig.update_layout(
        height=390,
        margin={"l": 5, "r": 5, "t": 28, "b": 5},
        plot_bgcolor="white",
        xaxis={"visible": False, "scaleanchor": "y"},
        yaxis={"visible": False},
        legend={"orientation": "h", "y": -0.02},
        title={"text": t("symbols"), "font": {"size": 12}, "x": 0.01, "y": 0.99},
    )
    return fig


def tables(view: dict[str, Any], players: list[str], lang: str) -> list[tuple[str, pl.DataFrame]]:
    """The seats' panel, a row a player in each of three narrow tables (one wide table left a
    phone to scroll past the tokens): title and score by source, the tokens held by terrain,
    and the pieces on the map and in reserve. Heraldry hides nothing, so every perspective's
    tables are the same."""
    player = t("player", lang)
    standing, held, pieces = [], [], []
    for name, seat in view["seats"].items():
        reserve, placed = seat["reserve"], seat["on_board"]
        standing.append(
            {
                player: name,
                t("title", lang): t(seat["title"], lang),
                t("score", lang): seat["score"],
                **{t("from_" + source, lang): n for source, n in seat["sources"].items()},
            }
        )
        held.append(
            {
                player: name,
                **{t(terrain, lang): seat["tokens"].get(terrain, 0) for terrain in RESOURCES},
            }
        )
        lost = f" (−{seat['lost_knights']})" if seat["lost_knights"] else ""
        pieces.append(
            {
                player: name,
                t("knights", lang): f"{placed['knight']} / {reserve['knight']}{lost}",
                **{
                    t(piece, lang): f"{placed[piece]} / {reserve[piece]}"
                    for piece in ("village", "fortress", "city")
                },
            }
        )
    return [
        (t("he_standing", lang), pl.DataFrame(standing)),
        (t("he_tokens_held", lang), pl.DataFrame(held)),
        (t("pieces_caption", lang), pl.DataFrame(pieces)),
    ]


def side(view: dict[str, Any], players: list[str]) -> None:
    for title, frame in tables(view, players, language()):
        if title:
            st.caption(plain(title))
        st.dataframe(frame, hide_index=True, width="stretch")
