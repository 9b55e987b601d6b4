"""How fast each dashboard page answers on a warehouse of many matches, headless (Streamlit
AppTest): per page the first render (queries run) and the next (cached), and over several
filters (player counts, a date range) the 95th percentile of first renders; the player page
of the name with the most matches; the viewer opening four matches drawn at random, each at a
step along the way; then the files a reader opens, the warehouse's size on disk and the peak
memory of the process that rendered the pages.

    python bench/dashboards.py [-n 100000] [--games knight-academy|all] [--compact]
                               [--work FOLDER]

The matches are simulated (4 seats, or the game's largest table under 4; random bots; a match a
minute from 2025-01-01), split evenly over the games with `--games all`, and ingested once into
FOLDER (default: a folder in the temp dir), then reused. `--compact` merges the warehouse's
parts before timing.
"""

from __future__ import annotations

import argparse
import logging
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGES = ["overview", "viewer", "sources", "tracks", "win_rates", "balance", "player"]
STATISTICS = ["sources", "tracks", "win_rates", "balance"]
GAMES = {"knight-academy": 4, "heraldry": 4, "paladins": 4, "albus-academy": 3}
SQUIRE = [sys.executable, "-m", "ingest.cli"]
# A designer's simulations come by the thousand a day: a match a minute puts a million matches
# over about two years of days (each day is a row of the pre-aggregated tables).
EVERY = 1


def build(work: Path, n: int, games: list[str]) -> Path:
    db = work / "warehouse"
    if (db / "tables").exists():
        return db
    for i, game in enumerate(games):
        logs = work / "logs" / game
        if not logs.exists():
            print(f"simulating {n // len(games):,} {game} matches ...", file=sys.stderr)
            subprocess.run(
                [*SQUIRE, "simulate", game, "-n", str(n // len(games)), "--players",
                 str(GAMES[game]), "--seed", str(8 + i), "--out", str(logs), "--played-from",
                 "2025-01-01T00:00:00Z", "--played-every", str(EVERY)],
                check=True, stdout=subprocess.DEVNULL,
            )  # fmt: skip
    print("ingesting ...", file=sys.stderr)
    subprocess.run(
        [*SQUIRE, "ingest", str(work / "logs"), "--db", str(db)],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return db


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=100_000)
    parser.add_argument("--games", default="knight-academy", choices=[*GAMES, "all"])
    parser.add_argument("--compact", action="store_true")
    parser.add_argument("--work", default=str(Path(tempfile.gettempdir()) / "squire-bench-dash"))
    args = parser.parse_args()
    games = list(GAMES) if args.games == "all" else [args.games]
    work = Path(args.work) / f"{args.games}-{args.n}"
    db = build(work, args.n, games)
    if args.compact:
        subprocess.run([*SQUIRE, "compact", "--db", str(db)], check=True, stdout=subprocess.DEVNULL)
    os.environ["SQUIRE_WAREHOUSE"] = str(db)
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    # The pages run bare (AppTest), where Streamlit warns at every cached query that no
    # script runs it: dozens of lines among the figures.
    logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").disabled = True

    from ingest.warehouse import store
    from ingest.warehouse.warehouse import all_schemas, open_reader

    matches = open_reader(db).execute("SELECT count(*) FROM games").fetchall()[0][0]
    pins = store.snapshot(db).pins
    files = sum(len(store.files(db, t, pins.get(t, 0))) for t in all_schemas())
    size = sum(f.stat().st_size for f in db.rglob("*") if f.is_file())
    print(f"warehouse: {matches:,} matches, version {store.snapshot(db).version}, {files} files "
          f"a reader opens, {size / 2**30:.2f} GiB on disk")  # fmt: skip

    def render(page: str, shown: str = games[0], **params: str) -> tuple[float, float]:
        """The page's first render and the next, with the game filter on `shown` and these
        query parameters (the viewer's `game` is a match id)."""
        at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=600)
        at.session_state["filter-game"] = shown
        for key, value in params.items():
            at.query_params[key] = value
        at.run()
        if page == "overview":  # the home page just ran, importing the app: timed anew, uncached
            st.cache_data.clear()
            st.cache_resource.clear()
        timings = []
        for _ in range(2):
            started = time.perf_counter()
            at.switch_page(f"app_pages/{page}.py")
            at.run()
            timings.append(time.perf_counter() - started)
            if at.exception:
                raise SystemExit(f"{page}: {at.exception[0].value}")
        return timings[0], timings[1]

    filters = [{"filter-players": "4"}, {"filter-players": "3"},
               {"filter-dates": "2026-01-01,2026-02-01"}]  # fmt: skip
    con = open_reader(db)
    (name,) = con.execute(  # the name with the most matches: the heaviest player page
        "SELECT coalesce(agent, player) FROM seats GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
    ).fetchall()[0]
    ids = con.execute("SELECT game_id, game FROM games USING SAMPLE 4 ROWS").fetchall()
    con.close()
    for page in PAGES:
        # the statistics pages of every game the warehouse mixes, each under every filter
        for game in games if page in STATISTICS else games[:1]:
            first, cached = render(page, game, **({"name": name} if page == "player" else {}))
            label = f"{page} ({game})" if page in STATISTICS and len(games) > 1 else page
            line = f"{label:<10} first {first:6.2f} s   cached {cached:6.2f} s"
            if page in STATISTICS:
                firsts = [first, *(render(page, game, **f)[0] for f in filters)]
                line += f"   p95 of first over {len(firsts)} filters {p95(firsts):6.2f} s"
            print(line)
    # The viewer opening matches anywhere in the warehouse, at a step along the way.
    opened = []
    for k, (game_id, game) in enumerate(ids):
        opened.append(render("viewer", game, game=game_id, step=str(40 + 30 * k))[0])
    print(f"viewer opening {len(ids)} matches at random, each at a step: "
          f"{min(opened):.2f}–{max(opened):.2f} s")  # fmt: skip
    # The pages ran in this process, as in the dashboard's server: its peak is theirs.
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20
    print(f"peak memory of the process that rendered the pages: {peak:.2f} GiB")


if __name__ == "__main__":
    main()
