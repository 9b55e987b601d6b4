"""`squire rescore`: a game's stored matches replayed under changed rules, and what changed."""

from __future__ import annotations

import argparse
import sys
from datetime import date

from ingest.cli import arguments as arg
from ingest.cli.report import json_line
from replay.registry import GAMES


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "rescore", help="replay a game's stored matches under changed rules: what changes"
    )
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a changed ruleset number, e.g. --set 'quest_prizes=[12,8,4]' (none: nothing changes)",
    )
    arg.db_argument(p)
    p.add_argument("--variant", action="append", default=[], help="only this variant (repeatable)")
    p.add_argument("--ruleset", action="append", default=[], help="only this ruleset (repeatable)")
    p.add_argument("--players", action="append", type=arg.SEATS, default=[], help="only this count")
    p.add_argument("--since", type=date.fromisoformat, help="played on or after (YYYY-MM-DD)")
    p.add_argument("--until", type=date.fromisoformat, help="played on or before (YYYY-MM-DD)")
    arg.source_argument(p, "only matches of people, of bots, or of the stored experiments (of one)")
    arg.as_of_argument(p)
    p.add_argument(
        "--finish-with",
        metavar="BOT",
        help="where the changed rules refuse a match, let this bot finish it (an estimate)",
    )
    p.add_argument("--seed", type=int, default=0, help="the finishing bots' chance (default 0)")
    p.add_argument("--json", action="store_true", help="one JSON object per match, then a summary")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Re-score stored matches under `--set` changes; status 2 when the changes do not fit."""
    from ingest.analyses.rescore import match_json, report_text, rescore_stored
    from ingest.simulation.simulate import parse_settings
    from ingest.warehouse.selection import Selection
    from ingest.warehouse.warehouse import DEFAULT_DB, exists
    from replay.errors import RulesError

    db = args.db or DEFAULT_DB
    if not exists(db):
        return arg.no_warehouse("squire rescore", db)
    selection = Selection(
        game=args.game,
        variants=args.variant,
        rulesets=args.ruleset,
        players=args.players,
        since=args.since,
        until=args.until,
        source=args.source,
        as_of=args.as_of,
    )
    try:
        changes = parse_settings(args.set)
        game = GAMES[args.game]
        game.resolve(None, changes)  # LOG-3 before any match: a name or value that cannot be
        report = rescore_stored(db, selection, changes, args.finish_with, args.seed)
    except (ValueError, RulesError) as err:
        print(f"squire rescore: {err}", file=sys.stderr)
        return 2
    refusal = report.refusal()
    if refusal:
        print(f"squire rescore: {refusal}", file=sys.stderr)
        return 2
    if args.json:
        for m in report.matches:
            print(json_line(match_json(m)))
        print(json_line(report.summary()))
    else:
        print(report_text(report))
    return 0
