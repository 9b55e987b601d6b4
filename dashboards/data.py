"""The dashboards' window on the warehouse: a cached read-only connection that reopens when
an ingest commits new parts, and cached named queries run on a cursor of their own."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from typing import Any

import duckdb
import polars as pl
import streamlit as st

from ingest.warehouse.location import Place, place
from ingest.warehouse.warehouse import DEFAULT_DB, open_reader
from ingest.warehouse.warehouse import signature as warehouse_signature


def warehouse_path() -> Place:
    return place(os.environ.get("SQUIRE_WAREHOUSE") or DEFAULT_DB)


# The version of the warehouse the pages read (the sidebar's choice, kept in the address so
# that a link to a figure shows the same figure later): the latest where none is chosen.
AS_OF = "as-of"


def chosen_version() -> int | None:
    """The version chosen in the sidebar, or in the address it keeps; None: the latest."""
    value = st.session_state.get(AS_OF, st.query_params.get(AS_OF, ""))
    return int(value) if isinstance(value, str) and value.isdigit() else None


def signature() -> str:
    """Part of every cache key: the version chosen (which never changes), or one that changes
    whenever a commit is made to the warehouse."""
    version = chosen_version()
    if version is not None:
        return f"version:{version}"
    return warehouse_signature(warehouse_path())


@st.cache_resource(max_entries=4, show_spinner=False)
def _connection(path: str, signature_: str) -> duckdb.DuckDBPyConnection:
    """A reader of the version `signature_` names, or of the latest when it was taken (one
    per signature)."""
    return open_reader(place(path), version_in(signature_))


def version_in(signature_: str) -> int | None:
    """The version a signature names, or None (the latest)."""
    return int(signature_.split(":")[1]) if signature_.startswith("version:") else None


VERSIONS = """
    SELECT version, committed_at, sum(matches) OVER (ORDER BY version) AS held,
           matches AS added, made_by, logs, experiment
    FROM batches ORDER BY version DESC
"""


def versions() -> pl.DataFrame:
    """Every version of the warehouse, the latest first, with its time, the matches it holds
    and adds, and what made it (whichever version the pages read)."""
    return _run(VERSIONS, (), warehouse_signature(warehouse_path()))


def connection() -> duckdb.DuckDBPyConnection:
    return _connection(str(warehouse_path()), signature())


@st.cache_data(ttl=600, show_spinner=False, max_entries=512)
def _run(sql: str, params: tuple[tuple[str, Any], ...], signature_: str) -> pl.DataFrame:
    cursor = _connection(str(warehouse_path()), signature_).cursor()
    try:  # one cursor per query: a connection is not safe across Streamlit's threads
        relation = cursor.sql(sql, params=dict(params))
        frame: pl.DataFrame = relation.pl() if relation is not None else pl.DataFrame()
        return frame
    finally:
        cursor.close()


def query(sql: str, params: Mapping[str, Any] | None = None) -> pl.DataFrame:
    """Run named SQL with its named parameters bound (`$game_id`); cached until the
    warehouse changes."""
    return _run(sql, tuple(sorted((params or {}).items())), signature())


# Who played a match (`games.origin`): a club's match (a person at the table) or a simulation
# (bots at every seat). An experiment's matches are bots' too, but kept apart by their id.
HUMAN, BOT = "human", "bot"
PLAYED = (HUMAN, BOT)  # the matches played, as opposed to experiments'


@dataclass
class Filters:
    """What every statistics page can narrow by; rendered as a WHERE clause with bound values."""

    game: str | None = None
    variants: list[str] = field(default_factory=list)
    rulesets: list[str] = field(default_factory=list)
    player_counts: list[int] = field(default_factory=list)
    dates: tuple[date, date] | None = None
    # Where the matches come from: people's matches (HUMAN), simulations (BOT), and the stored
    # experiments chosen by id (`squire experiment`). Experiments are designs under changed
    # rules, so they are left out unless chosen.
    origins: list[str] = field(default_factory=lambda: list(PLAYED))
    # One arm of a stored experiment, alone (Balance's experiment view)
    experiment: str | None = None
    arm: str | None = None

    @property
    def narrowed(self) -> bool:
        """Whether anything beyond the game narrows the matches (or widens them: experiments
        chosen besides the matches played)."""
        return bool(
            self.variants
            or self.rulesets
            or self.player_counts
            or self.dates
            or self.experiment
            or sorted(self.origins or PLAYED) != sorted(PLAYED)
        )

    def where(self, alias: str = "") -> tuple[str, dict[str, Any]]:
        """The clause and its named parameters (`$filter_…`), the same at every `{where}`."""
        prefix = f"{alias}." if alias else ""
        clauses: list[str] = ["TRUE"]
        params: dict[str, Any] = {}
        if self.game:
            clauses.append(f"{prefix}game = $filter_game")
            params["filter_game"] = self.game
        for column, values in (
            ("variant", self.variants),
            ("ruleset_key", self.rulesets),
            ("player_count", self.player_counts),
        ):
            if values:  # a list, bound whole
                clauses.append(f"list_contains($filter_{column}, {prefix}{column})")
                params[f"filter_{column}"] = list(values)
        if self.dates:
            clauses.append(
                f"CAST({prefix}played_at AS DATE) BETWEEN $filter_from AND $filter_until"
            )
            params["filter_from"], params["filter_until"] = self.dates
        if self.experiment:
            clauses.append(f"{prefix}experiment = $filter_experiment AND {prefix}arm = $filter_arm")
            params["filter_experiment"], params["filter_arm"] = self.experiment, self.arm
        else:
            origins = self.origins or list(PLAYED)
            played = [o for o in origins if o in PLAYED]
            chosen = [o for o in origins if o not in PLAYED]
            sides = []
            if set(played) == set(PLAYED):  # every match played is a person's or a bot's
                sides.append(f"{prefix}experiment IS NULL")
            elif played:
                sides.append(
                    f"({prefix}experiment IS NULL AND "
                    f"list_contains($filter_origins, {prefix}origin))"
                )
                params["filter_origins"] = played
            if chosen:
                sides.append(f"list_contains($filter_experiments, {prefix}experiment)")
                params["filter_experiments"] = chosen
            clauses.append(f"({' OR '.join(sides)})")
        return " AND ".join(clauses), params
