"""Simulated 4-player matches of one game with random bots, in matches per second on one
core: played and compressed in memory, then from start to logs on disk (best of three runs).

    python bench/simulate_speed.py GAME [-n 2000] [--out FOLDER]      GAME: knight-academy, heraldry, …

Creating a file costs what the file system makes it cost (it is measured apart, too): point
--out at another file system to compare (e.g. /dev/shm).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from timing import best_of  # bench/timing.py, beside this script

from ingest.simulate import Spec, simulate_chunk, write_log


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument("-n", type=int, default=None, help="matches (default: 2000, or 300 "
                        "for the slower games)")
    parser.add_argument("--out", help="folder to write into (default: a temporary folder)")
    args = parser.parse_args()
    spec = Spec(game=args.game, players=4, bots=("random",), seed=1)
    n = args.n or (2000 if args.game == "knight-academy" else 300)

    def in_memory() -> None:
        simulate_chunk((spec, 0, n))

    def to_disk() -> None:
        with tempfile.TemporaryDirectory(dir=args.out) as out:
            for written in simulate_chunk((spec, 0, n)):
                write_log(Path(out), written)

    def files_only() -> None:
        with tempfile.TemporaryDirectory(dir=args.out) as out:
            for i in range(n):
                (Path(out) / f"{i}.jsonl.gz").write_bytes(b"x" * 1700)

    memory, disk, files = best_of(in_memory), best_of(to_disk), best_of(files_only)
    where = args.out or tempfile.gettempdir()
    print(f"{args.game}: {n} matches (4 players, random bots), one core")
    print(f"simulate + compress:         {n / memory:8,.0f} matches/s")
    print(f"simulate + write to {where}: {n / disk:8,.0f} matches/s")
    print(f"  (creating {n} small files there alone: {files / n * 1000:.2f} ms per file)")


if __name__ == "__main__":
    main()
