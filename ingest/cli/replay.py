"""`squire replay`: each log's result, or its whole state after a step."""

from __future__ import annotations

import argparse
import sys

from ingest.cli import arguments as arg
from ingest.cli.report import escaped, json_line, outcome_json, outcome_text
from ingest.files.catalogues import Library
from ingest.files.read import find_logs, read_log
from replay.errors import ReplayError, internal, one_line
from replay.limits import MAX_LINES
from replay.replayer import open_log, replay, state_at


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("replay", help="replay logs: results, or the state after a step")
    p.add_argument("logs", nargs="+", metavar="LOG", help="log files, folders or globs")
    p.add_argument("--json", action="store_true", help="one JSON object per log on its own line")
    p.add_argument(
        "--step", type=arg.between(0, MAX_LINES), metavar="N", help="the whole state after event N"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Replay each log; print its result (or its state after --step N); rejections to stderr,
    one line each, and every other log is still replayed whatever fails on one."""
    status = 0
    try:
        paths = list(find_logs(args.logs))
    except FileNotFoundError as err:
        print(f"squire replay: {one_line(str(err))}", file=sys.stderr)
        return 2
    for path in paths:
        try:
            code, text = _replay_one(str(path), args)
        except ReplayError as err:
            code, text = 1, str(err)
        except Exception as err:  # a bug: this log's rejection, never the end of the run
            code, text = 1, str(internal(str(path), 1, err))
        # Printed outside the try: a closed pipe ends the run, it is no fault of this log.
        print(text, file=sys.stdout if code == 0 else sys.stderr)
        status = max(status, code)
    return status


def _replay_one(path: str, args: argparse.Namespace) -> tuple[int, str]:
    """`squire replay` of one log: its exit status (2 for a step it does not have) and what
    to print (on standard output for 0, else standard error)."""
    match = open_log(read_log(path), path, catalogues=Library())
    if args.step is None:
        outcome = replay(match, keep_steps=False)
        return 0, json_line(outcome_json(outcome)) if args.json else outcome_text(outcome)
    if args.step > len(match.lines):
        return 2, f"{one_line(path)}: the log has {len(match.lines)} events, no step {args.step}"
    view = match.game.snapshot(state_at(match, args.step))
    view = {"game_id": match.header.game_id, "step": args.step, **view}
    if args.json:
        return 0, json_line(view)
    return 0, (
        f"{one_line(path)}: {one_line(match.header.game_id)} after event {args.step}\n"
        + match.game.render(escaped(view))
    )
