"""Match viewer: step through a stored match; the board, the seats, the events."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import polars as pl
import streamlit as st

from dashboards import queries
from dashboards.boards import board as board_package
from dashboards.common import (
    date_bounds,
    game_label,
    has_matches,
    origin_choice,
    perspective,
    perspective_switch,
    plain,
)
from dashboards.data import PLAYED, query, signature
from dashboards.export import match_html
from dashboards.i18n import language, t
from dashboards.match import load, snapshot
from dashboards.tables import show
from dashboards.timeline import figure as chances_figure
from dashboards.timeline import reviewed, turning_point_label
from ingest.analyses.review import Review
from replay.registry import GAMES

# The board, its steps and the chances below it fit a laptop's screen: less empty space above.
st.html("<style>[data-testid='stMainBlockContainer']{padding-top:2.5rem}</style>")
st.title(t("viewer"))
PLAYER_PAGE = Path(__file__).with_name("player.py")
FINDER_OPEN = "finder-open"  # the finder's expander: open or folded
if not has_matches():
    st.stop()


def _pick_match() -> None:
    chosen = st.session_state.get("finder")
    if chosen:
        st.session_state["game"] = chosen
        st.session_state["step"] = 0
        st.session_state[FINDER_OPEN] = False


def _finder() -> pl.DataFrame | None:
    """The finder's choices and the latest 500 matches they fit: the page's costliest
    queries at a million matches, so they run only while the finder is open. The matches
    found when nothing narrows them, else None."""
    c1, c2, c3, c4 = st.columns(4)
    game = c1.selectbox(
        t("game"),
        [None, *GAMES],
        format_func=lambda g: t("all") if g is None else game_label(g),
        key="finder-game",
    )
    player = c2.text_input(t("player"), key="finder-player")
    text = c3.text_input(t("id_contains"), key="finder-id")
    low, high = date_bounds()
    dates = c4.date_input(t("dates"), (low, high), key="finder-dates")
    origins, experiments = origin_choice(st, "finder-origin")
    first, until = dates if isinstance(dates, (tuple, list)) and len(dates) == 2 else (low, high)
    if (first, until) == (low, high):  # every match: asked as the home page asks, cached once
        first, until = date.min, date.max
    found = query(
        queries.MATCH_LIST,
        {
            "game": game,
            "id_contains": text,
            "first": first or date.min,
            "last": until or date.max,
            "player": player,
            "origins": origins,
            "experiments": experiments,
        },
    )
    labels = {
        row["game_id"]: f"{row['game_id']} — {row['player_names']} — {row['played']:%Y-%m-%d %H:%M}"
        for row in found.iter_rows(named=True)
    }
    st.selectbox(
        t("match"),
        [None, *labels],
        format_func=lambda g: "" if g is None else labels[g],
        key="finder",
        on_change=_pick_match,
        placeholder=t("choose_match"),
    )
    narrowed = (
        game
        or player
        or text
        or experiments
        or sorted(origins) != sorted(PLAYED)
        or (first, until) != (date.min, date.max)
    )
    return None if narrowed else found


# Once a match is open (chosen here, or by a link) the finder folds away: the board and
# its step controls are what a reader sees first. Its state is set once, not by `expanded`,
# so that a reader's own unfolding or folding stands.
if FINDER_OPEN not in st.session_state:
    asked = st.session_state.get("game") or st.query_params.get("game")
    st.session_state[FINDER_OPEN] = not asked
finder = st.expander(t("find"), key=FINDER_OPEN, on_change="rerun")
with finder:
    everything = _finder() if finder.open else None
    if not st.session_state.get("game"):  # the latest match; the finder's first, if it has it
        latest = everything if everything is not None else query(queries.LATEST_MATCH)
        st.session_state["game"] = latest["game_id"][0]
    game_id = st.text_input(t("match_id"), key="game", bind="query-params")


loaded = load(game_id)
if loaded is None:
    st.warning(t("no_match"))
    st.stop()
match, events = loaded.match, loaded.events
players = match.header.players
last = len(events)


def _move(delta: int) -> None:
    st.session_state["step"] = min(last, max(0, st.session_state.get("step", 0) + delta))


def _jump() -> None:
    target = st.session_state.get("jump")
    if target is not None:
        st.session_state["step"] = target


def _clicked() -> None:
    """A click on the chart moves the viewer to the step clicked."""
    chosen = st.session_state.get("chances")
    points = chosen.selection.points if chosen else []
    if points:
        st.session_state["step"] = min(last, max(0, int(points[0]["x"])))


def _to(target: int) -> None:
    st.session_state["step"] = target


def describe(fact: dict[str, object]) -> str:
    """One fact in words; every kind of fact the engines establish."""
    kind, who = fact["fact"], fact["player"]
    if kind == "score":
        return f"{who}: {t(str(fact['source']))} {fact['points']:+d}"
    if kind == "resource":
        return f"{who}: {t(str(fact['resource']))} {fact['delta']:+d} ({t(str(fact['cause']))})"
    if kind == "removed":
        return (
            f"{who} {t('removes')} {fact['count']} {t(str(fact['piece']))} "
            f"{t('of')} {fact['victim']} {fact['place']} ({t(str(fact['cause']))})"
        )
    if kind == "ranked":  # where the round ends: the track's leader, and where it stands
        return t("round_end_leader").format(
            track=t(str(fact["track"])), who=who, at=fact["progress"]
        )
    return (
        f"{who}: {t(str(fact['track']))} {fact['before']} → {fact['after']} "
        f"({t(str(fact['cause']))})"
    )


board_of = board_package(match.game.name)
anchors: dict[int, str] = board_of.anchors(events)

asked = st.query_params.get("step")
if asked is not None and (not asked.isdigit() or int(asked) > last):
    # A link to a step this match does not have: said, not silently replaced.
    st.warning(t("step_beyond").format(asked=plain(asked), last=last))
    st.session_state["step"] = last
if last:
    # The step controls in one row: with the finder folded, the board starts high on the screen.
    nav = st.columns([1.6, 1.3, 7, 3], vertical_alignment="center")
    nav[0].button(t("previous"), on_click=_move, args=(-1,), disabled=False, shortcut="Left")
    nav[1].button(t("next"), on_click=_move, args=(1,), shortcut="Right")
    nav[3].selectbox(
        t("jump"),
        [None, *anchors],
        format_func=lambda s: "—" if s is None else anchors[s],
        key="jump",
        on_change=_jump,
        label_visibility="collapsed",
    )
    if st.session_state.get("step", 0) > last:
        st.session_state["step"] = last
    with nav[2]:
        step = st.slider(
            t("step"), 0, last, key="step", bind="query-params", label_visibility="collapsed"
        )
    if loaded.result is not None and not loaded.result.complete:
        st.warning(t("log_stops").format(last=last))
else:
    # A log of its header alone has one state to show, its start: there is nothing to step
    # through (and Streamlit refuses a slider from 0 to 0).
    step = 0
    st.warning(t("no_events"))

# One perspective for every game with secrets: the engine's view of that player hides the rest.
seen_by = perspective(list(players)) if match.game.secrets else None
view = snapshot(game_id, step, signature(), seen_by)
assert view is not None
catalogue = f" · {t('catalogue')} {loaded.catalogue}" if loaded.catalogue else ""
# A match played under other rules than the game's standard ones says so (KA-21's advanced).
named = match.header.ruleset
ruleset = f" · {named}" if named and named != match.game.standard_ruleset else ""
st.caption(
    plain(
        f"{game_label(match.game.name)} · {match.header.variant}{ruleset}{catalogue} · "
        f"{board_of.caption(view)} · {t('start_player')}: {view['start_player']}"
    )
)

# Each seat's page: its player's, or the bot's that played it.
agents = match.header.agents or {}
neutral = getattr(match.header, "neutral", None)
seated = st.container(horizontal=True)
for who in players:
    if who != neutral:
        rated = agents.get(who) or who
        seated.page_link(
            PLAYER_PAGE,
            label=plain(who if rated == who else f"{who} ({rated})"),
            icon=":material/person:",
            query_params={"name": rated},
        )

current = events[step - 1] if step > 0 else None
chart = None
board, side = st.columns([3, 2])
if match.game.secrets:
    with side:
        perspective_switch(list(players))
with board:
    drawn = board_of.figure(view, players, current)
    st.plotly_chart(drawn, key="board")
    chances = reviewed(game_id)
    if isinstance(chances, str):
        st.caption(plain(chances))
    elif chances is not None:
        chart = chances_figure(chances, players, step)
        st.plotly_chart(
            chart,
            key="chances",
            on_select=_clicked,
            selection_mode="points",
            config={"displayModeBar": False},
        )
    expect = view["expecting"]
    if expect["kind"] == "nothing":
        st.success(t("game_over"))
    else:
        by = expect.get("decided_by")
        st.info(
            plain(
                f"{t('next_expected')}: {' / '.join(expect.get('kinds') or [expect['kind']])} — "
                f"{', '.join(expect['players'])}"
                + (f" ({t('by')} {by})" if by and by not in expect["players"] else "")
            )
        )

with side:
    if chances is not None and not isinstance(chances, str) and chances.turning_points:
        st.markdown(f"**{t('turning_points')}**", help=t("chances_help"))
        for i, point in enumerate(chances.turning_points):
            st.button(
                turning_point_label(point),
                key=f"turning-{i}",
                help=plain(str(point["what"])),
                on_click=_to,
                args=(point["step"],),
                type="tertiary",
            )
    board_of.side(view, players)


# The file is written only when the button is clicked, from what this run drew and in the
# language it drew it in (the click's callback runs outside the page's run).
shown = seen_by
lang = language()
replayed = loaded
heading = f"{game_label(match.game.name)} · {game_id}"
st.download_button(
    f"⬇ {t('download_html')}",
    lambda: match_html(
        title=heading,
        caption=f"{t('step', lang)} {step} / {last}"
        + (f" · {t('perspective', lang)}: {shown}" if shown else ""),
        board=drawn,
        chances=chart if isinstance(chances, Review) else None,
        reviewed=chances if isinstance(chances, Review) else None,
        result=replayed.result,
        players=list(players),
        sources=list(replayed.sources),
        lang=lang,
    ),
    f"{game_id}-step-{step}.html",
    "text/html",
    key="export",
)

below = getattr(board_of, "beneath", None)  # a game's own sections (Knight Academy's draft)
if below is not None:
    below(game_id, list(players), view, seen_by)

if current is not None and current["facts"]:
    st.subheader(t("facts"))
    for fact in current["facts"]:
        if fact["fact"] != "ranked" or fact["leads"]:  # of a round's ranking, its leaders
            st.markdown(plain("• " + describe(fact)))

st.subheader(t("events"))
window = range(max(0, step - 8), min(last, step + 8))
show(
    pl.DataFrame(
        [
            {
                "": "▶" if events[i]["index"] == step else "",
                "#": events[i]["index"],
                "line": events[i]["line"],
                t("round"): events[i]["round"],
                "kind": events[i]["kind"],
                t("player"): events[i]["player"],
                "event": events[i]["event"],
            }
            for i in window
        ]
    ),
    f"events-{game_id}",
)
