"""Fixtures shared across the test folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.pipeline.pipeline import ingest

# the local S3 server (tests.s3.endpoint), for the warehouse on S3 and the cluster's ingest
pytest_plugins = ["tests.s3"]

ROOT = Path(__file__).parents[1]


@pytest.fixture(scope="session")
def samples_and_examples(tmp_path_factory) -> Path:
    """A warehouse of the bundled samples and the worked examples, built once a test process
    for every test that only reads it (the dashboards', the ratings'): copy it to change it."""
    db = tmp_path_factory.mktemp("samples") / "warehouse"
    ingest([ROOT / "data" / "samples", *sorted((ROOT / "tests").glob("*/logs"))], db=db, jobs=1)
    return db
