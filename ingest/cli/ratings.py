"""`squire ratings`: a game's leaderboard, a line (or a JSON object) per rated name."""

from __future__ import annotations

import argparse
import sys

from ingest.cli import arguments as arg
from ingest.cli.report import escaped, json_line
from replay.registry import GAMES


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "ratings", help="a game's players and bots rated, with their uncertainty"
    )
    p.add_argument("game", choices=sorted(GAMES))
    arg.db_argument(p)
    arg.as_of_argument(p)
    p.add_argument("--json", action="store_true", help="one JSON object per rated name")
    arg.source_argument(
        p, "rated over the matches of people, of bots, or of the stored experiments (of one) alone"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """The game's leaderboard: a line (or a JSON object) per rated person or bot, the people
    first, then the bots, each by rating, highest first."""
    from ingest.analyses.ratings import leaderboard, of_game
    from ingest.warehouse.warehouse import DEFAULT_DB, exists

    db = args.db or DEFAULT_DB
    if not exists(db):
        return arg.no_warehouse("squire ratings", db)
    try:
        history = of_game(db, args.game, args.source, args.as_of)
    except ValueError as err:  # a version the warehouse never had
        print(f"squire ratings: {err}", file=sys.stderr)
        return 1
    board = leaderboard(history, args.game)
    if args.json:
        for row in board.iter_rows(named=True):
            print(json_line(row))
        return 0
    if board.is_empty():
        which = f" of --source {args.source}" if args.source else ""
        print(f"no complete {args.game} match{which} is stored in {db}")
        return 0
    # as wide as the longest name, so that a search bot's settings keep the columns in line
    wide = max(16, *(len(escaped(n)) for n in board["name"]))
    header = (f"{'':>3} {'name':<{wide}} {'kind':<6} {'rating':>7} {'95% interval':>15} "
              f"{'matches':>8} {'win rate':>9}")  # fmt: skip
    kind = None
    for i, row in enumerate(board.iter_rows(named=True), 1):
        if row["kind"] != kind:  # people and bots in lists of their own, each from 1
            print(("\n" if kind else "") + ("people" if row["kind"] == "player" else "bots"))
            print(header)
            kind, first = row["kind"], i
        mark = "  provisional" if row["provisional"] else ""
        print(
            f"{i - first + 1:>3} {escaped(row['name']):<{wide}} {row['kind']:<6} "
            f"{row['rating']:7.2f} {row['low']:7.2f}–{row['high']:<7.2f} {row['matches']:>8} "
            f"{row['win_rate']:9.1%}{mark}"
        )
    return 0
