"""Matches per second of `squire experiment`, against `squire simulate` then `squire ingest`
of as many matches, on Knight Academy (4 seats, greedy and random bots, 2 jobs).

    python bench/experiment_speed.py [-n 2000] [--jobs 2]

`-n` is the matches of each arm: the experiment plays 2n, so the simulation plays 2n too.
Each figure is the best of three runs, each a whole command in a process of its own.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import best_of  # bench/timing.py, beside this script

SQUIRE = [sys.executable, "-m", "ingest.cli"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=2000)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    jobs = ["--jobs", str(args.jobs)]
    table = ["--players", "4", "--bots", "greedy,random", "--seed", "1"]
    work = Path(tempfile.mkdtemp(prefix="squire-experiment-bench-"))

    def experiment() -> None:
        shutil.rmtree(work, ignore_errors=True)  # a fresh warehouse: nothing already present
        subprocess.run(
            [
                *SQUIRE,
                *("experiment", "knight-academy", "--metric", "source_share:quest"),
                *("--a", "quest_prizes=[17,10,4]", "--b", "quest_prizes=[12,8,4]"),
                *("--precision", "1e-9", "--max", str(args.n), "--batch", str(args.n)),
                *table,
                *jobs,
                *("--db", str(work / "experiment")),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def simulate_then_ingest() -> None:
        shutil.rmtree(work, ignore_errors=True)
        logs, db = work / "logs", work / "warehouse"
        subprocess.run(
            [*SQUIRE, "simulate", "knight-academy", "-n", str(2 * args.n), "--out", str(logs),
             *table, *jobs],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        subprocess.run(
            [*SQUIRE, "ingest", str(logs), "--db", str(db), *jobs],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    matches = 2 * args.n
    seconds = best_of(experiment)
    print(f"experiment (2 × {args.n} paired matches): {matches / seconds:,.0f} matches/s")
    seconds = best_of(simulate_then_ingest)
    print(f"simulate then ingest ({matches} matches):  {matches / seconds:,.0f} matches/s")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
