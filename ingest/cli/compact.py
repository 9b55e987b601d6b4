"""`squire compact`: the warehouse's small parts merged into large ones."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ingest.cli import arguments as arg


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "compact", help="merge the warehouse's small parts into large ones (readers keep reading)"
    )
    p.add_argument("--db", type=arg.folder, help="warehouse folder (default data/warehouse)")
    p.add_argument(
        "--target",
        type=arg.between(1, 10_000_000),
        default=50_000,
        help="matches a merged part holds (default 50000)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Merge the warehouse's small parts; status 2 when another compaction holds it."""
    from ingest.warehouse.compact import compact
    from ingest.warehouse.warehouse import DEFAULT_DB, WarehouseBusy, exists

    db = Path(args.db) if args.db else DEFAULT_DB
    if not exists(db):
        return arg.no_warehouse("squire compact", db)
    try:
        done = compact(db, args.target)
    except WarehouseBusy as err:
        print(f"squire compact: {err}", file=sys.stderr)
        return 2
    print(done.line())
    return 0
