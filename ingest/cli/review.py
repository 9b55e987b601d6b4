"""`squire review`: who was winning after each step of one match, and its turning points."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import msgspec

from ingest.cli import arguments as arg
from ingest.cli.report import escaped, json_line
from ingest.files.catalogues import Library
from ingest.files.read import read_log
from replay.errors import ReplayError, one_line
from replay.replayer import open_log, replay


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "review", help="who was winning after each step of a match, and its turning points"
    )
    p.add_argument("match", metavar="LOG|GAME_ID", help="a log file, or a stored match's game_id")
    p.add_argument(
        "--db",
        type=arg.folder,
        help="warehouse folder (default data/warehouse): the matches the estimate is fitted on, "
        "and where a game_id is looked up",
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument(
        "--analyse",
        action="store_true",
        help="judge every decision that had a choice: the win chance the move played gave up "
        "against the best alternative, flagged as an inaccuracy, mistake or blunder (5, 10, 15 "
        "points) where its 95%% interval clears it; each seat's accuracy",
    )
    p.add_argument(
        "--samples", type=int, default=16, help="paired playouts a move analysed (default 16)"
    )
    p.add_argument(
        "--policy",
        default="greedy",
        help="the game's bot that plays the playouts out (default greedy)",
    )
    arg.source_argument(
        p,
        "the estimate fitted on the matches of people, of bots, or of the stored experiments "
        "(of one) alone",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Who was winning after each step of one match, and its turning points."""
    from ingest.analyses.review import (
        NotEnoughMatches,
        fit_stored,
        model_of,
        review,
        review_text,
        stored_log,
    )
    from ingest.warehouse.warehouse import DEFAULT_DB

    db = Path(args.db) if args.db else DEFAULT_DB
    target = args.match
    try:
        if Path(target).is_file():
            data = read_log(target)
        else:
            stored = stored_log(db, target)
            if stored is None:
                print(f"squire review: {one_line(target)} is neither a log file nor a match "
                      f"stored in {db}", file=sys.stderr)  # fmt: skip
                return 2
            data = stored
        match = open_log(data, target, catalogues=Library(db))
        outcome = replay(match)
        if args.analyse:
            return _analysed(match, outcome, args)
        if args.source:  # fitted on those matches alone, not the model the ingest keeps
            model = fit_stored(db, match.game.name, args.source)
        else:
            model = model_of(db, match.game.name)
    except ReplayError as err:
        print(str(err), file=sys.stderr)
        return 1
    except NotEnoughMatches as err:
        print(f"squire review: {err}", file=sys.stderr)
        return 2
    reviewed = review(match, model, outcome)
    if args.json:
        print(json_line(reviewed.to_json()))
    else:
        print(review_text(reviewed, outcome))
    return 0


def _analysed(match: Any, outcome: Any, args: argparse.Namespace) -> int:
    """The decisions judged: the flagged ones a line each, then each seat's accuracy."""
    from replay.analysis import accuracy, analyse

    sim = match.game.simulation
    if sim is None or args.policy not in sim.bots:
        known = ", ".join(sim.bots) if sim else "none"
        print(f"squire review: --policy {args.policy} is not a bot of {match.game.name} "
              f"({known})", file=sys.stderr)  # fmt: skip
        return 2
    if args.samples < 2:
        print("squire review: --samples must be at least 2", file=sys.stderr)
        return 2
    judged = analyse(match, outcome, samples=args.samples, policy=args.policy)
    players = list(match.header.players)
    accurate = accuracy(judged, len(players))
    if args.json:
        print(json_line({
            "game_id": match.header.game_id,
            "decisions": [j.to_json() for j in judged],
            "accuracy": dict(zip(players, accurate)),
        }))  # fmt: skip
        return 0
    print(f"{match.header.game_id}: {len(judged)} decisions with a choice judged, "
          f"{args.samples} paired playouts a move ({args.policy} bots play them out)")  # fmt: skip
    for j in judged:
        if j.label:
            print(f"  step {j.index:>4}  {escaped(players[j.seat]):<12} {j.label:<10} "
                  f"−{j.loss:.1f} points (95% {j.low:.1f} to {j.high:.1f}): "
                  f"{_said(j.played)}; better {_said(j.best)}")  # fmt: skip
    for player, value in zip(players, accurate):
        shown = "—" if value is None else f"{value:.1f}"
        print(f"  accuracy {escaped(player):<12} {shown}")
    return 0


def _said(event: Any) -> str:
    fields = {k: v for k, v in msgspec.to_builtins(event).items() if k not in ("kind", "player")}
    kind = type(event).__struct_config__.tag
    return f"{kind} " + " ".join(f"{k}={v}" for k, v in fields.items() if v not in (None, []))
