"""What every game that reads a component catalogue shares: its load errors.

A catalogue is decoded and checked by its game (`replay/games/<game>/catalogue.py`, pure);
finding its file is `ingest.catalogues`'."""

from __future__ import annotations

from typing import Any


class CatalogueError(ValueError):
    """`where`: the entry and field (`wall wall-01.reward`); `check`: the format's load check
    number, 0 for decoding."""

    def __init__(self, where: str, message: str, check: int = 0) -> None:
        label = f"check {check}: " if check else ""
        super().__init__(f"{where}: {label}{message}")
        self.where = where
        self.check = check
        self.message = message


def named_in(header: Any, game: str, default: tuple[str, str], rule: str) -> Any:
    """The catalogue a match's header names (its `default` when it names none), decoded;
    RulesError citing `rule` when there is no such catalogue or its hash differs. Finding the
    file is ingest's job: the engine asks it, and `replay/` itself reads no files."""
    from ingest.catalogues import for_match
    from replay.errors import RulesError

    named = header.catalogue
    name, version = (named.name, str(named.version)) if named else default
    try:
        return for_match(game, name, version, named.sha256 if named else None)
    except CatalogueError as err:
        raise RulesError(rule, str(err)) from None
