"""The club's accounts hashed at argon2id's cheapest settings, so that a test hashes in
microseconds (the real settings are held to by test_accounts)."""

from __future__ import annotations

import pytest
from argon2 import PasswordHasher

from ingest.club import accounts

REAL_HASHER = accounts.HASHER


@pytest.fixture(autouse=True)
def cheap_hashes(monkeypatch):
    monkeypatch.setattr(
        accounts, "HASHER", PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    )


@pytest.fixture
def db(tmp_path):
    return tmp_path / "warehouse"
