"""The Knight Academy board: seven tracks of 20 squares, each disc at its square, stacks in
their order (the disc on top drawn highest), laps marked; with the variant boards (KA-22) the
knights' grail track, the king's scrolls, the wagers and the codex."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import plotly.graph_objects as go
import polars as pl
import streamlit as st

from dashboards.common import PALETTE, held, literal, number, plain
from dashboards.i18n import language, phase, t
from dashboards.rounds import round_words
from replay.game import HIDDEN
from replay.games.knight_academy.config import CARD_TRACKS

from .sections import balance, beneath
from .sentences import card, colour, sentences, signed

__all__ = [
    "anchors",
    "balance",
    "beneath",
    "caption",
    "component",
    "component_name",
    "figure",
    "seat_name",
    "sentences",
    "side",
    "tables",
]

# KA-20: the seed's lancelot colours, drawn as themselves.
COLOURS = {"blue": "#1f77b4", "yellow": "#e6c229", "green": "#2ca02c", "red": "#d62728"}


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


def seat_name(player: str, players: Sequence[str], lang: str) -> str:
    """A seat as the table names it: one of the match's `players` by name; a seat that is none
    of them, a lancelot colour (KA-20) the state seats in its player's place, in words."""
    return player if player in players else colour(player, lang)


def caption(view: dict[str, Any]) -> str:
    step = view.get("draft_step")
    return f"{round_words(view)} · {phase(view['phase'])}" + (
        f" · {t('step')} {step}" if step else ""
    )


def tables(view: dict[str, Any], players: list[str], lang: str) -> list[tuple[str, pl.DataFrame]]:
    """Deck, discard and each seat's cards, as the view shows them: the engine's view of the
    perspective chosen has already hidden what that player could not see. The page and the
    HTML export show these same tables."""
    out: list[tuple[str, pl.DataFrame]] = []
    counts: dict[str, object] = {t("deck", lang): view["deck"], t("discard", lang): view["discard"]}
    if "boards" in view:
        comma = "、" if lang == "zh" else ", "
        counts[t("variant_boards", lang)] = comma.join(
            t(f"board_{b}", lang) for b in view["boards"]
        )
    out.append(("", pl.DataFrame([counts])))
    owners = view.get("owners", {})  # KA-20: a lancelot colour is its player's
    lancelot = [
        {
            t("player", lang): person,
            t("hand", lang): _held(own["held"], lang),
            # KA-20: a player's piles, face down to the other until both have split
            t("ka_piles", lang): " | ".join(
                _held(pile, lang) for pile in own["piles"] if HIDDEN not in pile
            ),
        }
        for person, own in view.get("lancelot", {}).items()
        if own["held"] or own["piles"]
    ]
    if lancelot:
        out.append((t("lancelot", lang), pl.DataFrame(lancelot)))
    shields = view.get("shields", {})  # KA-22e, KA-22f: the shields each seat keeps
    # Two tables, so that neither scrolls sideways on a laptop: what each seat holds, read
    # first, then its points source by source (most of them 0 for much of a match).
    rows, points = [], []
    for player, seat in view["seats"].items():
        name = player
        if seat["neutral"]:
            name += f" ({t('neutral', lang)})"
        if player in owners:
            name = f"{seat_name(player, players, lang)} ({owners[player]})"
        row: dict[str, object] = {
            t("player", lang): name,
            t("score", lang): number(seat["score"], lang),
            t("hand", lang): _held(seat["hand"], lang),
            t("picked", lang): _held(seat["picked"], lang),
        }
        points.append(
            {t("player", lang): name}
            | {t(source, lang): number(got, lang) for source, got in seat["sources"].items()}
        )
        if "wagers" in view:
            wager = view["wagers"][player]
            row[t("wager", lang)] = t(wager, lang) if wager else ""
        if player in shields:
            row[t("shields_held", lang)] = held(
                [p if p == HIDDEN else signed(p) for p in shields[player]], "", lang
            )
        rows.append(row)
    out.append(("", pl.DataFrame(rows, strict=False)))
    out.append((t("ka_points_by_source", lang), pl.DataFrame(points, strict=False)))
    if view.get("codex", {}).get("slots"):  # KA-22c: the slots the perspective looked at
        cells = {
            f"{t('codex_slot', lang)} {slot}": t("slot_taken", lang)
            if shield is None
            else str(number(shield, lang) if shield == HIDDEN else signed(shield))
            for slot, shield in enumerate(view["codex"]["shields"], 1)
        }
        out.append((t("codex", lang), pl.DataFrame([cells])))
    return out


def _held(names: list[str], lang: str) -> str:
    """Cards by name ("Sword 4"), those hidden counted."""
    unit = t("ka_one_card" if names.count(HIDDEN) == 1 else "cards", lang)
    return held([n if n == HIDDEN else card(n, lang) for n in names], unit, lang)


def side(view: dict[str, Any], players: list[str]) -> None:
    for title, frame in tables(view, players, language()):
        if title:
            st.caption(plain(title))
        st.dataframe(frame, hide_index=True, width="stretch")


def component(item: str, lang: str) -> str:
    """A card as Balance lists it: "Sword 4"."""
    return card(item, lang)


def component_name(item: str, lang: str, catalogue: object = None) -> str | None:
    """A card as the move log names it ("Sword 4"); None for a word that names no card."""
    kind, _, value = item.rpartition("-")
    return card(item, lang) if kind in CARD_TRACKS and value.isdigit() else None


def figure(
    view: dict[str, Any], players: list[str], event: dict[str, Any] | None = None
) -> go.Figure:
    tracks = list(view["tracks"])
    length = 20
    # The rows' bands go to the layout at once, as every board's shapes do (an add_shape at a
    # time validates every shape before it again).
    fig = go.Figure(
        layout={
            "shapes": [
                {
                    "type": "rect",
                    "x0": -0.5,
                    "x1": length + 0.5,
                    "y0": len(tracks) - 1 - row - 0.45,
                    "y1": len(tracks) - 1 - row + 0.45,
                    "fillcolor": "#f4efe1" if row % 2 else "#ebe3cc",
                    "line": {"width": 0},
                    "layer": "below",
                }
                for row in range(len(tracks))
            ]
        }
    )
    # The discs' seats: the players, or in lancelot their four colours (KA-20).
    for seat, player in enumerate(view["seats"]):
        owner = view.get("owners", {}).get(player)
        named = literal(seat_name(player, players, language()))
        xs, ys, texts, symbols = [], [], [], []
        for row, track in enumerate(tracks):
            for disc in view["tracks"][track]:
                if disc["player"] != player:
                    continue
                xs.append(disc["square"])
                ys.append(len(tracks) - 1 - row - 0.3 + 0.16 * disc["order"])
                lap = f" · {t('lap')} {disc['lap'] + 1}" if disc["lap"] else ""
                texts.append(f"{named}: {t(track)} {disc['progress']}{lap}")
                symbols.append("diamond" if disc["lap"] else "circle")
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="markers",
                name=named + (f" ({literal(owner)})" if owner else ""),
                text=texts,
                hoverinfo="text",
                marker={
                    "size": 16,
                    "color": COLOURS.get(player, PALETTE[seat % len(PALETTE)]),
                    "symbol": symbols,
                    "line": {"width": 1.5, "color": "#222"},
                },
            )
        )
    _variant_pieces(fig, view, tracks, length)
    fig.update_layout(
        height=360,
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


def _variant_pieces(fig: go.Figure, view: dict[str, Any], tracks: list[str], length: int) -> None:
    """KA-22a: the grail between the knights' rows, from the black end (left) to the white end
    (right); KA-22d: the scrolls on the king's squares."""
    rows = {track: len(tracks) - 1 - i for i, track in enumerate(tracks)}
    if "grail" in view and "white" in rows:
        grail = view["grail"]
        middle = length / 2
        x = middle + grail["at"] * middle / grail["reach"]
        y = (rows["white"] + rows["black"]) / 2
        fig.add_trace(  # the track's two ends, named
            go.Scatter(
                x=[0, length],
                y=[y, y],
                mode="text",
                text=[f"◀ {t('black')}", f"{t('white')} ▶"],
                textposition=["middle right", "middle left"],
                textfont={"size": 10, "color": "#555"},
                hoverinfo="skip",
                showlegend=False,
            )
        )
        fig.add_trace(
            go.Scatter(
                x=[x],
                y=[y],
                mode="markers",
                marker={"size": 20, "color": "#d4a017", "symbol": "star"},
                hovertext=[f"{t('grail')}: {grail['at']:+d}"],
                hoverinfo="text",
                name=t("grail"),
            )
        )
    if view.get("scrolls") and "king" in rows:
        fig.add_trace(
            go.Scatter(
                x=view["scrolls"],
                y=[rows["king"] + 0.3] * len(view["scrolls"]),
                mode="markers",
                marker={"size": 14, "color": "#c8a165", "symbol": "square"},
                hovertext=[f"{t('scroll')} {square}" for square in view["scrolls"]],
                hoverinfo="text",
                name=t("scroll"),
            )
        )
