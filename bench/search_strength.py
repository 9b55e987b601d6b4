"""How strong the search bot is: matches seated in rotation with every other bot of the game,
rated as the warehouse rates them (ratings with their 95% intervals), and the time a search
decision takes.

    python bench/search_strength.py GAME [-n MATCHES] [--budget 200] [--players 4]
                                         [--bots search:200,search:200:trust=none,greedy]

Plays with `squire simulate` (its worker processes), ingests into a warehouse of its own in a
temporary folder, and prints the leaderboard of `squire ratings` with the seconds a match took.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))  # bench/dashboards.py would stand for the package of that name

from replay.registry import GAMES  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("-n", type=int, default=40, help="matches (default 40)")
    p.add_argument(
        "--budget",
        default="200",
        help="playouts a decision, or e.g. 250ms; 200:greedy plays them out by the greedy bot",
    )
    p.add_argument(
        "--bots",
        help="the bots seated in rotation instead (default: search:BUDGET and the game's "
        "own), e.g. search:200,search:200:trust=none,greedy to set two searches apart",
    )
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    game = GAMES[args.game]
    assert game.simulation is not None
    bots = args.bots.split(",") if args.bots else [f"search:{args.budget}", *game.simulation.bots]
    squire = [sys.executable, "-m", "ingest.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        logs, db = Path(tmp) / "logs", Path(tmp) / "warehouse"
        started = time.perf_counter()
        subprocess.run(
            [*squire, "simulate", args.game, "-n", str(args.n), "--players", str(args.players),
             "--bots", ",".join(bots), "--seed", str(args.seed), "--out", str(logs)],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
        took = time.perf_counter() - started
        subprocess.run([*squire, "ingest", str(logs), "--db", str(db)], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        print(f"{args.game}: {args.n} matches of {args.players} seats, bots {', '.join(bots)} "
              f"in rotation; {took:.0f} s to play ({took / args.n:.1f} s a match on the "
              f"simulator's workers)")  # fmt: skip
        subprocess.run([*squire, "ratings", args.game, "--db", str(db)], check=True)


if __name__ == "__main__":
    main()
