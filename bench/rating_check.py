"""How well the ratings predict winners: the stored matches are replayed in the order they were
played, and before each one the ratings as they then stood give each seat its chance to win
(the Plackett–Luce model's own). Measured, for each game, against "the name with more wins so
far" (its chance: wins so far + 1, shared out):

- log loss: −log of the chance given to the seats that did win (lower is better);
- accuracy: how often the favourite won (a tie between favourites counts its share).

Then each game's bots in rating order, with their intervals: greedy must rate above random.

    python bench/rating_check.py [--db W] [--json]

Without `--db`, two fresh warehouses: the bundled samples, where every bot plays as often as
every other at tables of the same mix (the win count's best case: it is then a win rate), and
a club of Knight Academy bots that meet at tables of three different mixes and play unequal
numbers of matches, played in one stretch of time.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import polars as pl

from ingest.analyses.ratings import leaderboard, stored, win_chances
from ingest.pipeline.pipeline import ingest

ROOT = Path(__file__).resolve().parents[1]
# (players, bots, matches, seed): the club's tables.
CLUB = [
    (4, "focus,greedy,denier,random", 600, 11),
    (3, "greedy,random,random", 300, 12),
    (4, "focus,denier,focus,denier", 300, 13),
]


def club(work: Path) -> Path:
    for players, bots, n, seed in CLUB:
        subprocess.run(
            [sys.executable, "-m", "ingest.cli", "simulate", "knight-academy", "-n", str(n),
             "--players", str(players), "--bots", bots, "--seed", str(seed),
             "--played-from", "2026-06-01T00:00:00Z", "--out", str(work / "club" / str(seed))],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
    db = work / "club-warehouse"
    ingest([work / "club"], db=db, jobs=2)
    return db


def check(history: pl.DataFrame, game: str) -> dict[str, object]:
    mine = history.filter(pl.col("game") == game)
    wins: dict[str, int] = defaultdict(int)
    rated = {"loss": 0.0, "hits": 0.0}
    counted = {"loss": 0.0, "hits": 0.0}
    matches = 0
    for _, match in mine.group_by("game_id", maintain_order=True):
        seats = [
            (name, mu, sigma, wins_here > i)
            for name, seats_here, wins_here, mu, sigma in match.select(
                "name", "seats", "wins", "mu_before", "sigma_before"
            ).iter_rows()
            for i in range(seats_here)
        ]
        won = [w for *_, w in seats]
        if len(seats) < 2 or not any(won):
            continue
        matches += 1
        chances = win_chances([(mu, sigma) for _, mu, sigma, _ in seats])
        so_far = [wins[name] + 1 for name, *_ in seats]
        baseline = [w / sum(so_far) for w in so_far]
        for key, p in (("rated", chances), ("counted", baseline)):
            book = rated if key == "rated" else counted
            book["loss"] -= math.log(max(1e-12, sum(q for q, w in zip(p, won) if w)))
            top = max(p)
            favourites = [w for q, w in zip(p, won) if math.isclose(q, top)]
            book["hits"] += sum(favourites) / len(favourites)
        for name, *_, w in seats:
            wins[name] += w
    bots = leaderboard(mine, game).filter(pl.col("kind") == "bot")
    return {
        "game": game,
        "matches": matches,
        "log_loss_ratings": round(rated["loss"] / max(1, matches), 4),
        "log_loss_wins_so_far": round(counted["loss"] / max(1, matches), 4),
        "accuracy_ratings": round(rated["hits"] / max(1, matches), 4),
        "accuracy_wins_so_far": round(counted["hits"] / max(1, matches), 4),
        "bots": [
            {"name": n, "rating": round(r, 2), "low": round(lo, 2), "high": round(hi, 2)}
            for n, r, lo, hi in bots.sort("rating", descending=True)
            .select("name", "rating", "low", "high")
            .iter_rows()
        ],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.db is not None:
        warehouses = {"": args.db}
    else:
        work = Path(tempfile.mkdtemp(prefix="squire-ratings-"))
        ingest([ROOT / "data" / "samples"], db=work / "samples", jobs=2)
        warehouses = {"samples": work / "samples", "club": club(work)}
    reports = []
    for label, db in warehouses.items():
        history = stored(db)
        for game in sorted(history["game"].unique()):
            reports.append({"warehouse": label, **check(history, game)})
    if args.json:
        print(json.dumps(reports))
        return
    for r in reports:
        where = f" ({r['warehouse']})" if r["warehouse"] else ""
        print(
            f"{r['game']}{where}: {r['matches']} matches in order\n"
            f"  log loss  ratings {r['log_loss_ratings']:.4f} · wins so far "
            f"{r['log_loss_wins_so_far']:.4f}\n"
            f"  accuracy  ratings {r['accuracy_ratings']:.1%} · wins so far "
            f"{r['accuracy_wins_so_far']:.1%}"
        )
        bots = r["bots"]
        assert isinstance(bots, list)
        print(
            "  bots: "
            + " > ".join(
                f"{b['name']} {b['rating']:.1f} [{b['low']:.1f}, {b['high']:.1f}]" for b in bots
            )
        )


if __name__ == "__main__":
    main()
