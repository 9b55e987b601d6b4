"""Simulated 4-player matches of one game with random bots, in matches per second on one
core: played and compressed in memory, then from start to logs on disk (best of three runs).

    python bench/simulate_speed.py GAME [-n 2000] [--out FOLDER]
                                        GAME: knight-academy, heraldry, …

Creating a file costs what the file system makes it cost (it is measured apart, too): point
--out at another file system to compare (e.g. /dev/shm).
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable
from pathlib import Path

from timing import best_of  # bench/timing.py, beside this script

from ingest.simulation.simulate import Spec, simulate_chunk, write_log


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("game")
    parser.add_argument(
        "-n", type=int, default=None, help="matches (default: 2000, or 300 for the slower games)"
    )
    parser.add_argument("--out", help="folder to write into (default: a temporary folder)")
    args = parser.parse_args()
    spec = Spec(game=args.game, players=4, bots=("random",), seed=1)
    n = args.n or (2000 if args.game == "knight-academy" else 300)

    def in_memory() -> None:
        simulate_chunk((spec, 0, n))

    def into_fresh_folder(work: Callable[[Path], None]) -> float:
        """Seconds of the work alone: making the folder and removing it afterwards (deleting
        thousands of files) are not part of writing logs."""
        seconds = []
        for _ in range(3):
            with tempfile.TemporaryDirectory(dir=args.out) as out:
                seconds.append(best_of(lambda: work(Path(out)), 1))
        return min(seconds)

    def to_disk(out: Path) -> None:
        for written in simulate_chunk((spec, 0, n)):
            write_log(out, written)

    def files_only(out: Path) -> None:
        for i in range(n):
            (out / f"{i}.jsonl.gz").write_bytes(b"x" * 1700)

    memory = best_of(in_memory)
    disk, files = into_fresh_folder(to_disk), into_fresh_folder(files_only)
    where = args.out or tempfile.gettempdir()
    print(f"{args.game}: {n} matches (4 players, random bots), one core")
    print(f"simulate + compress:         {n / memory:8,.0f} matches/s")
    print(f"simulate + write to {where}: {n / disk:8,.0f} matches/s")
    print(f"  (creating {n} small files there alone: {files / n * 1000:.2f} ms per file)")


if __name__ == "__main__":
    main()
