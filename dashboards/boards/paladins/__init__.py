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

from dashboards.common import PALETTE, literal, number, plain
from dashboards.i18n import language, phase, t
from replay.game import HIDDEN

from . import words
from .sentences import sentences

__all__ = ["anchors", "caption", "component", "figure", "sentences", "side", "tables"]

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
            text=[literal(_short(sq["reward"], language())) for sq in squares],
            textfont={"size": 10},
            hovertext=[
                literal(f"{t('pa_field_reward')}: {words.gives(sq['reward'], language())}")
                + ("" if sq["open"] else f" ({t('closed')})")
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
                text=[
                    f"{literal(player)}: {t(sq['piece'])} · "
                    + literal(words.gives(sq["reward"], language()))
                    for sq in mine
                ],
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


def _short(reward: str, lang: str) -> str:
    """A square's reward drawn on it, short enough for its box: "1 silver/2 prov. · 1 VP"."""
    out = []
    for term in reward.split(" "):
        choices = []
        for choice in term.split("/"):
            digits = "".join(c for c in choice if c.isdigit())
            unit = choice[len(digits) :]
            choices.append(f"{digits} {t('pa_short_' + unit, lang)}".strip())
        out.append("/".join(choices))
    return " · ".join(out)


def _paladin(me: dict[str, Any], lang: str) -> str:
    """The paladin as this view holds it: hidden from this seat, or known and marked while it
    is still face down to the others (PA-10, PA-11)."""
    paladin = me["private"]["paladin"]
    if paladin is None or paladin == HIDDEN:
        return "—" if paladin is None else t("hidden", lang)
    named = words.name(paladin, lang)
    return named if me["paladin"] else f"{named} ({t('hidden', lang)})"


def _cards(kind: str, ids: list[str | None], lang: str) -> pl.DataFrame:
    """The cards of a display by name, with what each costs and does."""
    return pl.DataFrame(
        [
            {
                t("name", lang): words.name(card, lang) if card else "—",
                t("pa_col_detail", lang): words.detail(card, lang) if card else "",
            }
            for card in ids
        ],
        schema=[t("name", lang), t("pa_col_detail", lang)],
    )


def tables(view: dict[str, Any], players: list[str], lang: str) -> list[tuple[str, pl.DataFrame]]:
    """The displays and the king's cards by name with their effects, then a row a player: the
    page and the HTML export show these same tables."""
    out = [
        (t("townsfolk", lang), _cards("townsfolk", list(view["townsfolk"]), lang)),
        (t("outsiders", lang), _cards("outsider", list(view["outsiders"]), lang)),
        (
            f"{t('orders', lang)} · {t('favours', lang)}",
            _cards("order", [*view["orders"], *view["favours"]], lang),
        ),
    ]
    rows = []
    for player, me in view["seats"].items():
        rows.append(
            {
                t("player", lang): player,
                t("paladin", lang): _paladin(me, lang),
                t("score", lang): str(me["score"])
                + (f" · {t('passed', lang)}" if me["passed"] else ""),
                t("supply", lang): words.workers(
                    [c for c, k in me["supply"].items() for _ in range(k)], lang
                ),
                t("spaces", lang): "; ".join(
                    f"{t('event_' + s, lang)}: {words.workers(w, lang)}"
                    for s, w in me["spaces"].items()
                )
                or "—",
                t("pa_unit_silver", lang): me["silver"],
                t("pa_unit_prov", lang): me["provisions"],
                **{
                    t(a, lang): f"{me['tracks'][a]} ({number(me['effective'][a], lang)})"
                    for a in ("faith", "strength", "influence")
                },
                t("workshops", lang): ", ".join(
                    f"{t('event_' + a, lang)} {k}" for a, k in me["workshops"].items()
                )
                or "—",
                t("pieces_placed", lang): (
                    f"{me['monks']} / {me['outposts']} / {len(me['walls'])} / "
                    f"{len(me['jars'])} / {len(me['converts'])}"
                ),
                t("team", lang): ", ".join(words.name(c, lang) for c in me["team"]) or "—",
                t("debts", lang): f"{me['debts']} ({me['repaid']} {t('repaid', lang)})",
                t("suspicion", lang): me["suspicion"],
            }
        )
    out.append((t("paladins_caption", lang), pl.DataFrame(rows, strict=False)))
    return out


def side(view: dict[str, Any], players: list[str]) -> None:
    for title, frame in tables(view, players, language()):
        st.caption(plain(title))
        st.dataframe(frame, hide_index=True, width="stretch")


def component(item: str, lang: str) -> str:
    """A card or square as Balance lists it: by name, or by what it gives."""
    return words.name(item, lang)
