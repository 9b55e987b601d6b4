"""Every game through the warehouse: its samples and worked examples fill the same tables
with exactly the facts replay finds, and its broken logs are rejected at their line with
their rule while the good ones go in."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.files.read import find_logs, read_log
from ingest.pipeline.pipeline import ingest
from ingest.warehouse.warehouse import open_reader
from replay.facts import PiecesRemoved, ResourceChanged, ScoreChanged, TrackMoved, TrackRanked
from replay.registry import GAMES
from replay.replayer import open_log, replay
from tests.support import CATALOGUES, write_variants

from .play import FOLDERS, NAMES, PROFILES, SAMPLES

TABLES = {
    "track_moves": TrackMoved,
    "resource_changes": ResourceChanged,
    "pieces_removed": PiecesRemoved,
    "score_events": ScoreChanged,
    "round_progress": TrackRanked,  # a row for each marker at each round's end
}


def _rows(db: Path, sql: str) -> list[tuple]:
    return open_reader(db).execute(sql).fetchall()


@pytest.mark.parametrize("name", NAMES)
def test_samples_and_examples_fill_every_table_with_the_replayed_facts(name, tmp_path):
    game = GAMES[name]
    db = tmp_path / "wh"
    folders = [SAMPLES[name], FOLDERS[name] / "logs"]
    summary = ingest(folders, db=db, jobs=1)
    logs = list(find_logs([str(f) for f in folders]))
    assert summary.ingested == len(logs) and summary.ok
    outcomes = [replay(open_log(read_log(p), str(p), catalogues=CATALOGUES)) for p in logs]
    facts = [f for o in outcomes for s in o.steps for f in s.facts]
    seats = sum(len(o.match.header.players) for o in outcomes)
    assert _rows(db, "SELECT count(*), count(DISTINCT engine_version) FROM games") == [
        (len(logs), 1)
    ]
    assert _rows(db, "SELECT DISTINCT game, engine_version FROM games") == [
        (name, game.engine_version)
    ]
    assert _rows(db, "SELECT count(*) FROM seats") == [(seats,)]
    assert _rows(db, "SELECT count(*) FROM events") == [(sum(len(o.steps) for o in outcomes),)]
    for table, fact in TABLES.items():
        assert _rows(db, f"SELECT count(*) FROM {table}") == [
            (sum(type(f) is fact for f in facts),)
        ], table
    assert _rows(db, "SELECT sum(points) FROM score_events") == [
        (sum(sum(o.result.scores) for o in outcomes),)
    ]
    # Each seat's points by source add up to its score, over the game's own sources.
    assert _rows(
        db,
        """SELECT count(*) FROM seats s JOIN (SELECT game_id, seat, sum(points) AS p
        FROM seat_points GROUP BY ALL) USING (game_id, seat) WHERE p <> s.score""",
    ) == [(0,)]
    # Points by source are the final ones: a row for every seat of a complete match and every
    # source its rules score from (a variant board has its own, KA-22).
    scored = [(o, game.scored_sources(o.match.config)) for o in outcomes if o.result.complete]
    complete = sum(len(o.match.header.players) * len(sources) for o, sources in scored)
    assert _rows(db, "SELECT count(*) FROM points_by_source") == [(complete,)]
    assert {s for (s,) in _rows(db, "SELECT DISTINCT source FROM points_by_source")} == {
        s for _, sources in scored for s in sources
    }
    tracks = {f.track for f in facts if type(f) is TrackMoved}
    assert {t for (t,) in _rows(db, "SELECT DISTINCT track FROM track_moves")} == tracks
    leads = sum(type(f) is TrackRanked and f.leads for f in facts)
    assert _rows(db, "SELECT count(*) FROM track_leaders") == [(leads,)]
    if game.catalogue:  # the catalogue each match was played with, recorded with it
        named = {
            (o.match.catalogue.name, o.match.catalogue.version, o.match.catalogue.sha256)
            for o in outcomes
        }
        sql = "SELECT DISTINCT catalogue, catalogue_version, catalogue_sha256 FROM games"
        assert set(_rows(db, sql)) == named


@pytest.mark.parametrize("name", NAMES)
def test_broken_logs_are_rejected_with_line_and_rule_and_the_good_ones_go_in(name, tmp_path):
    profile = PROFILES[name]
    example = FOLDERS[name] / "logs" / profile.example
    lines = example.read_text().splitlines()
    broken = profile.broken(lines)
    write_variants(tmp_path / "mixed", lines, {n: (i, text) for n, (i, text, _) in broken.items()})
    db = tmp_path / "wh"
    summary = ingest([tmp_path / "mixed"], db=db, jobs=1)
    assert summary.ingested == 1
    got = {
        (Path(p).name, i, rule) for p, i, rule in _rows(db, "SELECT path, line, rule FROM rejects")
    }
    assert got == {(n, i, rule) for n, (i, _, rule) in broken.items()}
    assert _rows(db, "SELECT game_id FROM games") == [(example.stem,)]
