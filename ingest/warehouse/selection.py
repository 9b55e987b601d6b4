"""Which stored matches a command reads: the filters every statistics page offers, and where
the matches come from (people's, bots', an experiment's), as one WHERE clause over `games g`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any


@dataclass(frozen=True)
class Selection:
    """Which stored matches: the filters every statistics page offers, and who played."""

    game: str
    variants: Sequence[str] = ()
    rulesets: Sequence[str] = ()
    players: Sequence[int] = ()
    since: date | None = None
    until: date | None = None
    # "human": a person's match (a person sat at the table); "bot": a simulation (a bot at
    # every seat); "experiment" (or "experiment:ID"): the matches of the stored experiments
    # (of that one), left out otherwise (games.origin, ingest.warehouse.tables.origin)
    source: str | None = None
    # The version of the warehouse read (a version of `batches`, or a time): the latest if None
    as_of: int | datetime | None = None

    def where(self) -> tuple[str, dict[str, Any]]:
        clauses = ["g.game = $game", "g.complete"]
        params: dict[str, Any] = {"game": self.game}
        for column, values in (("variant", self.variants), ("player_count", self.players)):
            if values:
                clauses.append(f"g.{column} IN (SELECT unnest(${column}))")
                params[column] = list(values)
        if self.rulesets:  # a ruleset's name, or a page's key (the name with its changes)
            clauses.append(
                "(g.ruleset IN (SELECT unnest($rulesets)) "
                "OR g.ruleset_key IN (SELECT unnest($rulesets)))"
            )
            params["rulesets"] = list(self.rulesets)
        if self.since is not None:
            clauses.append("g.played_at >= $since")
            params["since"] = self.since
        if self.until is not None:
            clauses.append("g.played_at < $until + INTERVAL 1 DAY")
            params["until"] = self.until
        kind, _, experiment = (self.source or "").partition(":")
        if kind == "experiment":
            clauses.append("g.experiment IS NOT NULL")
            if experiment:
                clauses.append("g.experiment = $experiment")
                params["experiment"] = experiment
        else:
            clauses.append("g.experiment IS NULL")
        if kind in ("human", "bot"):
            clauses.append("g.origin = $origin")
            params["origin"] = kind
        return " AND ".join(clauses), params
