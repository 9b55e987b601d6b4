"""`squire catalogues`: the component catalogues squire finds, or a check of the files given."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ingest.cli import arguments as arg
from replay.errors import one_line
from replay.registry import GAMES


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "catalogues",
        help="the component catalogues squire finds (shipped, "
        "kept by the warehouse, then in the folders of SQUIRE_CATALOGUES), or "
        "check your own files",
    )
    # The games played with a catalogue.
    p.add_argument("game", nargs="?", choices=sorted(n for n, g in GAMES.items() if g.catalogue))
    p.add_argument("--check", nargs="+", metavar="FILE", help="check these catalogue files")
    arg.db_argument(p, "the warehouse whose kept catalogues to list too")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """List the catalogues squire finds, each with its check; or check the files given."""
    from ingest.files.catalogues import PARSERS, catalogue_bytes, describe, scan
    from ingest.warehouse.warehouse import DEFAULT_DB
    from replay.catalogues import CatalogueError

    warehouse = args.db or DEFAULT_DB

    if args.check:
        status = 0
        parse = PARSERS[args.game]
        for path in args.check:
            try:
                found = parse(catalogue_bytes(path), path)
            except CatalogueError as err:  # named by its file, or by the entry in it
                print(
                    one_line(str(err) if err.where == path else f"{path}: {err}"), file=sys.stderr
                )
                status = 1
                continue
            print(
                f"{path}: {found.name} {found.version} ok ({_counts(found)}); sha256 {found.sha256}"
            )
        return status
    for game in [args.game] if args.game else sorted(PARSERS):
        print(f"{game}:")
        seen: set[tuple[str, str]] = set()
        for found in scan(game, warehouse):
            line = describe(found, PARSERS[game])
            if not isinstance(found, CatalogueError):
                pair = (found.name, found.version)
                if pair in seen:  # a published pair never changes: the first one found stays
                    line += f"  (not used: {found.name} {found.version} is found before it)"
                seen.add(pair)
            print("  " + line)
    return 0


def _counts(catalogue: Any) -> str:
    """What a catalogue holds, kind by kind, whatever its game."""
    if hasattr(catalogue, "entries"):
        return ", ".join(f"{len(v)} {k}" for k, v in catalogue.entries.items())
    return (
        f"{sum(t.count for t in catalogue.tiles.values())} tiles of "
        f"{len(catalogue.tiles)} kinds, {len(catalogue.homework)} homework, "
        f"{len(catalogue.corners)} corners"
    )
