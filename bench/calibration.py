"""How well the review's chances to win are calibrated, for each game: the model is fitted on
two thirds of the stored matches and measured on the third it never saw (split by game_id),
against "the seats leading on points win" and "every seat alike".

    python bench/calibration.py [--db W] [-n 600] [--games GAME ...] [--jobs 2] [--json]

Without `--db`, a fresh warehouse gets the bundled samples and, for each game, `-n` matches
simulated by greedy and random bots at three and four seats (two at Albus Academy's table).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from ingest.analyses.outlook import calibration
from ingest.analyses.review import stored_facts
from ingest.warehouse.warehouse import open_reader
from replay.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]
SQUIRE = [sys.executable, "-m", "ingest.cli"]
TABLES = {"albus-academy": (2,), "paladins": (2, 3), "heraldry": (3, 4), "knight-academy": (3, 4)}


def _warehouse(games: list[str], n: int, jobs: int) -> Path:
    work = Path(tempfile.mkdtemp(prefix="squire-calibration-"))
    db = work / "warehouse"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    for game in games:
        subprocess.run([*SQUIRE, "ingest", str(ROOT / "data/samples" / game), "--db", str(db),
                        "--jobs", str(jobs)], check=True, **quiet)  # fmt: skip
        counts = TABLES[game]
        for i, players in enumerate(counts):
            out = work / "logs" / game / str(players)
            subprocess.run(
                [*SQUIRE, "simulate", game, "-n", str(n // len(counts)), "--players", str(players),
                 "--bots", "greedy,random", "--seed", str(100 + i), "--out", str(out),
                 "--jobs", str(jobs)],
                check=True, **quiet,
            )  # fmt: skip
            subprocess.run([*SQUIRE, "ingest", str(out), "--db", str(db), "--jobs", str(jobs)],
                           check=True, **quiet)  # fmt: skip
    return db


def held_out(game_id: str) -> bool:
    """A third of the matches, the same third in every run."""
    return hashlib.sha256(game_id.encode()).digest()[0] % 3 == 0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path)
    parser.add_argument("-n", type=int, default=600, help="matches simulated per game")
    parser.add_argument("--games", nargs="+", default=sorted(GAMES), choices=sorted(GAMES))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    db = args.db or _warehouse(args.games, args.n, args.jobs)
    con = open_reader(db)
    reports = []
    for game in args.games:
        facts = stored_facts(con, game, limit=10**9)
        ids = facts.lengths["game_id"].to_list()
        test = [g for g in ids if held_out(g)]
        train = [g for g in ids if not held_out(g)]
        reports.append(calibration(facts.only(train), facts.only(test), game))
    if args.json:
        print(json.dumps(reports, ensure_ascii=False))
        return
    for r in reports:
        print(
            f"{r['game']}: {r['train_matches']} matches fitted, {r['test_matches']} measured "
            f"({r['predictions']} steps)\n"
            f"  Brier: model {r['brier_model']:.4f} · leader on points {r['brier_leader']:.4f}"
            f" · everyone alike {r['brier_uniform']:.4f}"
        )
        reliability = r["reliability"]
        assert isinstance(reliability, dict)
        print("  predicted   model: seats  mean   won  | leader: seats   won")
        leaders = {row["bin"]: row for row in reliability["leader"]}
        for row in reliability["model"]:
            lead = leaders.get(row["bin"])
            tail = f"{lead['n']:>7} {lead['won']:.3f}" if lead else f"{'':>7} {'':5}"
            print(
                f"  {row['bin']:>9} {row['n']:>13} {row['predicted']:.3f} {row['won']:.3f}  |"
                f" {tail}"
            )


if __name__ == "__main__":
    main()
