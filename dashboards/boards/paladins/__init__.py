"""The Paladins boards: the main board's regions and squares (monks ●, outposts ▲ in their
player's colour, the squares the current event took outlined), the displays and king's
cards; beside it each player's board — workers on spaces by colour, supply, silver,
provisions, the three tracks with their effective values, workshops, pieces left, team,
debts and suspicion — drawn from a snapshot of the engine's view for the viewer's
perspective: the engine alone hides what a seat cannot see, and HIDDEN shows as hidden."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import polars as pl
import streamlit as st

from dashboards.common import PALETTE, literal, number
from dashboards.i18n import phase, t
from replay.game import HIDDEN

SYMBOLS = {"monk": "circle", "outpost": "triangle-up"}


def anchors(events: list[dict[str, Any]]) -> dict[int, str]:
    """Jumps: the start of each round, its first action, and its clean-up."""
    marks: dict[int, str] = {0: t("start")}
    seen: set[tuple[int, str]] = set()
    for event in events:
        rnd, kind = event["round"], event["kind"]
        stage = (
            "king"
            if kind in ("reveal_king", "reveal_tavern")
            else "paladins"
            if kind in ("choose_paladin", "take_tavern")
            else "cleanup"
            if kind in ("reveal_townsfolk", "reveal_outsiders") and rnd
            else "actions"
        )
        if (rnd, stage) not in seen:
            seen.add((rnd, stage))
            marks.setdefault(event["index"] - 1, f"{t('round')} {rnd} — {t('stage_' + stage)}")
    return marks


def caption(view: dict[str, Any]) -> str:
    return f"{t('round')} {view['round']} · {phase(view['phase'])}"


def figure(
    view: dict[str, Any], players: list[str], event: dict[str, Any] | None = None
) -> go.Figure:
    """The main board: a row per region, a column per square."""
    raw = (event or {}).get("raw", {})
    taken = raw.get("square")
    squares = view["board"]
    # The squares go to the layout at once: each add_shape validates every shape added
    # before it again (0.07 s for thirty squares, on every rerun of the viewer).
    fig = go.Figure(
        layout={
            "shapes": [
                {
                    "type": "rect",
                    "x0": sq["n"] - 0.45,
                    "x1": sq["n"] + 0.45,
                    "y0": -sq["region"] - 0.4,
                    "y1": -sq["region"] + 0.4,
                    "fillcolor": "#efe6d2" if sq["open"] else "#d9d9d9",
                    "line": {
                        "color": "#d4a017" if sq["id"] == taken else "#999",
                        "width": 4 if sq["id"] == taken else 1,
                    },
                    "layer": "below",
                }
                for sq in squares
            ]
        }
    )
    fig.add_trace(
        go.Scatter(
            x=[sq["n"] for sq in squares],
            y=[-sq["region"] - 0.22 for sq in squares],
            mode="text",
            text=[literal(sq["reward"]) for sq in squares],
            textfont={"size": 10},
            hovertext=[
                literal(f"{sq['id']}: {sq['reward']}") + ("" if sq["open"] else f" ({t('closed')})")
                for sq in squares
            ],
            hoverinfo="text",
            showlegend=False,
        )
    )
    for seat, player in enumerate(players):
        mine = [sq for sq in squares if sq.get("player") == player]
        fig.add_trace(
            go.Scatter(
                x=[sq["n"] for sq in mine],
                y=[-sq["region"] + 0.12 for sq in mine],
                mode="markers",
                name=literal(player),
                hoverinfo="text",
                text=[f"{literal(player)}: {t(sq['piece'])} {literal(sq['id'])}" for sq in mine],
                marker={
                    "size": 16,
                    "color": PALETTE[seat % len(PALETTE)],
                    "symbol": [SYMBOLS[sq["piece"]] for sq in mine],
                    "line": {"width": 1, "color": "#222"},
                },
            )
        )
    regions = sorted({sq["region"] for sq in squares})
    fig.update_layout(
        height=330,
        margin={"l": 5, "r": 5, "t": 28, "b": 5},
        plot_bgcolor="white",
        title={"text": t("main_board"), "font": {"size": 13}, "x": 0.01},
        xaxis={"visible": False},
        legend={"orientation": "h", "y": -0.05},
        yaxis={
            "tickvals": [-r for r in regions],
            "ticktext": [
                f"{t('region')} {r} ({literal(view['requirements'][r - 1])})" for r in regions
            ],
            "showgrid": False,
        },
    )
    return fig


def _paladin(me: dict[str, Any]) -> str:
    """The paladin as this view holds it: hidden from this seat, or known and marked while it
    is still face down to the others (PA-10, PA-11)."""
    paladin = me["private"]["paladin"]
    if paladin is None or paladin == HIDDEN:
        return "—" if paladin is None else t("hidden")
    return paladin if me["paladin"] else f"{paladin} ({t('hidden')})"


def side(view: dict[str, Any], players: list[str]) -> None:
    st.caption(
        f"{t('townsfolk')}: {', '.join(c or '—' for c in view['townsfolk'])}  \n"
        f"{t('outsiders')}: {', '.join(c or '—' for c in view['outsiders'])}  \n"
        f"{t('orders')}: {', '.join(view['orders']) or '—'} · {t('favours')}: "
        f"{', '.join(view['favours']) or '—'}"
    )
    columns: dict[str, list[str]] = {
        "": [
            t("paladin"),
            t("supply"),
            t("spaces"),
            "silver / prov",
            t("faith"),
            t("strength"),
            t("influence"),
            t("workshops"),
            t("pieces_placed"),
            t("team"),
            t("debts"),
            t("suspicion"),
            t("score"),
        ]
    }
    for player, me in view["seats"].items():
        columns[player] = [
            _paladin(me),
            ", ".join(f"{k} {c}" for c, k in me["supply"].items()) or "—",
            "; ".join(f"{s}: {'·'.join(w)}" for s, w in me["spaces"].items()) or "—",
            f"{me['silver']} / {me['provisions']}",
            *(
                f"{me['tracks'][a]} ({number(me['effective'][a])})"
                for a in ("faith", "strength", "influence")
            ),
            ", ".join(f"{a} {k}" for a, k in me["workshops"].items()) or "—",
            (
                f"{me['monks']} / {me['outposts']} / {len(me['walls'])} / {len(me['jars'])} / "
                f"{len(me['converts'])}"
            ),
            ", ".join(me["team"]) or "—",
            f"{me['debts']} ({me['repaid']} {t('repaid')})",
            str(me["suspicion"]),
            str(me["score"]) + (f" · {t('passed')}" if me["passed"] else ""),
        ]
    st.dataframe(pl.DataFrame(columns), hide_index=True)
    st.caption(t("paladins_caption"))
