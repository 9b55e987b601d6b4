"""`squire versions`: the warehouse's versions, each a commit of it (a batch of matches, a
compaction, a conversion), with its time, the matches it held and what made it (an ingest of
so many logs, an upload, a match recorded at the table, an experiment's batch, a compaction,
a conversion): what `--as-of` and the dashboards' version choice read. With `--json`, each
also names the version of every table it reads (its pins), so that another Delta reader can
read the same:
`pl.read_delta("W/tables/games", version=pins["games"])`."""

from __future__ import annotations

import argparse

from ingest.cli import arguments as arg
from ingest.cli.report import json_line

LISTED = """
    SELECT version, committed_at, kind, matches AS added,
           sum(matches) OVER (ORDER BY version) AS matches, made_by, logs, experiment
    FROM batches ORDER BY version
"""


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "versions", help="list the warehouse's versions (what --as-of and the dashboards read)"
    )
    arg.db_argument(p)
    p.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per version, with the version of each table it reads",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ingest.warehouse import store
    from ingest.warehouse.origin import described
    from ingest.warehouse.warehouse import DEFAULT_DB, exists, open_reader

    db = args.db or DEFAULT_DB
    if not exists(db):
        return arg.no_warehouse("squire versions", db)
    con = open_reader(db)
    rows = con.sql(LISTED).fetchall()
    con.close()
    if args.json:
        for version, at, kind, added, matches, made_by, logs, experiment in rows:
            pins = store.snapshot(db, version).pins
            print(json_line({"version": version, "committed_at": at.isoformat(), "kind": kind,
                             "added": added, "matches": matches, "made_by": made_by,
                             "logs": logs, "experiment": experiment, "pins": pins}))  # fmt: skip
        return 0
    print(f"{'version':>7}  {'committed (UTC)':<19}  {'what':<10}  {'added':>9}  {'matches':>9}"
          "  made by")  # fmt: skip
    for version, at, kind, added, matches, made_by, logs, experiment in rows:
        print(f"{version:>7}  {at:%Y-%m-%d %H:%M:%S}  {kind:<10}  {added:>9,}  {matches:>9,}"
              f"  {described(made_by, logs, experiment)}")  # fmt: skip
    return 0
