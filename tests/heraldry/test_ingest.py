"""Heraldry in the warehouse: the same tables as every game, its facts in the generic ones,
and broken logs rejected with their line and HE rule while the good ones go in."""

from __future__ import annotations

import json
from pathlib import Path

from ingest.pipeline import ingest
from ingest.read import find_logs, read_log
from ingest.warehouse import open_reader
from replay.facts import PiecesRemoved, ResourceChanged, TrackMoved
from replay.replayer import open_log, replay
from tests.support import write_variants

from .support import LOGS

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "data" / "samples" / "heraldry"
EXAMPLE = LOGS / "he-example-2p.jsonl"


def _rows(db: Path, sql: str) -> list[tuple]:
    return open_reader(db).execute(sql).fetchall()


def test_samples_and_examples_fill_the_generic_tables_with_the_replayed_facts(tmp_path):
    db = tmp_path / "wh"
    summary = ingest([SAMPLES, LOGS], db=db, jobs=2)
    logs = list(find_logs([str(SAMPLES), str(LOGS)]))
    assert summary.ingested == len(logs) and summary.ok
    facts = [f for p in logs for s in replay(open_log(read_log(p), str(p))).steps for f in s.facts]
    [(resources,)] = _rows(db, "SELECT count(*) FROM resource_changes")
    [(removed,)] = _rows(db, "SELECT count(*) FROM pieces_removed")
    [(moves,)] = _rows(db, "SELECT count(*) FROM track_moves")
    assert resources == sum(type(f) is ResourceChanged for f in facts) > 0
    assert removed == sum(type(f) is PiecesRemoved for f in facts) > 0
    assert moves == sum(type(f) is TrackMoved for f in facts)
    assert {t for (t,) in _rows(db, "SELECT DISTINCT track FROM track_moves")} == {
        "title",
        "score",
        "knights",
        "buildings",
    }
    # Each seat's points by source add up to its score, and the sources are the game's own.
    assert _rows(
        db,
        """SELECT count(*) FROM seats s JOIN (SELECT game_id, seat, sum(points) AS p
        FROM seat_points GROUP BY ALL) USING (game_id, seat) WHERE p <> s.score""",
    ) == [(0,)]
    assert {s for (s,) in _rows(db, "SELECT DISTINCT source FROM points_by_source")} == {
        "city",
        "title",
        "tokens",
    }
    # One winner a match; the first player's position is 0.
    assert _rows(
        db, "SELECT max(w) FROM (SELECT sum(won::INT) AS w FROM seats GROUP BY game_id)"
    ) == [(1,)]
    assert _rows(db, "SELECT DISTINCT position FROM seats WHERE start_player") == [(0,)]


def test_broken_logs_are_rejected_with_line_and_rule_and_the_good_ones_go_in(tmp_path):
    folder = tmp_path / "mixed"
    lines = EXAMPLE.read_text().splitlines()
    changes: dict[str, tuple[int, str]] = {}

    def bad(name: str, number: int, text: str) -> None:
        changes[name] = (number, text)

    bad(
        "lake.jsonl",
        8,
        '{"kind": "move", "player": "Ann", "steps": [{"from": [5, -4], "to": [5, -5]}]}',
    )  # [5, -5] is a lake
    bad("early-pass.jsonl", 8, '{"kind": "pass", "player": "Ann"}')
    bad("loot.jsonl", 23, lines[22].replace(', "loot": ["field"]', ""))
    header = json.loads(lines[0])
    header["map"] = header["map"][:-1]
    bad("small-map.jsonl", 1, json.dumps(header))
    write_variants(folder, lines, changes)
    db = tmp_path / "wh"
    summary = ingest([folder], db=db, jobs=1)
    assert summary.ingested == 1
    got = {
        (Path(p).name, line, rule)
        for p, line, rule in _rows(db, "SELECT path, line, rule FROM rejects")
    }
    assert got == {
        ("lake.jsonl", 8, "HE-8"),
        ("early-pass.jsonl", 8, "HE-14"),
        ("loot.jsonl", 23, "HE-19"),
        ("small-map.jsonl", 1, "HE-22"),
    }
    assert _rows(db, "SELECT game_id FROM games") == [("he-example-2p",)]
