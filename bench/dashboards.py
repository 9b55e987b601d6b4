"""How fast each dashboard page answers on a warehouse of many matches: the first render
(queries run) and the next (cached), per page, in seconds, headless (Streamlit AppTest).

    python bench/dashboards.py [-n 100000] [--work FOLDER]

The matches are simulated (4 players, random bots) and ingested once into FOLDER (default:
a folder in the temp dir), then reused.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["viewer", "sources", "tracks", "win_rates", "balance"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=100_000)
    parser.add_argument("--work", default=str(Path(tempfile.gettempdir()) / "squire-bench-dash"))
    args = parser.parse_args()
    work = Path(args.work) / str(args.n)
    logs, db = work / "logs", work / "warehouse"
    squire = [sys.executable, "-m", "ingest.cli"]
    if not (db / "parts").exists():
        if not logs.exists():
            print(f"simulating {args.n} matches ...", file=sys.stderr)
            subprocess.run(
                [
                    *squire,
                    "simulate",
                    "knight-academy",
                    "-n",
                    str(args.n),
                    "--seed",
                    "8",
                    "--out",
                    str(logs),
                    "--played-from",
                    "2026-01-01T00:00:00Z",
                ],
                check=True,
                stdout=subprocess.DEVNULL,
            )
        print("ingesting ...", file=sys.stderr)
        subprocess.run(
            [*squire, "ingest", str(logs), "--db", str(db)],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    os.environ["SQUIRE_WAREHOUSE"] = str(db)
    from streamlit.testing.v1 import AppTest

    from ingest.warehouse import open_reader

    games = open_reader(db).execute("SELECT count(*) FROM games").fetchall()[0][0]
    print(f"warehouse: {games:,} matches")
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=600)
    at.run()
    for page in PAGES:
        timings = []
        for _ in range(2):
            started = time.perf_counter()
            at.switch_page(f"app_pages/{page}.py")
            at.run()
            timings.append(time.perf_counter() - started)
            if at.exception:
                raise SystemExit(f"{page}: {at.exception[0].value}")
        print(f"{page:<10} first {timings[0]:6.2f} s   cached {timings[1]:6.2f} s")


if __name__ == "__main__":
    main()
