"""A warehouse of the older format (Parquet parts) turned into Delta tables: whole or not at
all, with every table's rows counted, and never read half-converted."""

from __future__ import annotations

import fcntl
import json

import pytest

from ingest.cli import main
from ingest.warehouse import convert, store
from ingest.warehouse.warehouse import WarehouseBusy, open_reader
from tests.ingest.warehouse.older import as_parts


@pytest.fixture
def old(sample_parts, tmp_path):
    """The samples in the older format: three parts and a merged one beside two of them."""
    folder = tmp_path / "old"
    counts = as_parts(sample_parts, folder)
    return folder, counts


def _counts(db) -> dict[str, int]:
    con = open_reader(db)
    try:
        return {t: con.sql(f"SELECT count(*) FROM {t}").fetchall()[0][0] for t in ("games", "seats",
                "events", "rejects")}  # fmt: skip
    finally:
        con.close()


def test_the_command_converts_once_and_then_has_nothing_to_do(old, capsys):
    db, counts = old
    assert main(["migrate", "--db", str(db)]) == 0
    assert "converted to Delta tables" in capsys.readouterr().out
    assert _counts(db) == {t: counts[t] for t in ("games", "seats", "events", "rejects")}
    assert main(["migrate", "--db", str(db)]) == 0
    assert "nothing to convert" in capsys.readouterr().out


def test_a_conversion_cut_short_is_not_read_and_the_next_open_starts_it_again(old, monkeypatch):
    db, counts = old
    monkeypatch.setattr(convert, "PARTS_A_COMMIT", 1)
    commit = store.Committer.commit
    made = []

    def cut_short(self, *args, **kwargs):
        if made:
            raise KeyboardInterrupt  # the process stopped after its first commit
        made.append(1)
        return commit(self, *args, **kwargs)

    monkeypatch.setattr(store.Committer, "commit", cut_short)
    with pytest.raises(KeyboardInterrupt):
        open_reader(db)
    assert store.exists(db) and (db / "parts").is_dir() and convert.needed(db)
    monkeypatch.setattr(store.Committer, "commit", commit)
    assert _counts(db)["games"] == counts["games"]  # converted again, from the parts
    assert not convert.needed(db)


def test_a_count_that_disagrees_keeps_the_parts_and_says_which_table(old, monkeypatch, capsys):
    db, _ = old
    rows = convert._rows
    monkeypatch.setattr(convert, "_rows", lambda d, t: rows(d, t) - (t == "events"))
    assert main(["migrate", "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "lost rows (events:" in err and "the parts are kept" in err
    assert convert.needed(db) and not (db / "tables").exists()
    assert json.loads((db / "meta.json").read_text()) == {"schema_version": 2}


def test_a_reader_refuses_a_warehouse_another_process_is_converting(old):
    db, _ = old
    with open(db / "LOCK", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)  # the converting process
        with pytest.raises(WarehouseBusy, match="being converted"):
            open_reader(db)
        assert main(["migrate", "--db", str(db)]) == 2
