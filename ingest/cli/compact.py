"""`squire compact`: the warehouse's small files merged into large ones, and the files no
version within the retention reads deleted."""

from __future__ import annotations

import argparse
import sys

from ingest.cli import arguments as arg


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "compact",
        help="merge the warehouse's small files into large ones (readers keep reading), and "
        "delete the files no version within the retention reads",
    )
    arg.db_argument(p)
    p.add_argument(
        "--retain",
        type=arg.between(0, 100_000),
        default=7 * 24,
        metavar="HOURS",
        help="keep every version committed in the last HOURS readable (default 168: a week)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Compact the warehouse; status 2 when another process writes it."""
    from ingest.warehouse.compact import compact
    from ingest.warehouse.warehouse import DEFAULT_DB, WarehouseBusy, exists

    db = args.db or DEFAULT_DB
    if not exists(db):
        return arg.no_warehouse("squire compact", db)
    try:
        done = compact(db, args.retain)
    except WarehouseBusy as err:
        print(f"squire compact: {err}", file=sys.stderr)
        return 2
    print(done.line())
    return 0
