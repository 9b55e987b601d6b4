"""Matches per second of `squire simulate --cluster` and `squire ingest --cluster` on a Dask
cluster started as an operator would (`dask scheduler`, then `dask worker` programs of one
thread each, on this machine), with 1 and 2 workers, and per worker.

    python bench/cluster_speed.py [-n 10000] [--workers 1 2]

Knight Academy, 4 seats, random bots. Each figure is the best of three runs, each a whole
command in a process of its own; every ingest gets a fresh warehouse.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from timing import best_of  # bench/timing.py, beside this script

SQUIRE = [sys.executable, "-m", "ingest.cli"]
DASK = str(Path(sys.executable).with_name("dask"))
QUIET = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}


def start(work: Path, workers: int) -> tuple[str, list[subprocess.Popen[bytes]]]:
    file = work / f"scheduler-{workers}.json"
    procs = [
        subprocess.Popen(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(file)],
            **QUIET,
        )
    ]  # fmt: skip
    while not file.exists():
        time.sleep(0.1)
    for i in range(workers):
        procs.append(
            subprocess.Popen(
                [DASK, "worker", "--scheduler-file", str(file), "--nthreads", "1",
                 "--no-dashboard", "--name", f"w{i}"],
                **QUIET,
            )
        )  # fmt: skip
    address = json.loads(file.read_text())["address"]
    from distributed import Client

    with Client(address) as client:
        client.wait_for_workers(workers, timeout=60)
    return address, procs


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=10_000)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="squire-cluster-bench-"))
    logs = work / "logs"
    subprocess.run(
        [*SQUIRE, "simulate", "knight-academy", "-n", str(args.n), "--seed", "3", "--out",
         str(logs)],
        check=True, **QUIET,
    )  # fmt: skip
    for workers in args.workers:
        address, procs = start(work, workers)
        try:

            def simulate(address: str = address) -> None:
                out = work / "simulated"
                shutil.rmtree(out, ignore_errors=True)
                subprocess.run(
                    [*SQUIRE, "simulate", "knight-academy", "-n", str(args.n), "--seed", "3",
                     "--cluster", address, "--out", str(out)],
                    check=True, **QUIET,
                )  # fmt: skip

            def ingest(address: str = address) -> None:
                db = work / "warehouse"
                shutil.rmtree(db, ignore_errors=True)
                subprocess.run(
                    [*SQUIRE, "ingest", str(logs), "--cluster", address, "--db", str(db)],
                    check=True, **QUIET,
                )  # fmt: skip

            for name, run in (("simulate", simulate), ("ingest", ingest)):
                rate = args.n / best_of(run)
                print(
                    f"{name:<8} {workers} worker(s): {rate:7,.0f} matches/s "
                    f"({rate / workers:,.0f} per worker)"
                )
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(timeout=30)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
