"""What the review's chances cost the viewer: fitting a game's model on the warehouse (once
per warehouse state, then cached by the dashboards) and reviewing one match (replay, features,
chances, turning points), for each game.

    python bench/review_speed.py [--db W] [--matches 30]

Without `--db`, a fresh warehouse of the bundled samples.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from ingest.analyses.rescore import stored_logs
from ingest.analyses.review import fit_stored, review
from ingest.files.catalogues import Library
from ingest.pipeline.pipeline import ingest
from ingest.warehouse.selection import Selection
from replay.registry import GAMES
from replay.replayer import open_log

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path)
    parser.add_argument("--matches", type=int, default=30)
    args = parser.parse_args()
    db = args.db
    if db is None:
        db = Path(tempfile.mkdtemp(prefix="squire-review-bench-")) / "warehouse"
        ingest([ROOT / "data" / "samples"], db=db, jobs=2)
    for game in sorted(GAMES):
        started = time.perf_counter()
        model = fit_stored(db, game)
        fitting = time.perf_counter() - started
        seconds = []
        for game_id, data in list(stored_logs(db, Selection(game)))[: args.matches]:
            started = time.perf_counter()
            review(open_log(data, game_id, catalogues=Library(db)), model)
            seconds.append(time.perf_counter() - started)
        print(
            f"{game}: fit on {model.matches} matches {fitting:.2f} s; a match's review "
            f"median {statistics.median(seconds) * 1000:.0f} ms, max {max(seconds) * 1000:.0f} ms"
            f" ({len(seconds)} matches)"
        )


if __name__ == "__main__":
    main()
