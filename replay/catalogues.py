"""What every game that reads a component catalogue shares: its load errors.

A catalogue is decoded and checked by its game (`replay/games/<game>/catalogue.py`, pure);
finding its file is `ingest.catalogues`'."""

from __future__ import annotations


class CatalogueError(ValueError):
    """`where`: the entry and field (`wall wall-01.reward`); `check`: the format's load check
    number, 0 for decoding."""

    def __init__(self, where: str, message: str, check: int = 0) -> None:
        label = f"check {check}: " if check else ""
        super().__init__(f"{where}: {label}{message}")
        self.where = where
        self.check = check
        self.message = message
