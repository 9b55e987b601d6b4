"""The Albus Academy boards: each player's 3 × 4 board, one under another at the figure's full
width, its tiles told by what they do, connector halves on their edges, whole links drawn
between positions, exhausted positions greyed and the position the current event touched
outlined; each position's words, connectors and state on hover. Below the boards, the seats'
panel as tables (`tables`): the cast in progress, each seat's will, shards and prestige, its
homework by catalogue name with cost and effect, the public tiles and homework, the bag and
the deck. All drawn from the engine's view for the viewer's perspective: private homework it
may not see arrives as HIDDEN, shown hidden."""

from __future__ import annotations

from typing import Any

import plotly.graph_objects as go
import polars as pl
import streamlit as st
from plotly.subplots import make_subplots

from dashboards.common import literal, plain
from dashboards.i18n import language, phase, t
from dashboards.rounds import round_words
from dashboards.sentences import said
from replay.game import HIDDEN
from replay.games.albus_academy.catalogue import CORNERS, Catalogue

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

HALF = {0: (0.0, 0.40), 1: (0.42, 0.0), 2: (0.0, -0.40), 3: (-0.42, 0.0)}  # N E S W
BOARD_HEIGHT = 250  # px a board: three rows of cells holding three lines of words each
GAP = 56  # px between boards, their titles in it


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
    # Round 0 is the setup: its phase would say the same word again.
    shown = [] if view["phase"] == "setup" else [phase(view["phase"])]
    return " · ".join([round_words(view), *shown, view["turn_of"]])


def _size(view: dict[str, Any]) -> tuple[int, int]:
    """Rows and columns of the boards (the ruleset may change them)."""
    cells = next(iter(view["seats"].values()))["board"]
    return 1 + max(c["at"][0] for c in cells), 1 + max(c["at"][1] for c in cells)


def _hover(cell: dict[str, Any], rows: int, cols: int, lang: str) -> str:
    """A position in words, what shows there and what it does, its connector halves."""
    lines = [words.capital(words.position(cell["at"], rows, cols, lang))]
    if cell["tile"] is None:
        lines.append(t("aa_empty", lang))
    else:
        does = words.capital(words.tile_words(cell["actions"], lang))
        corner = cell["tile"] in CORNERS
        lines.append(does + (f" ({t('aa_start_action', lang)})" if corner else ""))
        edges = words.sides(cell["edges"], lang)
        lines.append(
            said("aa_hover_connectors", lang, sides=edges) if edges else t("aa_no_connectors", lang)
        )
        if cell["exhausted"]:
            lines.append(t("exhausted", lang))
    return "<br>".join(words.capital(line) for line in lines)


def figure(
    view: dict[str, Any], players: list[str], event: dict[str, Any] | None = None
) -> go.Figure:
    """The boards one under another: at a phone's width a board keeps the whole width, and
    its cells their words."""
    lang = language()
    raw = (event or {}).get("raw", {})
    touched = tuple(raw["at"]) if raw.get("at") else None
    actor = raw.get("player")
    rows, cols = _size(view)
    n = len(players)
    height = n * BOARD_HEIGHT + (n - 1) * GAP + 40
    titles = []
    for player in players:
        me = view["seats"][player]
        titles.append(
            f"{literal(player)} · {t('prestige', lang)} {me['score']} · "
            f"{t('will', lang)} {me['will']} · {t('shards', lang)} {me['shards']}"
        )
    fig = make_subplots(
        rows=n, cols=1, subplot_titles=titles, vertical_spacing=GAP / height if n > 1 else 0
    )
    # The shapes go to the layout at once: each add_shape validates every shape added before
    # it again, which cost a rerun of the viewer 0.2 s for four boards.
    shapes: list[dict[str, Any]] = []
    for i, player in enumerate(players, 1):
        axes = {"xref": f"x{i if i > 1 else ''}", "yref": f"y{i if i > 1 else ''}"}
        seat = view["seats"][player]
        xs, ys, labels, hovers, colours = [], [], [], [], []
        hx, hy = [], []
        for cell in seat["board"]:
            r, c = cell["at"]
            x, y = c, -r
            outline = touched == (r, c) and actor == player
            shapes.append(
                {
                    "type": "rect",
                    "x0": x - 0.46,
                    "x1": x + 0.46,
                    "y0": y - 0.46,
                    "y1": y + 0.46,
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
            xs.append(x)
            ys.append(y)
            labels.append(words.tile_label(cell["actions"], lang))
            hovers.append(_hover(cell, rows, cols, lang))
            colours.append("#666" if cell["exhausted"] else "#222")
            for edge, mark in enumerate(cell["edges"] or ""):
                if mark != "-":
                    dx, dy = HALF[edge]
                    hx.append(x + dx)
                    hy.append(y + dy)
            link = {"type": "line", "line": {"color": "#7b3fa0", "width": 5}, **axes}
            if cell["link_east"]:
                shapes.append({**link, "x0": x + 0.38, "x1": x + 0.62, "y0": y, "y1": y})
            if cell["link_south"]:
                shapes.append({**link, "x0": x, "x1": x, "y0": y - 0.36, "y1": y - 0.64})
        fig.add_trace(
            go.Scatter(
                x=hx,
                y=hy,
                mode="markers",
                showlegend=False,
                hoverinfo="skip",
                marker={"size": 7, "color": "#7b3fa0"},
            ),
            row=i,
            col=1,
        )
        # An invisible square under each cell's words: the hover answers anywhere in the cell.
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ys,
                mode="markers+text",
                text=labels,
                hovertext=hovers,
                hoverinfo="text",
                showlegend=False,
                textfont={"size": 12, "color": colours},
                marker={"size": 44, "symbol": "square", "opacity": 0},
            ),
            row=i,
            col=1,
        )
        fig.update_xaxes(visible=False, range=[-0.52, cols - 0.48], fixedrange=True, row=i, col=1)
        fig.update_yaxes(visible=False, range=[-rows + 0.48, 0.52], fixedrange=True, row=i, col=1)
    fig.update_annotations(font={"size": 14})
    fig.update_layout(
        shapes=shapes,
        height=height,
        margin={"l": 4, "r": 4, "t": 32, "b": 4},
        plot_bgcolor="white",
        hoverlabel={"align": "left"},
    )
    return fig


# The seats' panel.


def _frame(
    rows: list[dict[str, Any]], columns: list[str], numbers: tuple[str, ...] = ()
) -> pl.DataFrame:
    """A table of `rows` with these columns in this order, even with no row."""
    schema = {c: pl.Int64 if c in numbers else pl.String for c in columns}
    return pl.DataFrame(
        [[row.get(c) for c in columns] for row in rows], schema=schema, orient="row"
    )


def _hidden(names: list[str], lang: str) -> list[str]:
    """The cards a view names, and those it keeps face down counted in one entry."""
    backs = names.count(HIDDEN)
    shown = [name for name in names if name != HIDDEN]
    return shown + ([words.counted("aa_hidden_cards", backs, lang)] if backs else [])


def _card(cat: Catalogue | None, card: str, lang: str) -> dict[str, Any]:
    """A homework card's columns: its name, kind, cost, prestige and what it does (an entry
    the catalogue does not hold, such as a count of hidden cards, by its name alone)."""
    found = words.card(cat, card)
    if found is None:
        return {t("name", lang): card}
    return {
        t("name", lang): words.name(cat, card, lang),
        t("kind", lang): words.kind(cat, card, lang),
        t("aa_col_cost", lang): words.cost(cat, card, lang),
        t("prestige", lang): found.prestige,
        t("aa_col_effect", lang): words.does(cat, card, lang) or "—",
    }


def tables(view: dict[str, Any], players: list[str], lang: str) -> list[tuple[str, pl.DataFrame]]:
    """The seats' panel as titled tables, headers in `lang`: the page and the export show the
    same. A card is named by the catalogue, with its cost and what it does beside it; a tile
    by what it does."""
    cat = words.catalogue_for(view)
    rows, cols = _size(view)

    def where(at: list[int]) -> str:
        return words.position(at, rows, cols, lang)

    player, name, kind, cost, prestige, effect = (
        t(key, lang)
        for key in ("player", "name", "kind", "aa_col_cost", "prestige", "aa_col_effect")
    )
    out: list[tuple[str, pl.DataFrame]] = []
    casting = view.get("casting")
    if casting:
        board = view["seats"][view["turn_of"]]["board"]
        top = next((c for c in board if c["at"] == casting["at"]), None)
        row = {
            player: view["turn_of"],
            t("aa_col_position", lang): words.capital(where(casting["at"])),
            t("aa_col_tile", lang): words.tile_words(top["actions"], lang) if top else "—",
            t("aa_col_done", lang): t("aa_comma", lang).join(
                words.action(a, lang) for a in casting["done"]
            )
            or "—",
            t("aa_col_may_trigger", lang): t("aa_semicolon", lang).join(
                where(p) for p in casting["may_trigger"]
            )
            or "—",
        }
        out.append((t("casting", lang), _frame([row], list(row))))
    seats = view["seats"]
    numbers = (prestige, *(t(k, lang) for k in ("will", "shards", "homework", "private_homework")))
    table = [
        {
            player: who,
            prestige: me["score"],
            t("will", lang): me["will"],
            t("shards", lang): me["shards"],
            t("homework", lang): len(me["spells"]) + len(me["items"]),
            t("private_homework", lang): len(me["private"]["homework"]),
            t("class_dismissed", lang): "✓" if me["class_dismissed"] else "",
        }
        for who, me in ((p, seats[p]) for p in players)
    ]
    out.append((t("aa_title_seats", lang), _frame(table, list(table[0]), numbers)))
    # A table a seat, narrow enough for a phone: the card's kind goes with where it is.
    status = t("aa_col_where", lang)
    tokens = t("aa_col_tokens", lang)
    for who in players:
        me = seats[who]
        held: list[dict[str, Any]] = []
        for card in _hidden(me["private"]["homework"], lang):
            found = words.card(cat, card)
            place = f"aa_in_hand_{found.kind}" if found is not None else "aa_in_hand"
            held.append({status: t(place, lang), **_card(cat, card, lang)})
        for card in [*me["spells"], *me["items"]]:
            found = words.card(cat, card)
            place = f"aa_done_{found.kind}" if found is not None else "aa_done"
            row = {status: t(place, lang), **_card(cat, card, lang)}
            held.append({**row, tokens: me["tokens"].get(card) or None})
        columns = [status, name, cost, prestige, effect]
        if me["tokens"]:
            columns.append(tokens)
        title = said("aa_title_homework", lang, who=who)
        out.append((title, _frame(held, columns, (prestige, tokens))))
    public = [_card(cat, card, lang) for card in view["public_homework"]]
    out.append(
        (
            t("public_homework", lang),
            _frame(public, [name, kind, cost, prestige, effect], (prestige,)),
        )
    )
    tiles = [
        {
            t("aa_col_tile", lang): _tile(cat, tile, lang),
            t("aa_col_connectors", lang): _edges(cat, tile, lang),
        }
        for tile in view["public_tiles"]
    ]
    out.append(
        (
            t("public_tiles", lang),
            _frame(tiles, [t("aa_col_tile", lang), t("aa_col_connectors", lang)]),
        )
    )
    supply: dict[str, Any] = {
        t("aa_col_bag", lang): view["bag"],
        t("aa_col_deck", lang): view["deck"],
    }
    if view.get("taken"):
        supply[t("aa_col_taken", lang)] = t("aa_semicolon", lang).join(
            _tile(cat, tile, lang) for tile in view["taken"]
        )
    out.append(
        ("", _frame([supply], list(supply), (t("aa_col_bag", lang), t("aa_col_deck", lang))))
    )
    return out


def _tile(cat: Catalogue | None, tile: str, lang: str) -> str:
    found = cat.tiles.get(tile) if cat is not None else None
    return words.tile_words(found.actions, lang) if found is not None else tile


def _edges(cat: Catalogue | None, tile: str, lang: str) -> str:
    found = cat.tiles.get(tile) if cat is not None else None
    if found is None:
        return ""
    return words.sides(found.edges, lang) or t("aa_no_connectors", lang)


def side(view: dict[str, Any], players: list[str]) -> None:
    for title, frame in tables(view, players, language()):
        if title:
            st.caption(plain(title))  # a seat's table is titled with its player's name
        st.dataframe(frame, hide_index=True, width="stretch")


def component(item: str, lang: str) -> str:
    """A component as Balance lists it: a homework card by its catalogue name, a tile by what
    it does; the first catalogue on disk that holds the id names it (its id where none does)."""
    for cat in words.candidates():
        if item in cat.homework:
            return words.phrase(cat, item, lang)
        if item in cat.tiles:
            return words.tile_words(cat.tiles[item].actions, lang)
    return item


def component_name(item: str, lang: str, catalogue: Catalogue | None = None) -> str | None:
    """A homework card or a tile as the move log names them ("the spell Tempest", "the tile
    (will or shard)"); None for a word that is neither (in `catalogue`, where one is given;
    else in the first catalogue found that holds it)."""
    for cat in [catalogue] if catalogue is not None else words.candidates():
        if item in cat.homework:
            return words.phrase(cat, item, lang)
        if item in cat.tiles:
            does = words.tile_words(cat.tiles[item].actions, lang)
            return t("aa_the_tile", lang).format(what=does)
    return None
