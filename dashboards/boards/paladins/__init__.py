"""The Paladins boards: the main board's regions and squares, each square showing what it
gives in words (monks ●, outposts ▲ in their player's colour, the square the current event
took outlined, where and what on hover); below it the seats' panel as tables — a row a
player (paladin, score, silver, provisions, tracks with their effective values), each
player's board (workers held and placed, workshops, pieces, team, walls, converts, debts,
suspicion), the displays and the king's cards by name with what each costs and does, the
tavern and the decks — drawn from a snapshot of the engine's view for the viewer's
perspective: the engine alone hides what a seat cannot see, and HIDDEN shows as hidden."""

from __future__ import annotations

import re
import textwrap
from typing import Any

import plotly.graph_objects as go
import polars as pl
import streamlit as st

from dashboards.common import PALETTE, held, literal, plain
from dashboards.i18n import language, phase, t
from dashboards.rounds import round_words
from dashboards.sentences import said
from replay.game import HIDDEN
from replay.games.paladins.catalogue import Catalogue

from . import words
from .sentences import sentences

__all__ = [
    "anchors",
    "caption",
    "component",
    "component_name",
    "figure",
    "sentences",
    "side",
    "tables",
]

SYMBOLS = {"monk": "circle", "outpost": "triangle-up"}
BOX_WIDTH = 12  # characters a line of a square's box holds on a phone


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
    return f"{round_words(view)} · {phase(view['phase'])}"


def figure(
    view: dict[str, Any], players: list[str], event: dict[str, Any] | None = None
) -> go.Figure:
    """The main board: a row per region, a column per square, each square showing what it
    gives in words, its place, the region's requirements and who stands on it on hover."""
    lang = language()
    raw = (event or {}).get("raw", {})
    taken = raw.get("square")
    squares = view["board"]
    needs = [_needs(text) for text in view["requirements"]]
    # The squares go to the layout at once: each add_shape validates every shape added
    # before it again (0.07 s for thirty squares, on every rerun of the viewer).
    fig = go.Figure(
        layout={
            "shapes": [
                {
                    "type": "rect",
                    "x0": sq["n"] - 0.47,
                    "x1": sq["n"] + 0.47,
                    "y0": -sq["region"] - 0.42,
                    "y1": -sq["region"] + 0.42,
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
            y=[-sq["region"] - 0.07 for sq in squares],
            mode="text",
            text=[_drawn(sq["reward"], lang) for sq in squares],
            textfont={"size": 9, "color": "#333"},
            hovertext=[literal(_square_hover(sq, needs, lang)) for sq in squares],
            hoverinfo="text",
            showlegend=False,
        )
    )
    for seat, player in enumerate(players):
        mine = [sq for sq in squares if sq.get("player") == player]
        fig.add_trace(
            go.Scatter(
                x=[sq["n"] - 0.3 for sq in mine],
                y=[-sq["region"] + 0.27 for sq in mine],
                mode="markers",
                name=literal(player),
                hoverinfo="text",
                hovertext=[literal(_square_hover(sq, needs, lang)) for sq in mine],
                marker={
                    "size": 12,
                    "color": PALETTE[seat % len(PALETTE)],
                    "symbol": [SYMBOLS[sq["piece"]] for sq in mine],
                    "line": {"width": 1, "color": "#222"},
                },
            )
        )
    regions = sorted({sq["region"] for sq in squares})
    fig.update_layout(
        height=90 + 72 * len(regions),
        margin={"l": 5, "r": 5, "t": 28, "b": 5},
        plot_bgcolor="white",
        title={"text": t("main_board", lang), "font": {"size": 13}, "x": 0.01},
        xaxis={"visible": False, "fixedrange": True},
        legend={"orientation": "h", "y": -0.02},
        yaxis={
            "tickvals": [-r for r in regions],
            "ticktext": [_region_tick(r, needs, lang) for r in regions],
            "showgrid": False,
            "zeroline": False,
            "fixedrange": True,
            "automargin": True,
            "tickfont": {"size": 10},
        },
    )
    return fig


def _drawn(reward: str, lang: str) -> str:
    """What a square gives, as drawn in its box: a line a thing ("1 silver", "2 provisions"),
    a long one wrapped to fit a phone's box ("1 white" / "worker"), the VP last; the whole
    sentence ("1 silver, 2 provisions · 1 VP") is its hover."""
    lines = [
        line
        for part in words.gives_parts(reward, lang)
        for thing in part.split(t("pa_comma", lang))
        for line in textwrap.wrap(thing, BOX_WIDTH, break_long_words=False)
    ]
    return "<br>".join(literal(line) for line in lines) or literal(t("pa_nothing", lang))


def _needs(text: str) -> tuple[int, int] | None:
    """A region's faith (monks) and strength (outposts) requirements, read from the view's
    "faith 2 / strength 3"."""
    found = [int(n) for n in re.findall(r"\d+", text)]
    return (found[0], found[1]) if len(found) == 2 else None


def _region_tick(region: int, needs: list[tuple[int, int] | None], lang: str) -> str:
    head = t("pa_region_tick", lang).format(region=region)
    need = needs[region - 1] if region <= len(needs) else None
    if need is None:
        return head
    return head + "<br>" + t("pa_region_short", lang).format(faith=need[0], strength=need[1])


def _square_hover(sq: dict[str, Any], needs: list[tuple[int, int] | None], lang: str) -> str:
    """A square on hover: where, what it gives, what a monk or an outpost there needs, who
    stands on it (or that this table does not use it)."""
    parts = [
        t("pa_square_at", lang).format(region=sq["region"], n=sq["n"]),
        words.gives(sq["reward"], lang),
    ]
    need = needs[sq["region"] - 1] if sq["region"] <= len(needs) else None
    if need is not None:
        parts.append(t("pa_region_needs", lang).format(faith=need[0], strength=need[1]))
    if "player" in sq:
        parts.append(said("pa_on_square", lang, who=sq["player"], piece=t(sq["piece"], lang)))
    if not sq["open"]:
        parts.append(t("closed", lang))
    return " · ".join(parts)


def _paladin(me: dict[str, Any], lang: str) -> str:
    """The paladin as this view holds it: hidden from this seat, or known and marked while it
    is still face down to the others (PA-10, PA-11)."""
    paladin = me["private"]["paladin"]
    if paladin is None or paladin == HIDDEN:
        return "—" if paladin is None else t("hidden", lang)
    named = words.name(paladin, lang)
    return named if me["paladin"] else f"{named} ({t('hidden', lang)})"


def _effective(value: Any, lang: str) -> str:
    """An effective value, or hidden where the paladin adding to it is (PA-12)."""
    return t("hidden", lang) if value is None or value == HIDDEN else str(value)


def _frame(rows: list[dict[str, Any]], columns: list[str]) -> pl.DataFrame:
    """A table of `rows` with these columns in this order, even with no row; numbers stay
    numbers, the rest text."""
    schema = {
        c: pl.Int64 if rows and all(isinstance(r.get(c), int) for r in rows) else pl.String
        for c in columns
    }
    return pl.DataFrame(
        [
            [row.get(c) if schema[c] == pl.Int64 else _text(row.get(c)) for c in columns]
            for row in rows
        ],
        schema=schema,
        orient="row",
    )


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _seat(me: dict[str, Any], lang: str) -> pl.DataFrame:
    """One player's board, a row a thing (narrow enough for a phone): the paladin with what it
    does, workers held and placed, workshops, pieces, each townsfolk of the team, wall and
    convert with what it gives or scores, the outsiders attacked, debts, suspicion."""
    what, detail = t("pa_col_what", lang), t("pa_col_detail", lang)
    colon = t("pa_colon", lang)
    rows: list[dict[str, Any]] = []

    def row(key: str, text: str) -> None:
        rows.append({what: t(key, lang), detail: text or "—"})

    paladin = me["private"]["paladin"]
    shown = _paladin(me, lang)
    if paladin not in (None, HIDDEN):
        shown = f"{shown}{colon}{words.effect(paladin, lang)}"
    row("pa_row_paladin", shown)
    supply = [c for c, k in me["supply"].items() for _ in range(k)]
    row("pa_row_supply", words.workers(supply, lang) if supply else "")
    row(
        "pa_row_spaces",
        t("pa_semicolon", lang).join(
            f"{words.act(space, lang)}{colon}{words.workers(w, lang)}"
            for space, w in me["spaces"].items()
        ),
    )
    row(
        "pa_row_workshops",
        t("pa_comma", lang).join(
            f"{words.act(a, lang)}{colon}{k}" for a, k in me["workshops"].items()
        ),
    )
    row(
        "pa_row_pieces",
        t("pa_pieces", lang).format(
            monks=me["monks"],
            outposts=me["outposts"],
            walls=len(me["walls"]),
            jars=len(me["jars"]),
            converts=len(me["converts"]),
        ),
    )
    for card in me["team"]:
        row("pa_row_team", f"{words.name(card, lang)}{colon}{words.effect(card, lang)}")
    for card in me["walls"]:
        row("pa_row_wall", words.gives(_reward(card), lang))
    for card in me["converts"]:
        row("pa_row_convert", f"{words.name(card, lang)}{colon}{words.effect(card, lang)}")
    if me["attacked"]:
        row(
            "pa_row_attacked",
            held([words.name(c, lang) if c != HIDDEN else c for c in me["attacked"]], lang=lang),
        )
    if me["jars"]:
        row("pa_row_jars", t("pa_comma", lang).join(str(spot) for spot in me["jars"]))
    row("pa_row_debts", t("pa_debts", lang).format(unpaid=me["debts"], repaid=me["repaid"]))
    row("pa_row_suspicion", str(me["suspicion"]))
    return _frame(rows, [what, detail])


def _reward(card: str) -> str:
    """A wall's reward as the catalogue writes it (its id where no catalogue holds it)."""
    found = words.entry(card)
    return str(found[1].entry("wall", card).reward) if found and found[0] == "wall" else card


def tables(view: dict[str, Any], players: list[str], lang: str) -> list[tuple[str, pl.DataFrame]]:
    """The seats' panel as titled tables, headers in `lang`: the page and the HTML export show
    these same. First a row a player (paladin, score, silver, provisions, tracks with their
    effective values), then each player's board as a table of its own, then the displays and
    the king's cards by name with what each costs and does, the tavern and the decks."""
    player, paladin, score = t("player", lang), t("paladin", lang), t("score", lang)
    silver, provisions = t("pa_col_silver", lang), t("pa_col_provisions", lang)
    tracks = [t(a, lang) for a in ("faith", "strength", "influence")]
    passed = t("pa_col_passed", lang)
    seats = view["seats"]
    rows = [
        {
            player: who,
            paladin: _paladin(me, lang),
            score: me["score"],
            silver: me["silver"],
            provisions: me["provisions"],
            **{
                label: t("pa_effective", lang).format(
                    track=me["tracks"][a], effective=_effective(me["effective"][a], lang)
                )
                for label, a in zip(tracks, ("faith", "strength", "influence"), strict=True)
            },
            passed: "✓" if me["passed"] else "",
        }
        for who, me in ((p, seats[p]) for p in players if p in seats)
    ]
    columns = [player, paladin, score, silver, provisions, *tracks, passed]
    out = [(t("paladins_caption", lang), _frame(rows, columns))]
    out += [
        (said("pa_title_seat", lang, who=who), _seat(seats[who], lang))
        for who in players
        if who in seats
    ]
    name, cost, effect = t("name", lang), t("pa_col_cost", lang), t("pa_col_effect", lang)
    slot, needs = t("pa_col_slot", lang), t("pa_col_needs", lang)
    out.append(
        (
            t("townsfolk", lang),
            _frame(
                [_card(card, lang, {slot: i}, cost) for i, card in enumerate(view["townsfolk"], 1)],
                [slot, name, cost, effect],
            ),
        )
    )
    out.append(
        (
            t("outsiders", lang),
            _frame(
                [
                    _card(card, lang, {slot: i}, needs)
                    for i, card in enumerate(view["outsiders"], 1)
                ],
                [slot, name, needs, effect],
            ),
        )
    )
    kind, used = t("kind", lang), t("pa_col_on_it", lang)
    king = [
        {**_card(card, lang, {kind: t("pa_order_n", lang).format(n=i)}, cost)}
        for i, card in enumerate(view["orders"], 1)
    ] + [
        {
            **_card(card, lang, {kind: t("pa_favour_card", lang)}, cost),
            used: t("pa_comma", lang).join(on) or "",
        }
        for card, on in view["favours"].items()
    ]
    out.append((t("pa_title_king", lang), _frame(king, [name, kind, cost, effect, used])))
    crew, taker = t("pa_col_workers", lang), t("pa_col_taken_by", lang)
    tavern = [
        {crew: words.price(card, lang), taker: who or ""} for card, who in view["tavern"].items()
    ]
    if tavern:
        out.append((t("pa_title_tavern", lang), _frame(tavern, [crew, taker])))
    deck, left = t("pa_col_deck", lang), t("pa_col_left", lang)
    decks = [{deck: t(f"pa_deck_{d}", lang), left: k} for d, k in view["decks"].items()]
    out.append((t("pa_title_decks", lang), _frame(decks, [deck, left])))
    return out


def _card(card: str | None, lang: str, first: dict[str, Any], price: str) -> dict[str, Any]:
    """A card's row: by name, with its price (cost, or what an outsider needs) and effect; an
    empty display slot as such."""
    name, effect = t("name", lang), t("pa_col_effect", lang)
    if not card:
        return {**first, name: t("pa_empty_slot", lang), price: "", effect: ""}
    return {
        **first,
        name: words.name(card, lang),
        price: words.price(card, lang),
        effect: words.effect(card, lang),
    }


def side(view: dict[str, Any], players: list[str]) -> None:
    for title, frame in tables(view, players, language()):
        if title:
            st.caption(plain(title))
        st.dataframe(frame, hide_index=True, width="stretch")


def component(item: str, lang: str) -> str:
    """A card or square as Balance lists it: by name, or by what it gives."""
    return words.name(item, lang)


def component_name(item: str, lang: str, catalogue: Catalogue | None = None) -> str | None:
    """A card or square as the move log names it; None for a word no catalogue holds (of
    `catalogue`, where one is given)."""
    return words.name(item, lang, catalogue) if words.entry(item, catalogue) else None
