"""A game's worked example or bundled sample, replayed once per test run, and told."""

from __future__ import annotations

import functools
import gzip
from pathlib import Path

from dashboards.sentences import told as shared_told
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
    """The sentences as a page shows them (`dashboards.sentences.told`: Chinese spaced)."""
    match, outcome = replayed(game, name)
    return shared_told(match, outcome.steps, lang, seat)
