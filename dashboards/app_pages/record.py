"""Record: a match entered at the table as it is played, a tap a move, with nothing illegal on
offer. A seat's secret (a card kept, a paladin face down) is entered by that seat alone, the
device passed to it and the screen blanked after. Every entry is kept on the server at once
(the warehouse's drafts), so a closed tab or a restart takes the match up where it was; a
finished match is ingested as an upload is and opens in the viewer."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import streamlit as st

from dashboards.boards import board as board_package
from dashboards.common import game_label, plain
from dashboards.data import warehouse_path
from dashboards.i18n import language, t
from dashboards.record import menu
from dashboards.record.entry import Choose, Entry, Handover, Over, Problem
from dashboards.record.menu import Token
from dashboards.record.scribe import from_draft, new_entry
from dashboards.record.table import NAMES, header_line
from dashboards.record.words import button_words
from dashboards.refusals import in_game_words
from dashboards.rulesets import ruleset_name
from dashboards.sentences import told
from dashboards.visitor import refusal, say_why_not, who
from ingest.club import accounts, serving, tables
from ingest.club.access import Denied
from ingest.files.catalogues import Library
from ingest.pipeline.upload import ingest_uploads
from ingest.simulation.simulate import catalogue_for
from ingest.warehouse.origin import RECORDING
from replay.registry import GAMES
from replay.replayer import open_log, replay

VIEWER = Path(__file__).with_name("viewer.py")
ENTRY = "record-entry"  # the match being entered in this session: (its name, its Entry)
SHOWN = 8  # the last entries listed under the buttons

st.title(t("record"))
db = warehouse_path()
library = Library(db)
VISITOR = who()
if not say_why_not(VISITOR, "record.start"):
    st.stop()


def _denied(denied: Denied, action: str) -> None:
    st.error(refusal(denied, action))
    st.stop()


def _open(name: str) -> Entry | None:
    """The draft `name`, as this session left it, or taken up from the server."""
    held = st.session_state.get(ENTRY)
    if held is not None and held[0] == name:
        entry: Entry = held[1]
        return entry
    try:
        data = tables.load(db, name, VISITOR)
    except Denied as denied:
        _denied(denied, "record.open")
    except ValueError:  # an address naming no draft squire could have made
        return None
    if data is None:
        return None
    entry = from_draft(data, library, name)
    st.session_state[ENTRY] = (name, entry)
    return entry


def _keep(name: str, entry: Entry) -> None:
    try:
        tables.save(db, name, entry.draft(), VISITOR)
    except Denied as denied:
        _denied(denied, "record.enter")


def _start(line: bytes) -> None:
    entry = new_entry(line, library)
    name = entry.match.header.game_id
    try:
        tables.start(db, name, entry.draft(), VISITOR)
    except Denied as denied:
        if denied.why == "drafts":
            st.error(t("denied_drafts").format(n=serving.current().budgets.drafts))
            st.stop()
        _denied(denied, "record.start")
    st.session_state[ENTRY] = (name, entry)
    st.query_params["draft"] = name


def _setup() -> None:
    """A new match's header, and the matches being recorded to take up."""
    waiting, elsewhere = tables.listed(db, VISITOR)
    if elsewhere:
        st.caption(t("drafts_elsewhere").format(n=elsewhere))
    if waiting:
        st.subheader(t("rec_resume"))
        for draft in waiting:
            label = (
                f"{game_label(draft.game)} · {', '.join(draft.players)} · "
                f"{t('rec_entries').format(n=draft.entries)} · {draft.saved_at:%Y-%m-%d %H:%M}"
            )
            if st.button(plain(label), key=f"rec-open-{draft.name}"):
                st.query_params["draft"] = draft.name
                st.rerun()
    st.subheader(t("rec_new"))
    name = st.selectbox(t("game"), list(GAMES), format_func=game_label, key="rec-game")
    game = GAMES[name]
    cols = st.columns(2)
    ruleset = cols[0].selectbox(
        t("ruleset"),
        list(game.rulesets),
        index=list(game.rulesets).index(game.standard_ruleset),
        format_func=lambda ruleset: ruleset_name(ruleset, language(), with_game=False),
        key=f"rec-ruleset-{name}",
    )
    sim = game.simulation
    variants = [None, *(sim.variants if sim else [])]
    variant = cols[1].selectbox(
        t("rec_variant"),
        variants,
        format_func=lambda v: t("rec_variant_seated") if v is None else t(v),
        key=f"rec-variant-{name}",
    )
    options = {
        option: st.toggle(
            f"{t(f'option_{option}')} ({switch.rule})", key=f"rec-option-{name}-{option}"
        )
        for option, switch in game.options.items()
    }
    count = st.number_input(
        t("rec_players"), min_value=1, max_value=len(NAMES), value=3, key="rec-count"
    )
    seat_cols = st.columns(min(int(count), 3))
    players = [
        seat_cols[i % len(seat_cols)]
        .text_input(f"{t('rec_seat')} {i + 1}", value=NAMES[i], key=f"rec-name-{i}")
        .strip()
        for i in range(int(count))
    ]
    first = st.selectbox(t("start_player"), players, key="rec-first")
    if st.button(t("rec_begin"), type="primary", key="rec-begin"):
        try:
            line = header_line(
                name,
                players,
                ruleset=ruleset,
                variant=variant,
                options={k: v for k, v in options.items() if v},
                first_player=first,
                catalogue=catalogue_for(name),
            )
        except ValueError as err:
            st.error(plain(str(err)))
            return
        _start(line)
        st.rerun()


@st.cache_data(max_entries=32, show_spinner=False)
def _told(log: bytes, lang: str) -> list[str]:
    """The entries so far in words, as the table may hear them (no seat's secret)."""
    match = open_log(log, "draft", catalogues=Library(warehouse_path()))
    outcome = replay(match)
    return told(match, outcome.steps, lang, len(match.header.players))


def _board(entry: Entry, seat: int) -> None:
    game = entry.game
    view = game.snapshot(game.view(entry.state, seat))
    board_of = board_package(game.name)
    st.plotly_chart(board_of.figure(view, entry.players, None), key="rec-board")


def _tapped(name: str, entry: Entry, key: str) -> None:
    entry.tap(key)
    _keep(name, entry)


def _taken(entry: Entry) -> None:
    entry.take()


def _corrections(name: str, entry: Entry, said: list[str]) -> None:
    """The entries so far, the last few in words, and any one to change, insert before or
    remove."""
    if not entry.events:
        return
    st.markdown(f"**{t('rec_log')}**")
    start = max(0, len(said) - SHOWN)
    for i in range(start, len(said)):
        st.markdown(f"{i + 1}. {plain(said[i])}")
    if entry.problem is not None:  # the broken ones are listed above, with their rule
        refused = {problem.index for problem in entry.broken}
        for i in range(entry.good, len(entry.events)):
            if i not in refused:
                said_i = _said(entry, entry.events[i], language())
                st.markdown(f"{i + 1}. {plain(said_i)} {t('rec_unchecked')}")
    with st.expander(t("rec_fix"), key="rec-fix-open"):
        numbers = list(range(len(entry.events)))
        words = [*said, *[_kind(e) for e in entry.events[len(said) :]]]
        chosen = st.selectbox(
            t("rec_which"),
            numbers,
            index=len(numbers) - 1,
            format_func=lambda i: f"{i + 1}. {words[i] if i < len(words) else ''}",
            # a new key as the log grows: the choice starts at the last entry again
            key=f"rec-fix-{len(numbers)}",
        )
        breaks = entry.removal_cost(chosen)
        st.caption(
            t("rec_remove_costs").format(n=chosen + 1, k=breaks)
            if breaks
            else t("rec_remove_free").format(n=chosen + 1)
        )
        row = st.container(horizontal=True)
        if row.button(t("rec_change"), key="rec-change"):
            entry.change(chosen)
            _keep(name, entry)
            st.rerun()
        if row.button(t("rec_insert"), key="rec-insert"):
            entry.change(chosen, inserting=True)
            _keep(name, entry)
            st.rerun()
        if row.button(t("rec_remove"), key="rec-remove"):
            entry.remove(chosen)
            _keep(name, entry)
            st.rerun()


def _kind(event: Any) -> str:
    return t(f"event_{type(event).__struct_config__.tag}")


def _finish(name: str, entry: Entry) -> None:
    entry.finish()
    log = entry.log()
    try:
        report = ingest_uploads([(f"{name}.jsonl", io.BytesIO(log))], db, VISITOR, RECORDING)
    except Denied as denied:
        _denied(denied, "record.save")
    # the viewer opens at its last step, the final scores: each event a step, the claim too
    st.session_state["rec-report"] = (name, report, len(log.splitlines()) - 1)
    if report.ingested or report.present:
        tables.saved(db, name, VISITOR)
        st.session_state.pop(ENTRY, None)
        del st.query_params["draft"]


def _recording(name: str) -> None:
    entry = _open(name)
    if entry is None:
        st.warning(t("rec_gone"))
        if st.button(t("rec_new"), key="rec-leave"):
            del st.query_params["draft"]
            st.rerun()
        return
    lang = language()
    game = entry.game.name
    if entry.game.secrets:
        # Bound to the address, so a reload keeps the table's choice.
        entry.secrecy(
            st.toggle(
                t("rec_strict"), key="rec-strict", bind="query-params", help=t("rec_strict_help")
            )
        )
    st.caption(
        plain(f"{game_label(game)} · {name} · {', '.join(entry.players)}")
        + f" · {t('rec_entries').format(n=len(entry.events))}"
    )
    _members(name)
    said = _told(entry.log(), lang)
    mended = st.session_state.pop("rec-mended", None)
    if mended is not None:
        st.success(t("rec_mended").format(n=mended))
    screen = entry.screen()
    if entry.at is not None:
        verb = "rec_inserting" if entry.inserting else "rec_changing"
        st.info(t(verb).format(n=entry.at + 1))
        if st.button(t("rec_cancel"), key="rec-cancel"):
            entry.cancel()
            st.rerun()
    if isinstance(screen, Problem):
        _broken(name, entry, screen, lang)
    elif isinstance(screen, Handover):
        with st.container(border=True, key="rec-handover"):
            st.subheader(t("rec_pass").format(player=plain(screen.player)))
            st.caption(t("rec_pass_help"))
            st.button(
                t("rec_take").format(player=plain(screen.player)),
                key="rec-take",
                type="primary",
                on_click=_taken,
                args=(entry,),
            )
    elif isinstance(screen, Over):
        scores = ", ".join(f"{p} {s}" for p, s in screen.scores.items())
        st.success(t("rec_over").format(scores=plain(scores)))
        if st.button(t("rec_save"), key="rec-save", type="primary"):
            _finish(name, entry)
            st.rerun()
    else:
        _choose(name, entry, screen, lang)
    seat = entry.holder if isinstance(screen, Choose) and screen.private else entry.table
    if not isinstance(screen, Handover) and seat is not None:
        _board(entry, seat)
    _corrections(name, entry, said)


def _members(name: str) -> None:
    """Who else may open the draft: its scribe (or an admin) opens it to other accounts, so a
    player can enter their own secret moves on their own phone."""
    found = tables.table(db, name)
    if VISITOR.name is None or found is None or found.scribe is None:
        return  # no accounts at this table: a laptop's squire, or an open server
    if VISITOR.role != "admin" and found.scribe != VISITOR.name:
        return
    others = [u.name for u in accounts.users(db) if u.name != found.scribe]
    chosen = st.multiselect(
        t("table_members"),
        others,
        default=[m for m in found.members if m in others],
        help=t("table_members_help"),
        key=f"rec-members-{name}",
    )
    if sorted(chosen) != sorted(m for m in found.members if m in others):
        try:
            tables.open_to(db, name, chosen, VISITOR)
        except Denied as denied:
            _denied(denied, "record.invite")


def _said(entry: Entry, event: Any, lang: str) -> str:
    """An entry in words for the table's screen: by its player and kind alone where telling
    more would give away what its seat chooses from in secret."""
    shape = entry.hooks.shape
    tokens = menu.tokens(event, shape)
    if entry.secret(event):
        tokens = tuple(t for t in tokens if t.name in ("player", "kind"))
    return button_words(entry.game.name, tokens, lang, entry.players)


def _broken(name: str, entry: Entry, first: Problem, lang: str) -> None:
    """Every entry the correction broke, at once; the first mended the obvious way where
    it can be, changed, or removed; or all of them removed."""
    broken = entry.broken
    st.error(t("rec_broken").format(n=len(broken), first=first.index + 1, after=len(entry.events)))
    secret = entry.secret(entry.events[first.index])
    game, catalogue = entry.game.name, getattr(entry.state, "catalogue", None)
    for problem in broken:
        said = _said(entry, entry.events[problem.index], lang)
        told_as = in_game_words(problem.message, game, lang, catalogue, entry.players)
        why = "" if secret or problem.index != first.index else f": {plain(told_as)}"
        st.markdown(f"{problem.index + 1}. ~~{plain(said)}~~ ({problem.rule}){why}")
    found = entry.mends()
    row = st.container(horizontal=True, key="rec-mends")
    for i, event in enumerate(found):
        label = t("rec_mend").format(n=first.index + 1, entry=_said(entry, event, lang))
        if row.button(plain(label), key=f"rec-mend-{i}", type="primary"):
            entry.mend(event)
            _keep(name, entry)
            st.rerun()
    if found and len(broken) > 1 and row.button(t("rec_mend_all"), key="rec-mend-all"):
        mended = entry.mend_all()
        _keep(name, entry)
        st.session_state["rec-mended"] = mended
        st.rerun()
    row = st.container(horizontal=True)
    if row.button(t("rec_change"), key="rec-problem-change", type="secondary"):
        entry.change(first.index)
        st.rerun()
    if row.button(t("rec_remove"), key="rec-problem-remove"):
        entry.remove(first.index)
        _keep(name, entry)
        st.rerun()
    if len(broken) > 1 and row.button(
        t("rec_drop_broken").format(n=len(broken)), key="rec-problem-drop"
    ):
        entry.drop_broken()
        _keep(name, entry)
        st.rerun()
    cut = len(entry.events) - first.index
    if row.button(t("rec_cut_n").format(n=cut), key="rec-problem-cut"):
        entry.cut(first.index)
        _keep(name, entry)
        st.rerun()


def _choose(name: str, entry: Entry, screen: Choose, lang: str) -> None:
    game = entry.game.name
    who = button_words(game, (Token("player", screen.player),), lang, entry.players)
    who = who if screen.player else ""
    if screen.private:
        st.warning(t("rec_private").format(player=plain(who)))
    elif screen.reveals:
        st.caption(t("rec_reveals").format(player=plain(who)))
    if screen.masked:
        st.caption(t("rec_masked"))
    if screen.refused:  # on the seat's own screen; the engine's words would name others' cards
        st.error(t("rec_refused_draw").format(rule=screen.refused[0]))
    heading = button_words(game, screen.chosen, lang, entry.players) if screen.chosen else ""
    if screen.drawn:
        # what was entered so far, in the words of the field the buttons fill
        field = screen.buttons[0].tokens[0].name if screen.buttons else "cards"
        drawn = tuple(Token(field, v) for v in screen.drawn)
        heading = f"{heading} · " if heading else ""
        heading += t("rec_drawn").format(cards=button_words(game, drawn, lang))
    if screen.drawn or (screen.kind and not heading):
        what = t(f"event_{screen.kind}") if screen.kind else ""
        heading = " · ".join(x for x in (who, what, heading) if x)
    st.markdown(f"**{plain(heading) if heading else t('rec_next')}**")
    grid = st.container(horizontal=True, key="rec-buttons")
    labels = [button_words(game, b.tokens, lang, entry.players) for b in screen.buttons]
    for i, button in enumerate(screen.buttons):
        label = labels[i]
        if labels.count(label) > 1:  # two cards that read the same: told apart by their ids
            ids = [str(t.value) for t in button.tokens if isinstance(t.value, str)]
            label += " · " + " ".join(ids)
        more = not button.enters and not button.key.startswith(("card:", "seen:"))
        cost = screen.costs.get(button.key, 0)
        if cost:  # told before the change is made: what it would break after it
            label += " · " + t("rec_breaks").format(n=cost)
        grid.button(
            plain(label + (" …" if more else "")),
            key=f"rec-b-{i}",
            on_click=_tapped,
            args=(name, entry, button.key),
            type="primary" if button.enters else "secondary",
        )
    row = st.container(horizontal=True)
    if (entry.keys or entry.drawn or entry.draw is not None) and row.button(
        t("rec_back"), key="rec-back"
    ):
        entry.back()
        st.rerun()
    if screen.over and row.button(t("rec_end"), key="rec-end"):
        _finish(name, entry)
        st.rerun()


report = st.session_state.get("rec-report")
if report is not None:
    saved, done, steps = report
    if done.ingested or done.present:
        st.success(t("rec_saved"))
        st.page_link(
            VIEWER,
            label=t("rec_open"),
            icon=":material/search:",
            query_params={"game": saved, "step": str(steps)},
        )
    else:
        for reject in done.rejects:
            st.error(plain(f"{reject.path}:{reject.line}: {reject.rule}: {reject.message}"))
        if done.error:
            st.error(plain(done.error))

asked = st.query_params.get("draft")
if asked:
    _recording(asked)
else:
    _setup()
