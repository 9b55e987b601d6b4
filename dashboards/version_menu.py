"""The entries of the sidebar's warehouse-version menu: each version with the matches it
holds, what made it and when. An experiment commits its matches a batch at a time, dozens of
versions in a row, so a run of one experiment's versions is one entry, its last, which says
how many versions and matches it stands for."""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime

import polars as pl

from dashboards.i18n import t
from ingest.warehouse.origin import (
    COMPACTION,
    CONVERSION,
    EXPERIMENT,
    INGEST,
    RECORDING,
    UPLOAD,
)


@dataclass(frozen=True)
class _Version:
    version: int
    committed_at: datetime
    held: int  # the matches the warehouse holds at it
    added: int
    made_by: str | None
    logs: int | None
    experiment: str | None


def entries(found: pl.DataFrame, keep: str = "") -> dict[str, str]:
    """The menu's entries, the latest first: by each the version it chooses (as the address
    keeps it), its label. `found`: the versions (`dashboards.data.versions`); `keep`, a
    version asked for by the address, listed on its own where it is inside a run of an
    experiment's versions, so that a link to it still reads it."""
    named = found.select(f.name for f in fields(_Version)).iter_rows(named=True)
    rows = sorted((_Version(**row) for row in named), key=lambda v: v.version)
    listed: list[tuple[int, str]] = []
    run: list[_Version] = []
    for i, row in enumerate(rows):
        run.append(row)
        following = rows[i + 1] if i + 1 < len(rows) else None
        if following is not None and _same_run(row, following):
            continue
        last = run[-1]
        for n, inside in enumerate(run[:-1], 1):
            if str(inside.version) == keep:
                made = t("made_experiment_part").format(id=inside.experiment, i=n, of=len(run))
                listed.append((inside.version, _label(inside, made)))
        listed.append((last.version, _label(last, _made(run))))
        run = []
    return {str(v): label for v, label in reversed(listed)}


def _same_run(row: _Version, following: _Version) -> bool:
    return row.made_by == following.made_by == EXPERIMENT and row.experiment == following.experiment


def _label(row: _Version, made: str) -> str:
    # what made it first, which tells the entries apart: a narrow sidebar cuts the end of the
    # label off (the page says the chosen one whole below the menu)
    held = t("one_match") if row.held == 1 else t("n_matches").format(n=f"{row.held:,}")
    return f"{row.version} · {made} · {held} · {row.committed_at:%Y-%m-%d %H:%M} UTC"


def _made(run: list[_Version]) -> str:
    """What made the versions of `run` (one version, or an experiment's in a row)."""
    row = run[-1]
    if row.made_by == EXPERIMENT:
        if len(run) == 1:
            return t("made_experiment").format(id=row.experiment)
        added = sum(v.added for v in run)
        return t("made_experiment_run").format(id=row.experiment, versions=len(run),
                                               added=f"{added:,}")  # fmt: skip
    if row.made_by in (INGEST, UPLOAD) and row.logs is not None:
        key = f"made_{row.made_by}" + ("_one" if row.logs == 1 else "")
        return t(key).format(n=f"{row.logs:,}")
    if row.made_by in (INGEST, RECORDING, COMPACTION, CONVERSION, UPLOAD):
        return t(f"made_{row.made_by}_plain")
    return t("made_unknown")
