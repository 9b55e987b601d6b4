"""A real S3-compatible server for the tests of a warehouse on S3: moto's, in the test's
process, with this process's AWS_* variables pointing at it while a module's tests run."""

from __future__ import annotations

import logging
import os
import uuid

import pytest

from ingest.warehouse import location
from ingest.warehouse.location import S3Path
from tests.support import free_port

KEYS = {"AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test", "AWS_REGION": "us-east-1"}


@pytest.fixture(scope="module")
def endpoint():
    """A local S3 server, and this process's AWS_* variables pointing at it (which the
    processes a test starts inherit)."""
    moto_server = pytest.importorskip("moto.server")
    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # a line a request otherwise
    server = moto_server.ThreadedMotoServer(port=free_port(), verbose=False)
    server.start()
    url = f"http://127.0.0.1:{server._port}"
    before = {k: os.environ.get(k) for k in [*KEYS, "AWS_ENDPOINT_URL", "AWS_ALLOW_HTTP"]}
    os.environ.update(KEYS, AWS_ENDPOINT_URL=url, AWS_ALLOW_HTTP="true")
    location.filesystem.cache_clear()
    try:
        yield url
    finally:
        for key, value in before.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        location.filesystem.cache_clear()
        server.stop()


def new_bucket(prefix: str = "club") -> S3Path:
    """A warehouse's address in a bucket of its own (the endpoint's variables set)."""
    boto3 = pytest.importorskip("boto3")
    name = f"{prefix}-{uuid.uuid4().hex[:12]}"
    boto3.client("s3").create_bucket(Bucket=name)
    return S3Path(f"s3://{name}/warehouse")
