"""The audit log: an entry is written whole even with two writers at once, read back in the
order written, from a time on where asked, and no value in it can fill the disk, and a line a crash
cut short costs no other entry."""

from __future__ import annotations

import multiprocessing
from datetime import UTC, datetime, timedelta

import msgspec

from ingest.club import audit
from ingest.club.audit import entries, write

WRITES = 150


def _writer(db, who: str) -> None:
    # 20 values of 200 characters: a line of 4 kB and more, past what a pipe writes whole
    what = {f"file {i}": who * 200 for i in range(20)}
    for n in range(WRITES):
        write(db, f"cli:{who}", "cli", "upload", {**what, "n": n})


def test_an_entry_says_who_when_from_where_what_and_why_it_was_refused(db):
    before = datetime.now(UTC)
    write(db, "Ann", "192.168.1.20", "users.add", {"name": "Bo", "role": "member"})
    write(db, "anonymous", "192.168.1.21", "signin", {"name": "Bo"}, refused="wrong password")
    first, second = entries(db)
    assert before <= first.at <= second.at <= datetime.now(UTC)
    assert (first.who, first.where, first.action, first.what, first.refused) == (
        "Ann", "192.168.1.20", "users.add", {"name": "Bo", "role": "member"}, None,
    )  # fmt: skip
    assert (second.who, second.refused) == ("anonymous", "wrong password")


def test_two_writers_at_once_write_every_line_whole(db):
    db.mkdir(parents=True)
    fork = multiprocessing.get_context("fork")
    writers = [fork.Process(target=_writer, args=(db, who)) for who in "ab"]
    for process in writers:
        process.start()
    for process in writers:
        process.join()
    assert [p.exitcode for p in writers] == [0, 0]
    lines = (db / "club" / audit.LOG).read_bytes().splitlines()
    decoded = [msgspec.json.decode(line, type=audit.Entry) for line in lines]
    for who in "ab":
        mine = [e for e in decoded if e.who == f"cli:{who}"]
        assert [e.what["n"] for e in mine] == list(range(WRITES))
        assert all(e.what["file 3"] == who * 200 for e in mine)


def test_since_reads_from_that_time_on(db):
    write(db, "Ann", "cli", "users.list")
    middle = datetime.now(UTC)
    write(db, "Ann", "cli", "users.invites")
    assert [e.action for e in entries(db, since=middle)] == ["users.invites"]
    assert list(entries(db, since=middle + timedelta(hours=1))) == []


def test_a_line_a_crash_cut_short_is_passed_over(db):
    write(db, "Ann", "cli", "users.list")
    with open(db / "club" / audit.LOG, "ab") as log:
        log.write(b'{"at": "2026-12-05T14:00:00Z", "who": "An')
    write(db, "Ann", "cli", "users.invites")  # the next entry, whole after the torn one
    assert [e.action for e in entries(db)] == ["users.list", "users.invites"]


def test_no_value_is_longer_than_200_characters(db):
    write(db, "A" * 5000, "cli", "upload", {"name": "B" * 5000, "files": ["C" * 900] * 500})
    (entry,) = entries(db)
    assert len(entry.who) == 200 and len(entry.what["name"]) == 200
    assert len(entry.what["files"]) == 200 and {len(f) for f in entry.what["files"]} == {200}


def test_a_warehouse_with_no_log_reads_as_none(db):
    assert list(entries(db)) == []
