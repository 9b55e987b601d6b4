"""The warehouse the compaction and summary tests start from, built once a run."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.pipeline.pipeline import ingest
from tests.conftest import built_once

SAMPLES = Path(__file__).parents[3] / "data" / "samples"


@pytest.fixture(scope="session")
def sample_parts(tmp_path_factory) -> Path:
    """The samples ingested one game at a time: several parts, every game. Read it, or copy
    it to change it: the test processes of a run share it."""

    def build(db: Path) -> None:
        for game in sorted(p.name for p in SAMPLES.iterdir()):
            ingest([SAMPLES / game], db=db, jobs=1)

    return built_once(tmp_path_factory, "sample-parts", build)
