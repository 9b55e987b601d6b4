"""Fixtures shared across the test folders."""

# the local S3 server (tests.s3.endpoint), for the warehouse on S3 and the cluster's ingest
pytest_plugins = ["tests.s3"]
