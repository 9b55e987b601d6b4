"""A warehouse of the bundled samples (and the worked examples), shared by the dashboard
tests; the app reads it through SQUIRE_WAREHOUSE."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.pipeline.pipeline import ingest

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="session")
def warehouse(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("dash") / "warehouse"
    ingest(
        [
            ROOT / "data" / "samples",
            ROOT / "tests" / "knight_academy" / "logs",
            ROOT / "tests" / "heraldry" / "logs",
            ROOT / "tests" / "paladins" / "logs",
            ROOT / "tests" / "albus_academy" / "logs",
        ],
        db=db,
        jobs=1,
    )
    return db
