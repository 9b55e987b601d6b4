"""How long a whole match's move analysis takes, as `squire review LOG --analyse` runs it (the
defaults: 16 samples, greedy playouts, every core): the issue's budget is 60 s for a Knight
Academy match and 5 minutes for Heraldry and Paladins, on 2 cores.

    python bench/analysis_speed.py [GAME ...] [--runs 1] [--match FILE] [--db W] [--jobs N]

Each game's first bundled sample by default (`--match` names another log), analysed `--runs`
times in a fresh process each; prints each run's wall time and the decisions judged and
flagged. Without `--db`, a fresh warehouse of the
game's samples (for the fitted estimate that scores cut playouts).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))  # bench/dashboards.py would stand for the package of that name

from replay.registry import GAMES  # noqa: E402

SAMPLES = HERE / "data" / "samples"


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("games", nargs="*", metavar="GAME", help=", ".join(sorted(GAMES)))
    p.add_argument("--runs", type=int, default=1)
    p.add_argument("--match", type=Path, default=None, help="a log to analyse (one game)")
    p.add_argument("--db", type=Path, default=None)
    p.add_argument("--jobs", type=int, default=None)
    args = p.parse_args()
    games = args.games or sorted(GAMES)
    if unknown := set(games) - set(GAMES):
        p.error(f"no such game: {', '.join(sorted(unknown))}")
    if args.match is not None and len(games) != 1:
        p.error("--match names one log: name its game alone")
    scratch = tempfile.TemporaryDirectory()
    db = args.db
    if db is None:
        from ingest.analyses.review import refresh_models
        from ingest.pipeline.pipeline import ingest

        db = Path(scratch.name) / "warehouse"
        ingest([SAMPLES / game for game in games], db=db, jobs=args.jobs)
        refresh_models(db)
    try:
        for game in games:
            log = args.match or sorted((SAMPLES / game).glob("*.jsonl.gz"))[0]
            command = [sys.executable, "-m", "ingest.cli", "review", str(log), "--analyse",
                       "--db", str(db), "--json"]  # fmt: skip
            if args.jobs is not None:
                command += ["--jobs", str(args.jobs)]
            for run in range(1, args.runs + 1):
                started = time.perf_counter()
                done = subprocess.run(command, cwd=HERE, capture_output=True, check=True)
                seconds = time.perf_counter() - started
                analysis = json.loads(done.stdout)
                judged = analysis["decisions"]
                flagged = sum(d["label"] is not None for d in judged)
                print(
                    f"{game} {log.name} run {run}: {seconds:.1f} s, {len(judged)} decisions "
                    f"judged, {flagged} flagged ({analysis['playouts']})",
                    flush=True,
                )
    finally:
        scratch.cleanup()


if __name__ == "__main__":
    main()
