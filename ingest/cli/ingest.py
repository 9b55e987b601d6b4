"""`squire ingest`: logs replayed into the warehouse, with a progress bar."""

from __future__ import annotations

import argparse
import sys

from ingest.cli import arguments as arg
from ingest.files.read import find_logs
from replay.errors import one_line


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("ingest", help="replay logs into the warehouse")
    p.add_argument("paths", nargs="+", metavar="PATH", help="log files, folders or globs")
    arg.db_argument(p)
    p.add_argument(
        "--jobs",
        type=arg.jobs,
        help="local worker processes (default: all cores; one for fewer than 500 logs)",
    )
    p.add_argument("--cluster", metavar="ADDR", help="a Dask scheduler, e.g. tcp://host:8786")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Store logs in the warehouse; list what was rejected; status 1 if anything was."""
    from ingest.pipeline.executor import INGEST_PRELOAD, start_early

    # Before the imports below, so that the workers' imports overlap them.
    start_early(args.jobs, args.cluster, INGEST_PRELOAD)
    from ingest.cli.progress import progress_bar
    from ingest.files.log_list import LogList
    from ingest.pipeline.pipeline import ingest_logs
    from ingest.warehouse.warehouse import DEFAULT_DB, WarehouseBusy, group_seconds

    db = args.db or DEFAULT_DB
    try:
        group_seconds(db)  # a setting it cannot use, said before anything starts
        paths = LogList(find_logs(args.paths))
    except (FileNotFoundError, ValueError) as err:
        print(f"squire ingest: {err}", file=sys.stderr)
        return 2
    try:
        with progress_bar(len(paths), "ingest") as advance:
            summary = ingest_logs(
                paths, db=db, jobs=args.jobs, cluster=args.cluster, on_progress=advance
            )
    except WarehouseBusy as err:
        print(f"squire ingest: {err}", file=sys.stderr)
        return 2
    except Exception as err:  # the warehouse cannot be written, a worker died: not a log
        print(
            f"squire ingest: stopped ({type(err).__name__}: {one_line(str(err))}); the "
            "batches committed before stay, and running it again goes on",
            file=sys.stderr,
        )
        return 2
    head, *details = summary.lines()
    print(head)
    for line in details:
        print(line, file=sys.stderr)
    print(f"warehouse: {db}")
    return 0 if summary.ok else 1
