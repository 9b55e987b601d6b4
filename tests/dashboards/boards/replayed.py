"""A game's worked example or bundled sample, replayed once per test run, and told."""

from __future__ import annotations

import functools
import gzip
from pathlib import Path

from dashboards.boards import board
from ingest.files.catalogues import Library
from replay.registry import PACKAGES
from replay.replayer import Match, Outcome, open_log, replay

ROOT = Path(__file__).parents[3]


@functools.cache
def replayed(game: str, name: str) -> tuple[Match, Outcome]:
    """`name`: a worked example of `game` (tests/<game>/logs) or one of its samples."""
    path = ROOT / "tests" / PACKAGES[game] / "logs" / f"{name}.jsonl"
    if not path.exists():
        path = ROOT / "data" / "samples" / game / f"{name}.jsonl.gz"
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    match = open_log(data, str(path), catalogues=Library())
    return match, replay(match)


def told(game: str, name: str, lang: str, seat: int | None = None) -> list[str]:
    match, outcome = replayed(game, name)
    return list(board(game).sentences(match, outcome.steps, lang, seat))
