"""The `squire` command line: one console script, a subcommand per job."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import msgspec

from ingest.read import find_logs, read_log
from ingest.report import outcome_json, outcome_text
from replay.errors import ReplayError
from replay.log import Final
from replay.registry import GAMES
from replay.replayer import open_log, replay, state_at


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay each log; print its result (or its state after --step N); rejections to stderr."""
    status = 0
    try:
        paths = list(find_logs(args.logs))
    except FileNotFoundError as err:
        print(f"squire replay: {err}", file=sys.stderr)
        return 2
    for path in paths:
        try:
            match = open_log(read_log(path), str(path))
            if args.step is not None:
                if args.step > len(match.lines):
                    print(f"{path}: the log has {len(match.lines)} events, no step {args.step}",
                          file=sys.stderr)
                    status = max(status, 2)
                    continue
                view = match.game.snapshot(state_at(match, args.step))
                view = {"game_id": match.header.game_id, "step": args.step, **view}
                if args.json:
                    print(json.dumps(view, ensure_ascii=False))
                else:
                    print(f"{path}: {match.header.game_id} after event {args.step}")
                    print(match.game.render(view))
                continue
            outcome = replay(match, keep_steps=False)
        except ReplayError as err:
            print(err, file=sys.stderr)
            status = max(status, 1)
            continue
        except OSError as err:
            print(f"{path}: cannot read: {err}", file=sys.stderr)
            status = max(status, 1)
            continue
        if args.json:
            print(json.dumps(outcome_json(outcome), ensure_ascii=False))
        else:
            print(outcome_text(outcome))
    return status


def cmd_schema(args: argparse.Namespace) -> int:
    game = GAMES[args.game]
    schema = msgspec.json.schema(game.header_type | game.event_type | Final)
    schema["title"] = f"squire-log/1 — {game.name}"
    print(json.dumps(schema, indent=2, ensure_ascii=False))
    return 0


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="squire", description="Replay and analyse recorded board-game matches."
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("replay", help="replay logs: results, or the state after a step")
    p.add_argument("logs", nargs="+", metavar="LOG", help="log files, folders or globs")
    p.add_argument("--json", action="store_true", help="one JSON object per log on its own line")
    p.add_argument("--step", type=int, metavar="N", help="the whole state after event N")
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("schema", help="the JSON Schema of a game's log lines")
    p.add_argument("game", choices=sorted(GAMES))
    p.set_defaults(run=cmd_schema)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
