"""The `squire` command line: one console script, a subcommand per job, each a module of its
own here that adds its parser (`add_parser`) and does its job (`run`)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ingest.cli import (
    arguments,
    audit,
    catalogues,
    compact,
    dashboard,
    experiment,
    ingest,
    migrate,
    ratings,
    replay,
    rescore,
    review,
    schema,
    simulate,
    up,
    users,
    versions,
)
from replay.errors import one_line

# In the order `squire --help` lists them.
COMMANDS = (
    replay,
    simulate,
    rescore,
    ratings,
    compact,
    migrate,
    review,
    experiment,
    ingest,
    up,
    dashboard,
    catalogues,
    schema,
    versions,
    users,
    audit,
)


def parser() -> arguments.Parser:
    top = arguments.Parser(
        prog="squire", description="Replay and analyse recorded board-game matches."
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        command.add_parser(commands)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a file name that is not UTF-8 still prints
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args = parser().parse_args(argv)
    if getattr(args, "storage_option", None):
        from ingest.warehouse.location import storage_options

        storage_options(dict(args.storage_option))
    try:
        return int(args.run(args))
    except BrokenPipeError:
        return 0
    except OSError as err:
        if not str(getattr(args, "db", "")).startswith("s3://"):
            raise
        # the server unreachable, the bucket missing, the keys refused: said in one line
        print(f"squire {args.command}: {args.db}: {one_line(str(err))}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
