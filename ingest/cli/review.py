"""`squire review`: who was winning after each step of one match, and its turning points."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ingest.cli import arguments as arg
from ingest.cli.report import json_line
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
