"""Match viewer: step through a stored match; the board, the seats, the events."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import polars as pl
import streamlit as st

from dashboards import analysed, queries
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
from dashboards.match import load, sentences, snapshot
from dashboards.rounds import heading as step_heading
from dashboards.rulesets import played_under
from dashboards.stepper import move_log, moved
from dashboards.timeline import figure as chances_figure
from dashboards.timeline import reviewed, turning_point_label
from dashboards.visitor import say_why_not
from dashboards.visitor import who as visitor
from ingest.analyses import moves
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


# A match is always open (chosen here, by a link, or else the latest), so the finder starts
# folded: the board and its step controls are what a reader sees first, on a phone too.
# Its state is set once, not by `expanded`, so that a reader's own unfolding or folding
# stands.
if FINDER_OPEN not in st.session_state:
    st.session_state[FINDER_OPEN] = False
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
LOG = "move-log"  # the move log: its rows, the arrow keys and autoplay
ACKED = "move-log-acked"  # the sequence number of the last move the page took from it


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


def _logged() -> None:
    """A row of the move log clicked, an arrow key pressed or autoplay's next step."""
    asked = moved(LOG)
    if asked is not None:
        to, seq = asked
        st.session_state["step"] = min(last, max(0, to))
        st.session_state[ACKED] = seq


def _to(target: int) -> None:
    st.session_state["step"] = target


board_of = board_package(match.game.name)
anchors: dict[int, str] = board_of.anchors(events)

asked = st.query_params.get("step")
if asked is not None and (not asked.isdigit() or int(asked) > last):
    # A link to a step this match does not have: said, not silently replaced.
    st.warning(t("step_beyond").format(asked=plain(asked), last=last))
    st.session_state["step"] = last
playing = False
if last:
    # The step controls in one row that wraps on a phone: each button as wide as its words.
    nav = st.container(horizontal=True, vertical_alignment="center")
    nav.button(t("previous"), on_click=_move, args=(-1,), help=t("keys_help"))
    nav.button(t("next"), on_click=_move, args=(1,), help=t("keys_help"))
    if st.session_state.get("step", 0) > last:
        st.session_state["step"] = last
    with nav:
        step = st.slider(
            t("step"),
            0,
            last,
            key="step",
            bind="query-params",
            label_visibility="collapsed",
            width="stretch",
        )
    playing = nav.toggle(t("autoplay"), key="autoplay", width="content")
    speed = nav.select_slider(
        t("speed"),
        options=[2000, 1000, 500, 250],
        value=1000,
        format_func=lambda ms: t("per_second").format(n=f"{1000 / ms:g}"),
        help=t("speed"),
        key="speed",
        label_visibility="collapsed",
        width=140,
    )
    nav.selectbox(
        t("jump"),
        [None, *anchors],
        format_func=lambda s: t("jump") if s is None else anchors[s],
        key="jump",
        on_change=_jump,
        label_visibility="collapsed",
        width=220,
    )
    if loaded.result is not None and not loaded.result.complete:
        st.warning(t("log_stops").format(last=last))
else:
    # A log of its header alone has one state to show, its start: there is nothing to step
    # through (and Streamlit refuses a slider from 0 to 0).
    step, speed = 0, 1000
    st.warning(t("no_events"))

# One perspective for every game with secrets: the engine's view of that player hides the rest.
seen_by = perspective(list(players)) if match.game.secrets else None
view = snapshot(game_id, step, signature(), seen_by)
assert view is not None
lang = language()
said = sentences(game_id, signature(), lang, seen_by) or []
analysis = analysed.kept(game_id)
judged = analysed.flagged(analysis) if analysis else {}
seen_seat = list(players).index(seen_by) if seen_by in players else None
# A match played under other rules than the game's standard ones says so (KA-21's advanced),
# in words, as the HTML file does.
rules = " · ".join(played_under(match.header, loaded.catalogue, lang))
# A seat the state names otherwise than its player (KA-20's colours) in the board's words.
seat_words = getattr(board_of, "seat_name", None)


def seat_named(player: str) -> str:
    return str(seat_words(player, players, lang)) if seat_words else player


starter = seat_named(view["start_player"])
st.caption(
    plain(
        f"{game_label(match.game.name)} · {rules} · "
        f"{board_of.caption(view)} · {t('start_player')}: {starter}"
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


def expected(expect: dict[str, object]) -> str:
    """Who the game waits for, and for what, in words."""
    kinds = [str(k) for k in (expect.get("kinds") or [expect["kind"]])]  # type: ignore[attr-defined]
    what = t("or").join(t(f"event_{kind}") for kind in kinds)
    waiting = [str(p) for p in expect["players"]]  # type: ignore[attr-defined]
    who = ", ".join(seat_named(p) for p in waiting) if waiting else t("chance")
    by = expect.get("decided_by")
    decider = t("chance") if by == "chance" else seat_named(str(by))
    chosen = " " + t("decided_by").format(by=decider) if by and by not in waiting else ""
    return f"{t('next_expected')}: {who} — {what}{chosen}"


current = events[step - 1] if step > 0 else None
chart = None
board, told = st.columns([3, 2])
with board:
    drawn = board_of.figure(view, players, current)
    st.plotly_chart(drawn, key="board")
chances = reviewed(game_id)

with told:
    if match.game.secrets:
        perspective_switch(list(players))
    # What just happened, in words, where the eye is: beside the board.
    st.markdown(f"**{step_heading(step, last, view)}**")
    st.markdown(plain(said[step - 1]) if current is not None and said else t("match_starts"))
    if step in judged:  # the analysis's verdict on this step, and the move it names
        flag = judged[step]
        st.warning(
            plain(
                f"{analysed.verdict(flag)}. {t('better_move')}: "
                f"{analysed.better(game_id, flag, lang, seen_seat)}"
            )
        )
    expect = view["expecting"]
    if expect["kind"] == "nothing":
        st.success(t("game_over"))
    else:
        st.info(plain(expected(expect)))
    # Who was winning, beside the board whatever its height: a board of four Albus Academy
    # seats is as tall as the screen.
    if isinstance(chances, str):
        st.caption(plain(chances))
    elif chances is not None:
        chart = chances_figure(chances, players, step)
        if analysis is not None:
            analysed.add_marks(chart, analysis, chances, list(players))
        st.plotly_chart(
            chart,
            key="chances",
            on_select=_clicked,
            selection_mode="points",
            config={"displayModeBar": False},
        )
    move_log(
        LOG,
        [t("match_starts"), *analysed.marked(said, analysis)],
        step,
        acked=st.session_state.get(ACKED, 0),
        playing=playing,
        every_ms=speed,
        on_move=_logged,
    )
    if chances is not None and not isinstance(chances, str) and chances.turning_points:
        st.markdown(f"**{t('turning_points')}**", help=t("chances_help"))
        # A turning point's button holds its whole sentence: wrapped, not cut off.
        st.html(
            "<style>.st-key-turning button,.st-key-turning button p{white-space:normal;"
            "text-align:left;height:auto;overflow:visible;text-overflow:clip}</style>"
        )
        turning = st.container(key="turning")
        for i, point in enumerate(chances.turning_points):
            turning.button(
                turning_point_label(point, said),
                key=f"turning-{i}",
                on_click=_to,
                args=(point["step"],),
                type="tertiary",
            )

# The move analysis at the page's width: its table has a column a kind of flag.
st.subheader(t("analysis"))
if analysis is None:
    cut = ""
    if analysed.CUT and isinstance(chances, Review):
        cut = analysed.cut_words(moves.rounds_of(match.game))
    st.caption(t("analyse_help").format(samples=analysed.SAMPLES, policy=analysed.POLICY, cut=cut))
    if last and not say_why_not(visitor(), "analysis"):
        pass  # the page says why; analysed.run refuses it all the same
    elif last and st.button(t("analyse_button"), key="analyse"):
        made = analysed.run(game_id, chances, visitor())
        if isinstance(made, str):
            st.warning(made)
        else:
            st.rerun()  # drawn again with the marks on the chart and in the move log
else:
    st.dataframe(
        analysed.seats_table(analysis),
        hide_index=True,
        column_config={
            name: st.column_config.NumberColumn(format="%.1f")
            for name in (t("accuracy"), t("by_chance"), t("by_choices"), t("chance_share"))
        },
    )
    st.caption(
        t("analysis_caption").format(
            judged=len(analysis.decisions),
            samples=analysis.samples,
            policy=analysis.policy,
            cut=analysed.cut_words(analysis.rounds) if analysis.cut else "",
            seconds=f"{analysis.seconds:.0f}",
        )
    )
    st.markdown(f"**{t('flagged_moves')}**")
    if not judged:
        st.caption(t("no_flagged"))
    st.html(
        "<style>.st-key-flagged button,.st-key-flagged button p{white-space:normal;"
        "text-align:left;height:auto;overflow:visible;text-overflow:clip}</style>"
    )
    flagged_list = st.container(key="flagged")
    for index, flag in judged.items():
        flagged_list.button(
            plain(
                f"{index} · {players[flag.seat]} · {analysed.verdict(flag)} — "
                f"{t('better_move')}: {analysed.better(game_id, flag, lang, seen_seat)}"
            ),
            key=f"flagged-{index}",
            on_click=_to,
            args=(index,),
            type="tertiary",
        )

# The seats' tables at the page's width: on a phone they come after the board and the words.
board_of.side(view, players)

below = getattr(board_of, "beneath", None)  # a game's own sections (Knight Academy's draft)
if below is not None:
    below(game_id, list(players), view, seen_by)

# The file is written only when the button is clicked, from what this run drew and in the
# language it drew it in (the click's callback runs outside the page's run).
shown = seen_by
shown_view = view
replayed = loaded
heading = f"{game_label(match.game.name)} · {game_id}"
st.download_button(
    f"⬇ {t('download_html')}",
    lambda: match_html(
        title=heading,
        caption=f"{rules} · {step_heading(step, last, shown_view, lang)}"
        + (f" · {t('perspective', lang)}: {shown}" if shown else ""),
        board=drawn,
        tables=board_of.tables(view, list(players), lang),
        sentences=said,
        step=step,
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
    on_click="ignore",
)
