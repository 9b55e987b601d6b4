"""Albus Academy in the warehouse: the same tables, the catalogue recorded with each match,
and broken logs rejected at their line with their AA rule."""

from __future__ import annotations

import json
from pathlib import Path

from ingest.pipeline import ingest
from ingest.read import find_logs
from ingest.warehouse import open_reader
from tests.support import write_variants

from .support import LOGS

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "data" / "samples" / "albus-academy"
EXAMPLE = LOGS / "aa-example-2p.jsonl"


def _rows(db: Path, sql: str) -> list[tuple]:
    return open_reader(db).execute(sql).fetchall()


def test_samples_and_examples_fill_the_tables_and_record_the_catalogue(tmp_path):
    db = tmp_path / "wh"
    summary = ingest([SAMPLES, LOGS], db=db, jobs=2)
    assert summary.ingested == len(list(find_logs([str(SAMPLES), str(LOGS)]))) and summary.ok
    [(name, version, sha)] = _rows(
        db, "SELECT DISTINCT catalogue, catalogue_version, catalogue_sha256 FROM games"
    )
    assert (name, version, len(sha)) == ("albus-sample", "1", 64)
    assert {t for (t,) in _rows(db, "SELECT DISTINCT track FROM track_moves")} >= {
        "will",
        "shards",
        "prestige",
        "homework",
        "tiles",
        "links",
    }
    assert {s for (s,) in _rows(db, "SELECT DISTINCT source FROM points_by_source")} == {
        "spell",
        "item",
        "token",
        "end_ability",
        "class_dismissed",
    }


def test_broken_logs_are_rejected_with_line_and_rule_and_the_good_ones_go_in(tmp_path):
    folder = tmp_path / "mixed"
    lines = EXAMPLE.read_text().splitlines()
    changes: dict[str, tuple[int, str]] = {}

    def bad(name: str, number: int, text: str) -> None:
        changes[name] = (number, text)

    header = json.loads(lines[0])
    header["catalogue"] = {"name": "albus-sample", "version": "9"}
    bad("unknown.jsonl", 1, json.dumps(header))
    bad("bag.jsonl", 3, '{"kind": "draw_tile", "tile": "T99"}')  # no such tile in the bag
    bad("turn.jsonl", 16, lines[15].replace('"Ann"', '"Bob"'))
    bad("dear.jsonl", 17, '{"kind": "complete_homework", "player": "Ann", "card": "S12"}')
    write_variants(folder, lines, changes)
    db = tmp_path / "wh"
    summary = ingest([folder], db=db, jobs=1)
    got = {
        (Path(p).name, line, rule)
        for p, line, rule in _rows(db, "SELECT path, line, rule FROM rejects")
    }
    assert got == {
        ("unknown.jsonl", 1, "AA-34"),
        ("bag.jsonl", 3, "AA-22"),
        ("turn.jsonl", 16, "AA-2"),
        ("dear.jsonl", 17, "AA-16"),
    }
    assert summary.ingested == 1
