"""Fixtures shared across the test folders."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from ingest.pipeline.pipeline import ingest

# the local S3 server (tests.s3.endpoint), for the warehouse on S3 and the cluster's ingest
pytest_plugins = ["tests.s3"]

ROOT = Path(__file__).parents[1]


def built_once(
    tmp_path_factory: pytest.TempPathFactory, name: str, build: Callable[[Path], None]
) -> Path:
    """`build(warehouse)` once for the whole run: the test processes a run is spread over
    (pytest-xdist's workers, whose temporary folders are siblings) take turns at a lock, and
    the first builds what the others then read. For a warehouse no test changes in place."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:  # one process: its own folder
        db = tmp_path_factory.mktemp(name) / "warehouse"
        build(db)
        return db
    folder = tmp_path_factory.getbasetemp().parent / name
    folder.mkdir(exist_ok=True)
    db, built = folder / "warehouse", folder / "built"
    with (folder / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released as the file closes
        if not built.exists():
            build(db)
            built.touch()
    return db


@pytest.fixture(scope="session")
def samples_and_examples(tmp_path_factory) -> Path:
    """A warehouse of the bundled samples and the worked examples, built once a test process
    for every test that only reads it (the dashboards', the ratings'): copy it to change it."""
    db = tmp_path_factory.mktemp("samples") / "warehouse"
    ingest([ROOT / "data" / "samples", *sorted((ROOT / "tests").glob("*/logs"))], db=db, jobs=1)
    return db
