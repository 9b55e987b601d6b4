"""Paladins in the warehouse: the same tables as every game, the catalogue recorded with each
match, and broken logs rejected at their line with their PA rule."""

from __future__ import annotations

import json
from pathlib import Path

from ingest.pipeline import ingest
from ingest.read import find_logs, read_log
from ingest.warehouse import open_reader
from replay.facts import ResourceChanged, ScoreChanged, TrackMoved
from replay.replayer import open_log, replay
from tests.support import CATALOGUES, write_variants

from .support import LOGS

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "data" / "samples" / "paladins"
EXAMPLE = LOGS / "pa-example-2p.jsonl"
SHA = "aa6d17f44e36bf5462e2b9783bb39bad594e370899e21a9b141f000a32db9698"


def _rows(db: Path, sql: str) -> list[tuple]:
    return open_reader(db).execute(sql).fetchall()


def test_samples_and_examples_fill_the_tables_and_record_the_catalogue(tmp_path):
    db = tmp_path / "wh"
    summary = ingest([SAMPLES, LOGS], db=db, jobs=2)
    logs = list(find_logs([str(SAMPLES), str(LOGS)]))
    assert summary.ingested == len(logs) and summary.ok
    assert _rows(
        db, "SELECT DISTINCT catalogue, catalogue_version, catalogue_sha256 FROM games"
    ) == [("squire-sample", "1", SHA)]
    facts = [
        f
        for p in logs
        for s in replay(open_log(read_log(p), str(p), catalogues=CATALOGUES)).steps
        for f in s.facts
    ]
    assert _rows(db, "SELECT count(*) FROM resource_changes") == [
        (sum(type(f) is ResourceChanged for f in facts),)
    ]
    assert _rows(db, "SELECT count(*) FROM track_moves") == [
        (sum(type(f) is TrackMoved for f in facts),)
    ]
    assert _rows(db, "SELECT sum(points) FROM score_events") == [
        (sum(f.points for f in facts if type(f) is ScoreChanged),)
    ]
    assert {s for (s,) in _rows(db, "SELECT DISTINCT source FROM points_by_source")} == {
        "vp",
        "orders",
        "outsiders",
        "faith",
        "strength",
        "influence",
        "debts",
        "suspicion",
    }


def test_broken_logs_are_rejected_with_line_and_rule_and_the_good_ones_go_in(tmp_path):
    folder = tmp_path / "mixed"
    lines = EXAMPLE.read_text().splitlines()
    changes: dict[str, tuple[int, str]] = {}

    def bad(name: str, number: int, text: str) -> None:
        changes[name] = (number, text)

    header = json.loads(lines[0])
    header["catalogue"] = {"name": "squire-sample", "version": "1", "sha256": "0" * 64}
    bad("sha.jsonl", 1, json.dumps(header))
    bad("seen.jsonl", 5, '{"kind": "reveal_tavern", "cards": ["tav-07", "tav-03", "tf-01"]}')
    bad("early.jsonl", 10, lines[9].replace('"Bob"', '"Ann"'))
    bad(
        "short.jsonl",
        14,
        '{"kind": "develop", "player": "Ann", "workers": ["green"], "action": "convert"}',
    )
    write_variants(folder, lines, changes)
    db = tmp_path / "wh"
    summary = ingest([folder], db=db, jobs=1)
    assert summary.ingested == 1
    got = {
        (Path(p).name, line, rule)
        for p, line, rule in _rows(db, "SELECT path, line, rule FROM rejects")
    }
    assert got == {
        ("sha.jsonl", 1, "PA-42"),
        ("seen.jsonl", 5, "PA-9"),
        ("early.jsonl", 10, "PA-15"),
        ("short.jsonl", 14, "PA-16"),
    }
