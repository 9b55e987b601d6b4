"""`squire schema`: the JSON Schema of a game's log lines."""

from __future__ import annotations

import argparse
import json

import msgspec

from replay.log import Final
from replay.registry import GAMES


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("schema", help="the JSON Schema of a game's log lines")
    p.add_argument("game", choices=sorted(GAMES))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    game = GAMES[args.game]
    schema = msgspec.json.schema(game.header_type | game.event_type | Final)
    schema["title"] = f"squire-log/1 — {game.name}"
    print(json.dumps(schema, indent=2, ensure_ascii=False))
    return 0
