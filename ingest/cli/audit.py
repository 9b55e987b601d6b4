"""`squire audit`: the club server's audit log (ingest.club.audit), oldest first: who did
what, when and from where, and why it was refused where it was."""

from __future__ import annotations

import argparse
from typing import Any

from ingest.cli import arguments as arg
from ingest.cli.report import json_line
from replay.errors import one_line


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("audit", help="read the audit log: who did what, when, from where")
    arg.db_argument(p, "the warehouse the log is kept beside")
    p.add_argument(
        "--since",
        type=arg.since,
        metavar="DATE|DURATION",
        help="only what happened from then on: a time (2026-12-05, 2026-12-05T14:00, UTC "
        "unless a zone is given) or a length of time back from now (24h, 7d)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object an entry")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ingest.club.audit import entries
    from ingest.warehouse.warehouse import DEFAULT_DB

    found = 0
    for entry in entries(args.db or DEFAULT_DB, args.since):
        found += 1
        if args.json:
            print(json_line({"at": entry.at.isoformat(), "who": entry.who,
                             "where": entry.where, "action": entry.action,
                             "what": entry.what, "refused": entry.refused}))  # fmt: skip
            continue
        said = "  ".join(f"{k}={_value(v)}" for k, v in entry.what.items())
        refused = f"  REFUSED: {one_line(entry.refused)}" if entry.refused is not None else ""
        print(f"{entry.at:%Y-%m-%d %H:%M:%S}  {one_line(entry.who)}  {one_line(entry.where)}  "
              f"{one_line(entry.action)}  {said}{refused}".rstrip())  # fmt: skip
    if not found and not args.json:
        print("squire audit: nothing recorded" + (" in that time" if args.since else ""))
    return 0


def _value(value: Any) -> str:
    text = value if isinstance(value, str) else json_line(value)
    return one_line(text if text and " " not in text else repr(text))
