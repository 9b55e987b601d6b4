"""Pieces the pages share: the statistics filters and the match picker."""

from __future__ import annotations

from datetime import date

import streamlit as st

from dashboards import queries
from dashboards.data import Filters, query
from dashboards.i18n import t
from replay.registry import GAMES


def game_label(name: str) -> str:
    return t(name) if name in GAMES else name


def has_matches() -> bool:
    if query("SELECT count(*) AS n FROM games")["n"][0] == 0:
        st.info(t("empty"))
        return False
    return True


def date_bounds() -> tuple[date, date]:
    row = query(queries.DATE_RANGE).row(0)
    today = date.today()
    return (row[0] or today, row[1] or today)


def filters(key: str) -> Filters:
    """The sidebar filters every statistics page offers (game, variant, rule set, players,
    dates); a page's own key keeps their choices apart."""
    choices = query(queries.FILTER_CHOICES)
    games = sorted(set(choices["game"].to_list())) or sorted(GAMES)
    sidebar = st.sidebar
    game = sidebar.selectbox(t("game"), games, format_func=game_label, key=f"{key}-game")
    mine = choices.filter(choices["game"] == game)
    variants = sidebar.multiselect(t("variant"), sorted(set(mine["variant"].to_list())),
                                   key=f"{key}-variant", placeholder=t("all"))
    rulesets = sidebar.multiselect(t("ruleset"), sorted(set(mine["ruleset_key"].to_list())),
                                   key=f"{key}-ruleset", placeholder=t("all"))
    counts = sidebar.multiselect(t("players"), sorted(set(mine["player_count"].to_list())),
                                 key=f"{key}-players", placeholder=t("all"))
    low, high = date_bounds()
    chosen = sidebar.date_input(t("dates"), (low, high), key=f"{key}-dates")
    dates = tuple(chosen) if isinstance(chosen, (tuple, list)) and len(chosen) == 2 else None
    return Filters(game=game, variants=variants, rulesets=rulesets, player_counts=counts,
                   dates=dates if dates != (low, high) else None)  # type: ignore[arg-type]


def where(flt: Filters, sql: str) -> tuple[str, list[object]]:
    """SQL with the filter clause put in at each `{where}`, and the values to bind."""
    clause, params = flt.where()
    return sql.replace("{where}", clause), params * sql.count("{where}")


PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2"]
