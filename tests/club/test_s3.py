"""The accounts and the audit log of a warehouse on S3 (moto's server, tests.s3): kept under
the warehouse's prefix, changed by conditional puts so that two writers lose neither change,
and the log an object an entry, listed in the order written."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest

from ingest.club import FOLDER, accounts, audit
from ingest.warehouse.location import S3Path
from tests.s3 import new_bucket

pytest.importorskip("moto.server")
boto3 = pytest.importorskip("boto3")


@pytest.fixture
def bucket(endpoint) -> S3Path:
    return new_bucket()


def test_accounts_on_s3_are_kept_under_the_warehouse_and_sign_in(bucket):
    accounts.add(bucket, "Ann", "admin", "correct horse")
    _, token = accounts.invite(bucket, "Bo", "member", accounts.SHORTEST_INVITE, "cli:kai")
    assert accounts.redeem(bucket, token).role == "member"
    with pytest.raises(accounts.InviteRefused) as refused:
        accounts.redeem(bucket, token)
    assert refused.value.why == "used"
    assert accounts.verify(bucket, "ann", "correct horse") is not None
    assert (bucket / FOLDER / accounts.ACCOUNTS).is_file()
    assert b"correct horse" not in (bucket / FOLDER / accounts.ACCOUNTS).read_bytes()


def test_two_writers_on_s3_lose_neither_change(bucket):
    names = [f"Player {i}" for i in range(6)]
    adding = [
        threading.Thread(target=accounts.add, args=(bucket, n, "member", "correct horse"))
        for n in names
    ]
    for thread in adding:
        thread.start()
    for thread in adding:
        thread.join()
    assert sorted(u.name for u in accounts.users(bucket)) == names


def test_a_stale_write_on_s3_is_refused_and_worked_out_again(bucket, monkeypatch):
    """A writer that read the accounts before another's change wrote them is refused by S3
    and makes its change again over the other's."""
    accounts.add(bucket, "Ann", "member", "correct horse")
    decoded = accounts._decoded
    raced = []

    def meanwhile(data, where):
        if not raced:  # another writer's change lands between this one's read and its put
            raced.append(True)
            accounts.add(bucket, "Bo", "member", "correct horse")
        return decoded(data, where)

    monkeypatch.setattr(accounts, "_decoded", meanwhile)
    accounts.set_role(bucket, "Ann", "admin")
    monkeypatch.undo()
    assert {(u.name, u.role) for u in accounts.users(bucket)} == {
        ("Ann", "admin"), ("Bo", "member")
    }  # fmt: skip


def test_the_audit_log_on_s3_is_an_object_an_entry_read_in_order(bucket):
    for n in range(5):
        audit.write(bucket, "cli:kai", "cli", "users.list", {"n": n})
    middle = datetime.now(UTC)
    written = threading.Thread(target=audit.write, args=(bucket, "Ann", "10.0.0.2", "signin"))
    written.start()
    audit.write(bucket, "Bo", "10.0.0.3", "signin")
    written.join()
    logged = list(audit.entries(bucket))
    assert [e.what.get("n") for e in logged[:5]] == list(range(5))
    assert sorted(e.who for e in logged[5:]) == ["Ann", "Bo"]
    assert [e.at for e in logged] == sorted(e.at for e in logged)
    assert sorted(e.who for e in audit.entries(bucket, since=middle)) == ["Ann", "Bo"]
    listed = boto3.client("s3").list_objects_v2(
        Bucket=bucket.key.split("/")[0], Prefix=f"warehouse/{FOLDER}/{audit.ENTRIES}/"
    )
    assert listed["KeyCount"] == 7
