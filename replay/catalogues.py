"""What every game that reads a component catalogue shares: how a header names one, how the
caller hands it in, and its load errors.

A catalogue is decoded and checked by its game (`replay/games/<game>/catalogue.py`, pure).
Finding its file is the caller's: ingest, the dashboards, the simulator or a test hands the
engine a `Catalogues` (ingest.files.catalogues.Library reads them from disk), and the engine only
asks it for the (name, version) a header names and checks the answer against the header's
sha256. So a replay depends on nothing but its arguments."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from replay.errors import RulesError


class CatalogueError(ValueError):
    """`where`: the entry and field (`wall wall-01.reward`); `check`: the format's load check
    number, 0 for decoding."""

    def __init__(self, where: str, message: str, check: int = 0) -> None:
        label = f"check {check}: " if check else ""
        super().__init__(f"{where}: {label}{message}")
        self.where = where
        self.check = check
        self.message = message


class Catalogues(Protocol):
    """The catalogues a caller can give: decoded, each with the sha256 of its file."""

    def find(self, game: str, name: str, version: str) -> Any:
        """The catalogue (name, version) of `game`; CatalogueError if there is none."""
        ...


class NoCatalogues:
    """What an engine has when its caller handed in none: every catalogue is unknown."""

    def find(self, game: str, name: str, version: str) -> Any:
        raise CatalogueError(
            "catalogue",
            f"no {game} catalogue {name!r} version {version!r} was handed to the replay",
        )


@dataclass(frozen=True)
class Uses:
    """How a game reads a catalogue: the one a header naming none was played with, the rule a
    missing or different catalogue breaks, and how its files are read (`where` names the file in
    an error): the (name, version) a file declares, the whole file decoded, and decoded and
    checked against the game's standard ruleset, as a catalogue's own checks may need it."""

    default: tuple[str, str]  # (name, version)
    rule: str
    pair: Callable[[bytes, str], tuple[str, str]]
    decoded: Callable[[bytes, str], Any]
    checked: Callable[[bytes, str], Any]


def named_in(header: Any, game: str, uses: Uses, catalogues: Catalogues) -> Any:
    """The catalogue a match's header names, from `catalogues`; RulesError citing the game's
    rule when there is no such catalogue or its file is not the one the log names."""
    named = header.catalogue
    name, version = (named.name, str(named.version)) if named else uses.default
    try:
        found = catalogues.find(game, name, version)
    except CatalogueError as err:
        raise RulesError(uses.rule, str(err)) from None
    if named is not None and named.sha256 is not None and named.sha256 != found.sha256:
        raise RulesError(
            uses.rule,
            f"catalogue: {name} {version} has sha256 {found.sha256}, "
            f"not the {named.sha256} the log was played with",
        )
    return found
