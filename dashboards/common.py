"""Pieces the pages share: the statistics filters and the match picker."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import polars as pl
import streamlit as st

from dashboards import queries, version_menu
from dashboards.data import AS_OF, BOT, HUMAN, PLAYED, Filters, query, versions
from dashboards.i18n import every_label, language, t
from dashboards.rulesets import key_words
from replay.game import HIDDEN
from replay.registry import GAMES

# ASCII punctuation, each of which Markdown (or Streamlit's :emoji: and :color[...]) may read.
_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:=^\"'&%@;,/?])")


# Streamlit's Markdown turns web and mail addresses into links even where their punctuation
# is escaped; an invisible word joiner (U+2060) after a colon, before an @ and inside "www."
# leaves none to find.
_JOINER = "\u2060"
_ADDRESS = re.compile(r"(\\:)|(\\@)|(?i:(w)(ww\\\.))")


def _joined(found: re.Match[str]) -> str:
    colon, at, w, rest = found.groups()
    if colon:
        return colon + _JOINER
    if at:
        return _JOINER + at
    return w + _JOINER + rest


def plain(text: str) -> str:
    """Text from a log (a player's name) as Markdown that shows exactly that text: no link,
    image, emphasis or colour a name could smuggle into a caption."""
    return _ADDRESS.sub(_joined, _MARKDOWN.sub(r"\\\1", text))


def literal(text: object) -> str:
    """Text from a log as figure text that shows exactly that text. Plotly reads a subset of
    HTML in every string of a figure (trace names, text and hover text, tick labels, subplot
    titles): a name could smuggle in a link, bold, a line break or a style. As entities, which
    Plotly turns back into the characters, `&`, `<` and `>` start no tag; only they need it.
    A string put into a hovertemplate is read as a template too: pass it as the trace's name
    and refer to it there as %{fullData.name}."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def held(names: list[str], unit: str = "", lang: str | None = None) -> str:
    """Components as the engine's view holds them: by name, and those the perspective sees
    only from the back (`HIDDEN`) as a count, marked hidden."""
    backs = names.count(HIDDEN)
    named = ", ".join(name for name in names if name != HIDDEN)
    count = f"{backs} {unit}" if unit else str(backs)
    counted = t("hidden_count", lang).format(count=count) if backs else ""
    return " · ".join(part for part in (named, counted) if part)


def number(value: object, lang: str | None = None) -> object:
    """A number as the engine's view holds it: itself, or marked hidden where the perspective
    may not see it (`HIDDEN`, or None where a view has no number to give)."""
    return f"({t('hidden', lang)})" if value is None or value == HIDDEN else value


PERSPECTIVE = "perspective"


def _perspective_to_address() -> None:
    chosen = st.session_state[PERSPECTIVE]
    if chosen is None:
        st.query_params.pop(PERSPECTIVE, None)
    else:
        st.query_params[PERSPECTIVE] = chosen


def perspective(players: list[str]) -> str | None:
    """The viewer's perspective: everyone (None), or one player, whose view hides what the
    others hold; as the switch (`perspective_switch`, drawn later in the page) last left it,
    or as a shared link asks, which opens the match as that player saw it."""
    asked = st.query_params.get(PERSPECTIVE)
    if st.session_state.get(PERSPECTIVE) not in players:  # a link, or another match opened
        st.session_state[PERSPECTIVE] = asked if asked in players else None
    chosen: str | None = st.session_state[PERSPECTIVE]
    if chosen is not None and asked != chosen:
        st.query_params[PERSPECTIVE] = chosen
    return chosen


def perspective_switch(players: list[str]) -> None:
    """The switch of `perspective`. The address holds the name itself, kept by hand: a bound
    radio would hold its label, which is the name escaped for Markdown (`Jean\\-Luc`), and a
    link with the name would not open."""
    st.radio(
        t("perspective"),
        [None, *players],
        horizontal=True,
        key=PERSPECTIVE,
        format_func=lambda p: t("everyone") if p is None else plain(p),
        on_change=_perspective_to_address,
    )


def game_label(name: str) -> str:
    return t(name) if name in GAMES else name


def has_matches() -> bool:
    if query(queries.HAS_MATCHES)["n"][0] == 0:
        st.info(t("empty"))
        return False
    return True


def date_bounds() -> tuple[date, date]:
    """The days of the first and the latest match, from the games' totals the home page asks
    for: one cached answer for every page's date filter."""
    totals = query(queries.GAME_TOTALS)
    today = date.today()
    if totals.is_empty():
        return (today, today)
    low, high = totals["first"].min(), totals["last"].max()
    return (low if isinstance(low, date) else today, high if isinstance(high, date) else today)


EXPERIMENTS = "experiments"  # origin_choice: every stored experiment's matches


def _choices_to_address(key: str, default: list[str]) -> None:
    chosen = st.session_state[key]
    if sorted(chosen) == sorted(default):  # the address stays short where nothing is chosen
        del st.query_params[key]
    else:
        st.query_params[key] = chosen


def linked_choices(
    container: Any, label: str, options: list[str], default: list[str], names: Any, key: str
) -> list[str]:
    """A multiselect of ids shown by their names in the reader's language, kept in the address
    by id (`?filter-origin=human`): a bound multiselect would put the names there, and a link
    would then open only in the language it was made in."""
    asked = [o for o in st.query_params.get_all(key) if o in options]
    if asked and asked != st.session_state.get(key):
        st.session_state[key] = asked
    elif key not in st.session_state:
        st.session_state[key] = list(default)
    st.session_state[key] = [o for o in st.session_state[key] if o in options]
    chosen: list[str] = container.multiselect(
        label,
        options,
        format_func=names,
        key=key,
        on_change=_choices_to_address,
        args=(key, default),
    )
    return chosen


def origin_choice(container: Any, key: str) -> tuple[list[str], bool]:
    """Where the matches shown come from, where no page filter chooses it (the home page, the
    viewer's finder): people's matches and simulations, and experiments only when asked for.
    The origins played (`games.origin`) chosen, and whether experiments are."""
    names = {HUMAN: t("origin_human"), BOT: t("origin_bot"), EXPERIMENTS: t("experiments_all")}
    chosen = linked_choices(container, t("origin"), list(names), list(PLAYED), names.get, key)
    return [o for o in chosen if o in PLAYED], EXPERIMENTS in chosen


GAME_PARAM = "filter-game"  # the statistics' game in the address, by its id in every language
LAST_GAME = "last-game"  # not a widget's key, so it outlives a change of page


def version_choice() -> None:
    """The sidebar's choice of the warehouse version every page reads (the latest unless
    chosen), kept in the address by its number (`?as-of=12`): a bound selectbox would put its
    label there."""
    found = versions()
    if found.is_empty():
        return
    linked = st.query_params.get(AS_OF, "")
    labels = {"": t("as_of_latest")} | version_menu.entries(found, keep=linked)
    # The address holds the choice; set again at every run, as the game's is (filters): the
    # labels change with the language, and a selectbox keeps its value by its label.
    st.session_state[AS_OF] = linked if linked and linked in labels else ""
    st.sidebar.selectbox(
        t("as_of"),
        list(labels),
        format_func=labels.__getitem__,
        key=AS_OF,
        help=t("as_of_help"),
        on_change=_version_to_address,
    )
    chosen = st.session_state[AS_OF]
    if chosen:  # the whole label, which the menu's width cuts short
        st.sidebar.caption(plain(labels[chosen]))


def _version_to_address() -> None:
    chosen = st.session_state[AS_OF]
    if chosen:
        st.query_params[AS_OF] = chosen
    elif AS_OF in st.query_params:
        del st.query_params[AS_OF]


def _game_to_address() -> None:
    st.query_params[GAME_PARAM] = st.session_state[GAME_PARAM]


def most_played(games: list[str]) -> str | None:
    """Of `games`, the one with the most stored matches (experiments apart); the first of
    them where none has any."""
    totals = query(queries.GAME_TOTALS).filter(pl.col("game").is_in(games))
    if totals.is_empty():
        return games[0] if games else None
    return str(totals.sort(["matches", "game"], descending=[True, False])["game"][0])


def filters() -> Filters:
    """The sidebar filters every statistics page offers (game, variant, rule set, players,
    dates), each kept in the address (`?filter-game=heraldry&filter-players=3`) so that a
    view can be shared as a link."""
    choices = query(queries.FILTER_CHOICES)
    games = sorted(set(choices["game"].to_list())) or sorted(GAMES)
    sidebar = st.sidebar
    # The game is shown by its name in the reader's language; a bound selectbox would put
    # that name in the address, so the game's id is kept there by hand. Without one in the
    # address, the game last looked at on any statistics page stays chosen; on a first visit,
    # the game with the most matches (the first in the list may have a handful).
    linked = st.query_params.get(GAME_PARAM) or st.session_state.get(LAST_GAME)
    if linked not in games and st.session_state.get(GAME_PARAM) not in games:
        linked = most_played(games)
    if linked in games:
        st.session_state[GAME_PARAM] = linked
    game = sidebar.selectbox(
        t("game"), games, format_func=game_label, key=GAME_PARAM, on_change=_game_to_address
    )
    st.session_state[LAST_GAME] = game
    if st.query_params.get(GAME_PARAM) != game:
        st.query_params[GAME_PARAM] = game
    mine = choices.filter(choices["game"] == game)
    variants = sidebar.multiselect(
        t("variant"),
        sorted(set(mine["variant"].to_list())),
        format_func=t,
        key="filter-variant",
        placeholder=t("all"),
        bind="query-params",
    )
    rulesets = sidebar.multiselect(
        t("ruleset"),
        sorted(set(mine["ruleset_key"].to_list())),
        format_func=lambda key: key_words(key, language()),
        key="filter-ruleset",
        placeholder=t("all"),
        bind="query-params",
    )
    counts = sidebar.multiselect(
        t("players"),
        sorted(set(mine["player_count"].to_list())),
        key="filter-players",
        placeholder=t("all"),
        bind="query-params",
    )
    low, high = date_bounds()
    chosen = sidebar.date_input(t("dates"), (low, high), key="filter-dates", bind="query-params")
    # People's matches and simulations by default; experiments are designs under changed
    # rules: counted only where chosen.
    stored = query(queries.EXPERIMENT_IDS, {"game": game})["experiment"].to_list()
    names = {HUMAN: t("origin_human"), BOT: t("origin_bot")}
    origins = linked_choices(
        sidebar,
        t("origin"),
        [*PLAYED, *stored],
        list(PLAYED),
        lambda o: names.get(o) or f"{t('experiment')} {o}",
        "filter-origin",
    )
    dates = (
        (chosen[0], chosen[1]) if isinstance(chosen, (tuple, list)) and len(chosen) == 2 else None
    )
    return Filters(
        game=game,
        variants=variants,
        rulesets=rulesets,
        player_counts=counts,
        dates=dates if dates != (low, high) else None,
        origins=origins or list(PLAYED),
    )


def named(frame: pl.DataFrame, column: str) -> pl.DataFrame:
    """The frame with `column`'s values (sources, tracks) as labels in the reader's language."""
    return frame.with_columns(
        pl.col(column).replace_strict(
            {value: t(value) for value in frame[column].unique()}, default=pl.col(column)
        )
    )


def literals(frame: pl.DataFrame, *columns: str) -> pl.DataFrame:
    """The frame with `columns` (names, items, rule sets from the logs) as `literal` text, for
    a chart drawn from the frame."""
    return frame.with_columns(
        pl.col(column)
        .cast(pl.String)
        .replace({v: literal(v) for v in frame[column].cast(pl.String).drop_nulls().unique()})
        for column in columns
    )


def games_named(frame: pl.DataFrame) -> pl.DataFrame:
    """The frame with its `game` column's ids as the games' names in the reader's language."""
    if "game" not in frame.columns or frame.is_empty():
        return frame
    return frame.with_columns(
        pl.col("game").replace_strict({g: game_label(g) for g in frame["game"].unique()})
    )


def where(flt: Filters, sql: str, **more: Any) -> tuple[str, dict[str, Any]]:
    """SQL with the filter clause put in at each `{where}`, and the named values to bind
    (the filter's and `more`)."""
    clause, params = flt.where()
    return sql.replace("{where}", clause), {**params, **more}


PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"]


def measured(metric: str | None) -> str:
    """What a metric measures, in words (`squire experiment --list-metrics` names them)."""
    if metric is None:
        return t("not_recorded")
    kind, _, arg = metric.partition(":")
    key = f"metric_{kind}"
    if key not in every_label():
        return metric
    return t(key).format(n=arg, source=t(arg), card=arg)
