"""Knight Academy's sections beyond the board: the viewer's grid of a round's draft (KA-5) as the
table saw it, and Balance's cards with their hate-drafts across matches (`draft` reconstructs
and values the picks)."""

from __future__ import annotations

from typing import Any

import polars as pl
import streamlit as st

from dashboards import queries
from dashboards.common import plain, where
from dashboards.data import Filters, query, signature
from dashboards.i18n import language, t
from dashboards.match import load
from dashboards.stats import with_wilson
from dashboards.tables import show
from ingest.files.read import rebuilt
from replay.replayer import open_log

from .draft import Round, by_card, by_seat, drafts, grid, hate_drafts, kept_seen
from .sentences import card

# Balance values the draft of this many of the selection's latest matches: each is replayed
# and every pick valued, about a millisecond a match.
LATEST = 300
NO_BREAK = "\u00a0"


@st.cache_resource(max_entries=64, show_spinner=False)
def _drafts(game_id: str, signature_: str) -> list[Round]:
    loaded = load(game_id)
    return drafts(loaded.match) if loaded is not None else []


def beneath(
    game_id: str, players: list[str], view: dict[str, Any], perspective: str | None
) -> None:
    """The round's draft, the viewer's round first; hidden cards as the perspective hides them."""
    current = view["round"]
    rounds = _drafts(game_id, signature())
    if not rounds:
        return
    st.subheader(t("draft"))
    numbers = [r.round for r in rounds]
    chosen = st.pills(
        t("round"),
        numbers,
        default=current if current in numbers else numbers[0],
        key=f"draft-round-{game_id}-{current}",  # a new round of the viewer starts at its own
    )
    rnd = next((r for r in rounds if r.round == chosen), rounds[0])
    lang = language()
    # A card's name kept on one line where a cell's cards wrap (no-break spaces: "Sword 3").
    rows = grid(
        rnd, players, perspective, t("hidden"), lambda c: card(c, lang).replace(" ", NO_BREAK)
    )
    # The file a row a seat's cell ("dealt", or the pick's number): the table's own columns
    # are the players.
    cells = (
        pl.DataFrame(rows)
        .select("", *[p for p in players if p in rows[0]])
        .rename({"": "pick"})
        .unpivot(index="pick", variable_name="player", value_name="cards")
        .with_columns(pl.col("cards").str.replace_all(NO_BREAK, " ", literal=True))
    )
    for row in rows:
        row[""] = t("dealt") if row[""] == "dealt" else f"{t('pick')} {row['']}"
    frame = pl.DataFrame(rows).select("", *[p for p in players if p in rows[0]])
    passes = {pick.player: pick.passed_to for pick in rnd.picks if pick.number == 1}
    st.caption(
        plain(
            t("draft_caption")
            + " "
            + ", ".join(f"{who} → {to}" for who, to in passes.items() if to is not None)
        )
    )
    # A cell holds a hand of cards: each seat's column as wide as a laptop's page shares out
    # (about 900 px beside the sidebar), the cards wrapped over up to three lines.
    seats = frame.columns[1:]
    share = min(220, 820 // max(1, len(seats)))
    show(
        frame,
        f"draft-{game_id}-{rnd.round}",
        files=cells,
        widths=dict.fromkeys(seats, share),
        row_height=72,
    )
    hates = [p for p in rnd.picks if p.hate and kept_seen(p, perspective)]
    if hates:
        show(
            pl.DataFrame(
                [
                    {
                        "pick": p.number,
                        "player": p.player,
                        "card": card(p.card, lang),
                        "worth_own": round(p.worth, 2),
                        "worth_next": round(p.worth_next, 2),
                        "passed_to": p.passed_to,
                        "best_own": round(p.best, 2),
                    }
                    for p in hates
                ]
            ),
            f"hate-{game_id}-{rnd.round}",
        )


@st.cache_data(ttl=600, show_spinner=False, max_entries=32)
def _hate_picks(sql: str, params: tuple[tuple[str, object], ...], signature_: str) -> pl.DataFrame:
    chosen = query(sql, dict(params))
    if chosen.is_empty():
        return hate_drafts([])
    ids = chosen["game_id"].to_list()
    lines = dict(
        query(queries.EVENT_LINES, {"low": min(ids), "high": max(ids), "ids": ids}).iter_rows()
    )
    matches = []
    for game_id, header, seated, winners in chosen.iter_rows():
        match = open_log(rebuilt(header, lines.get(game_id, [])), game_id)
        matches.append((game_id, drafts(match), set(seated or []), set(winners or [])))
    return hate_drafts(matches)


def balance_section(flt: Filters) -> None:
    """How often each card is hate-drafted; how seats that do it often fare."""
    st.subheader(t("hate_drafts"))
    # Replaying the matches costs more than the rest of the page together: asked for, not
    # run at every visit (the choice stays in the address, so a shared link shows them).
    if not st.toggle(t("hate_find").format(latest=LATEST), key="hate-drafts", bind="query-params"):
        return
    sql, params = where(flt, queries.LATEST_MATCHES_SEATED, limit=LATEST)
    with st.spinner(t("hate_drafts")):
        picks = _hate_picks(sql, tuple(sorted(params.items())), signature())
    if picks.is_empty():
        return
    matches = picks["game_id"].n_unique()
    st.caption(plain(t("hate_caption").format(matches=matches, latest=LATEST)))
    seats = by_seat(picks).with_columns(
        pl.col("often").replace_strict(
            {True: t("often"), False: t("rarely")}, return_dtype=pl.String
        ),
        # the share of its seats that won, so this many of them
        (pl.col("win_rate") * pl.col("seats")).round().cast(pl.Int64).alias("wins"),
    )
    seats = with_wilson(seats, "wins", "seats").select(
        pl.col("often").alias("hate_drafts"),
        "seats",
        "wins",
        "win_rate",
        "interval_low",
        "interval_high",
        "fair_share",
    )
    show(seats, "hate-seats")
    show(with_wilson(by_card(picks), "hate_drafts", "picks"), "hate-cards")


def balance(flt: Filters) -> None:
    """Balance's section on the cards: how each is picked and played, and the hate-drafts."""
    st.subheader(t("card"))
    st.caption(t("picks_caption"))
    sql, params = where(flt, queries.ITEMS, pick="pick", play="play")
    cards = query(sql, params).rename({"item": "card", "item_type": "type"})
    # Every take has its place in the round (ingest numbers them), so the early pick rate is
    # of the picks too.
    for rate, hits, n in (
        ("early_pick_rate", "early_picks", "picks"),
        ("win_rate_when_picked", "wins_when_picked", "picks"),
        ("win_rate_when_played", "wins_when_played", "plays"),
    ):
        cards = with_wilson(cards, hits, n, f"{rate}_low", f"{rate}_high")
    # A table for each question, so that none scrolls sideways at a laptop's width: how a
    # card is picked, how the seats that picked it fared, and those that played it.
    show(
        cards.select(
            "card",
            "type",
            "value",
            "picks",
            "mean_pick_position",
            "early_pick_rate",
            "early_pick_rate_low",
            "early_pick_rate_high",
        ),
        "draft-cards",
    )
    for action, n in (("picked", "picks"), ("played", "plays")):
        rate = f"win_rate_when_{action}"
        show(
            cards.filter(pl.col(n) > 0).select("card", n, rate, f"{rate}_low", f"{rate}_high"),
            f"draft-cards-{action}",
        )
    balance_section(flt)
