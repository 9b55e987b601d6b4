"""`squire up`, the main job: the bundled sample matches the warehouse lacks ingested, then the
dashboards served."""

from __future__ import annotations

import argparse
from pathlib import Path

from ingest.cli import dashboard
from ingest.files.read import find_logs


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "up", help="ingest the bundled samples the warehouse lacks, then serve the dashboards"
    )
    dashboard.serving_arguments(p)
    p.set_defaults(run=run)


SAMPLES = Path(__file__).resolve().parents[2] / "data" / "samples"


def run(args: argparse.Namespace) -> int:
    """The main job: make sure the warehouse holds the bundled sample matches (all of them on
    a fresh clone; those a newer release added, on an older warehouse), then serve the
    dashboards."""
    from ingest.cli.progress import progress_bar
    from ingest.pipeline.pipeline import ingest_logs
    from ingest.warehouse.warehouse import DEFAULT_DB, open_reader

    if dashboard.cannot_serve(args):  # before the samples' ingest, not after it
        return 2
    db = args.db or DEFAULT_DB
    stored = {row[0] for row in open_reader(db).execute("SELECT game_id FROM games").fetchall()}
    # A sample's file is named after its game_id, so the missing ones are found unread.
    paths = [
        p
        for p in find_logs([str(SAMPLES)])
        if Path(p).name.removesuffix(".gz").removesuffix(".jsonl") not in stored
    ]
    if paths:
        print(f"squire: ingesting {len(paths)} bundled sample matches into {db}")
        with progress_bar(len(paths), "ingest samples") as advance:
            summary = ingest_logs(paths, db=db, on_progress=advance)
        print(summary.lines()[0])
    return dashboard.run(args)
