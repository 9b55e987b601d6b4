"""`squire migrate`: a warehouse of the older format (Parquet parts) turned into Delta
tables in place, as its first open would (ingest.warehouse.convert)."""

from __future__ import annotations

import argparse
import sys

from ingest.cli import arguments as arg


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "migrate",
        help="turn a warehouse of Parquet parts into Delta tables, in place, with a count check",
    )
    arg.db_argument(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Convert the warehouse; status 2 when another process writes it, 1 when a count
    disagrees (the parts are kept)."""
    from ingest.warehouse.convert import needed
    from ingest.warehouse.warehouse import DEFAULT_DB, WarehouseBusy, Writer, exists

    db = args.db or DEFAULT_DB
    if not exists(db):
        return arg.no_warehouse("squire migrate", db)
    if not needed(db):
        print(f"{db} holds Delta tables already: nothing to convert")
        return 0
    try:
        writer = Writer(db)  # which converts it, holding the lock
    except WarehouseBusy as err:
        print(f"squire migrate: {err}", file=sys.stderr)
        return 2
    except RuntimeError as err:
        print(f"squire migrate: {err}", file=sys.stderr)
        return 1
    writer.close()
    print(f"{db}: converted to Delta tables, every table's rows counted")
    return 0
