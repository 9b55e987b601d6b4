"""The warehouse: counts, rejects, idempotency, conflicts, a killed ingest, concurrent reads."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from ingest.cli import main
from ingest.files.read import read_log
from ingest.pipeline.pipeline import ingest
from ingest.simulation.simulate import Spec, simulate_chunk, write_log
from ingest.warehouse import store
from ingest.warehouse.location import S3Path
from ingest.warehouse.warehouse import WarehouseBusy, Writer, group_seconds, open_reader
from replay.replayer import open_log, replay
from tests.support import CATALOGUES

ROOT = Path(__file__).parents[3]
SAMPLES = ROOT / "data" / "samples" / "knight-academy"
EXAMPLE = ROOT / "tests" / "knight_academy" / "logs" / "ka-example-4p.jsonl"
SAMPLE_COUNT = len(list(SAMPLES.glob("*.jsonl*")))


def count(db: Path, sql: str) -> int:
    return open_reader(db).execute(sql).fetchall()[0][0]


def table(db: Path, name: str, order: str) -> list[tuple]:
    return open_reader(db).execute(f"SELECT * FROM {name} ORDER BY {order}").fetchall()


@pytest.fixture(scope="module")
def many_logs(tmp_path_factory) -> Path:
    """1,200 simulated matches on disk, for the tests that need an ingest to take a while."""
    out = tmp_path_factory.mktemp("many")
    spec = Spec(game="knight-academy", players=4, bots=("random",), seed=99)
    for written in simulate_chunk((spec, 0, 1200)):
        write_log(out, written)
    return out


@pytest.fixture
def broken(tmp_path) -> Path:
    """A folder of good logs and one log of each broken kind."""
    folder = tmp_path / "mixed"
    folder.mkdir()
    lines = EXAMPLE.read_text().splitlines()
    shutil.copy(EXAMPLE, folder / "good.jsonl")

    def bad(name: str, number: int, text: str) -> None:
        changed = list(lines)
        changed[number - 1] = text
        (folder / name).write_text("\n".join(changed) + "\n")

    bad("not-json.jsonl", 7, '{"kind": "pick"')
    bad("wrong-type.jsonl", 7, '{"kind": "pick", "player": "Ann", "card": 5}')
    bad("not-held.jsonl", 7, '{"kind": "pick", "player": "Ann", "card": "quest-5"}')
    bad(
        "foreign-track.jsonl",
        28,
        '{"kind": "play", "player": "Fay", "card": "education-4", "track": "joust"}',
    )
    bad(
        "bad-header.jsonl",
        1,
        '{"kind": "header", "format": "squire-log/1", "game": "chess", '
        '"game_id": "x", "players": ["A", "B", "C"]}',
    )
    (folder / "not-utf8.jsonl").write_bytes(
        ("\n".join(lines[:8]) + "\n").encode()
        + lines[8][:-1].encode()
        + b', "note": "\xff"}\n'
        + ("\n".join(lines[9:]) + "\n").encode()
    )
    gz = folder / "gz"
    gz.mkdir()
    gz_lines = list(lines)
    gz_lines[41] = gz_lines[41].replace('"Ann"', '"Bob"')
    (gz / "bonus.jsonl.gz").write_bytes(gzip.compress(("\n".join(gz_lines) + "\n").encode()))
    return folder


EXPECTED_REJECTS = {
    ("not-json.jsonl", 7, "LOG-1"),
    ("wrong-type.jsonl", 7, "LOG-2"),
    ("not-held.jsonl", 7, "KA-5"),
    ("foreign-track.jsonl", 28, "KA-6"),
    ("bad-header.jsonl", 1, "LOG-3"),
    ("bonus.jsonl.gz", 42, "KA-10"),
    ("not-utf8.jsonl", 9, "LOG-1"),
}


def test_seat_scores_equal_squire_replay_json(tmp_path, capsys):
    db = tmp_path / "wh"
    ingest([EXAMPLE.parent], db=db, jobs=1)
    assert main(["replay", "--json", str(EXAMPLE.parent)]) == 0
    for line in capsys.readouterr().out.splitlines():
        row = json.loads(line)
        stored = (
            open_reader(db)
            .execute("SELECT player, score, won FROM seats WHERE game_id = ?", [row["game_id"]])
            .fetchall()
        )
        assert {p: s for p, s, _ in stored} == row["scores"]
        assert sorted(p for p, _, won in stored if won) == row["winners"]


def test_every_reject_kind_is_recorded_with_its_line_and_rule(tmp_path, broken):
    db = tmp_path / "wh"
    summary = ingest([broken], db=db, jobs=1)
    assert summary.ingested == 1 and not summary.ok
    stored = {(Path(row[0]).name, row[1], row[2]) for row in table(db, "rejects", "path")}
    assert stored == EXPECTED_REJECTS
    assert {(Path(r.path).name, r.line, r.rule) for r in summary.rejects} == EXPECTED_REJECTS


def test_ingesting_twice_is_the_same_as_once(tmp_path, broken):
    db = tmp_path / "wh"
    ingest([broken, SAMPLES], db=db, jobs=2)
    before = {
        name: table(db, name, "ALL")
        for name in ("games", "seats", "events", "score_events", "track_moves", "rejects")
    }
    version = store.snapshot(db).version
    again = ingest([broken, SAMPLES], db=db, jobs=1)
    assert again.ingested == 0 and again.present == SAMPLE_COUNT + 1  # and the good example
    assert len(again.rejects) == len(EXPECTED_REJECTS)
    assert store.snapshot(db).version == version  # nothing new: nothing committed
    assert {name: table(db, name, "ALL") for name in before} == before


def test_a_different_log_with_a_known_game_id_is_a_conflict_and_the_stored_match_stays(
    tmp_path, capsys
):
    db = tmp_path / "wh"
    ingest([EXAMPLE], db=db, jobs=1)
    other = tmp_path / "other.jsonl"
    lines = EXAMPLE.read_text().splitlines()
    other.write_text("\n".join(lines[:100]) + "\n")  # same header, another (shorter) log
    assert main(["ingest", str(other), "--db", str(db), "--jobs", "1"]) == 1
    captured = capsys.readouterr()
    assert "1 conflicts" in captured.out
    assert "game_id 'ka-example-4p' is already stored from a different log" in captured.err
    assert count(db, "SELECT event_count FROM games") == 253


def test_the_command_lists_rejects_and_exits_one_but_keeps_the_good_logs(tmp_path, broken, capsys):
    db = tmp_path / "wh"
    assert main(["ingest", str(broken), "--db", str(db), "--jobs", "1"]) == 1
    captured = capsys.readouterr()
    assert (
        f"1 ingested, 0 already present, 0 conflicts, {len(EXPECTED_REJECTS)} rejected"
        in captured.out
    )
    assert f"rejected: {broken / 'not-held.jsonl'}:7: KA-5: Ann picks quest-5" in captured.err
    assert count(db, "SELECT count(*) FROM games") == 1
    assert main(["ingest", str(EXAMPLE), "--db", str(db)]) == 0


def test_only_one_ingest_writes_at_a_time(tmp_path):
    writer = Writer(tmp_path / "wh")
    try:
        with pytest.raises(WarehouseBusy):
            Writer(tmp_path / "wh")
    finally:
        writer.close()


def test_an_ingest_groups_batches_for_longer_on_s3_and_as_long_as_it_is_told(tmp_path, monkeypatch):
    monkeypatch.delenv("SQUIRE_COMMIT_SECONDS", raising=False)
    assert group_seconds(tmp_path / "wh") == 2.0
    assert group_seconds(S3Path("s3://club/warehouse")) == 6.0
    monkeypatch.setenv("SQUIRE_COMMIT_SECONDS", "0.5")
    assert group_seconds(tmp_path / "wh") == group_seconds(S3Path("s3://club/w")) == 0.5
    for wrong in ("soon", "-1", "nan", "inf"):
        monkeypatch.setenv("SQUIRE_COMMIT_SECONDS", wrong)
        with pytest.raises(ValueError, match=f"SQUIRE_COMMIT_SECONDS .* not '{wrong}'"):
            Writer(tmp_path / "wh")
    monkeypatch.setenv("SQUIRE_COMMIT_SECONDS", "0")
    Writer(tmp_path / "wh").close()  # the refused ones took no lock


def test_a_writer_that_gave_up_its_index_commits_nothing_more(tmp_path):
    """An ingest gives up the index of stored matches before its ratings: a batch committed
    after that could store a match twice, so none is."""
    writer = Writer(tmp_path / "wh")
    try:
        writer.finish_commits()
        with pytest.raises(RuntimeError, match="finish_commits"):
            writer.commit({}, {"ka-1": "0" * 64}, {}, [], [], None, {})
    finally:
        writer.close()
    assert store.snapshot(tmp_path / "wh").version == 0


def _whole_matches_only(db: Path) -> None:
    con = open_reader(db)
    assert con.execute("""
        SELECT count(*) FROM games g
        WHERE seat_count != (SELECT count(*) FROM seats s WHERE s.game_id = g.game_id)
           OR event_count != (SELECT count(*) FROM events e WHERE e.game_id = g.game_id)
    """).fetchall() == [(0,)]
    assert con.execute(
        "SELECT count(*) FROM events WHERE game_id NOT IN (SELECT game_id FROM games)"
    ).fetchall() == [(0,)]


def _committed(db: Path) -> bool:
    return store.exists(db) and store.snapshot(db).version > 0


def _squire(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "ingest.cli", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def test_an_ingest_killed_midway_leaves_whole_matches_and_a_rerun_finishes(tmp_path, many_logs):
    db = tmp_path / "wh"
    proc = _squire("ingest", str(many_logs), "--db", str(db), "--jobs", "1")
    deadline = time.monotonic() + 120
    while not _committed(db) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    stored = count(db, "SELECT count(*) FROM games")
    assert 0 < stored < 1200, "the kill should land between two batches"
    _whole_matches_only(db)
    summary = ingest([many_logs], db=db, jobs=2)
    assert summary.ingested == 1200 - stored and summary.present == stored
    assert count(db, "SELECT count(*) FROM games") == 1200
    _whole_matches_only(db)


def test_a_reader_keeps_answering_during_an_ingest_and_never_blocks_it(tmp_path, many_logs):
    db = tmp_path / "wh"
    ingest([SAMPLES], db=db, jobs=1)
    held = open_reader(db)  # a dashboard with the warehouse open throughout
    assert held.execute("SELECT count(*) FROM games").fetchall() == [(SAMPLE_COUNT,)]
    proc = _squire("ingest", str(many_logs), "--db", str(db), "--jobs", "1")
    seen = []
    while proc.poll() is None:
        seen.append(count(db, "SELECT count(*) FROM games"))
        time.sleep(0.05)
    assert proc.returncode == 0
    assert seen == sorted(seen) and len(seen) > 3 and seen[0] >= SAMPLE_COUNT
    assert held.execute("SELECT count(*) FROM games").fetchall() == [(SAMPLE_COUNT,)]
    assert count(db, "SELECT count(*) FROM games") == SAMPLE_COUNT + 1200


def test_round_progress_holds_each_discs_progress_at_each_rounds_end(tmp_path):
    from replay.replayer import state_at

    db = tmp_path / "wh"
    ingest([EXAMPLE], db=db, jobs=1)
    outcome = replay(open_log(read_log(EXAMPLE), str(EXAMPLE), catalogues=CATALOGUES))
    match = outcome.match
    last_of = {step.round: step for step in outcome.steps}
    stored = {
        (r, p, tr): v
        for r, p, tr, v in open_reader(db)
        .execute("SELECT round, player, track, progress FROM round_progress")
        .fetchall()
    }
    assert len(stored) == 6 * 4 * 7
    for rnd, step in last_of.items():
        state = state_at(match, step.index)
        resets = {
            (f.seat, f.track): f.before for f in step.facts if getattr(f, "cause", None) == "reset"
        }
        for seat, player in enumerate(match.header.players):
            for track, row in state.progress.items():
                want = resets.get((seat, track), row[seat])  # before round 3's reset
                assert stored[rnd, player, track] == want, (rnd, player, track)


def test_item_events_number_each_seats_picks_and_plays_within_a_round(tmp_path):
    db = tmp_path / "wh"
    ingest([EXAMPLE], db=db, jobs=1)
    rows = (
        open_reader(db)
        .execute("""
        SELECT action, round, player, list(position ORDER BY event_index), count(DISTINCT item)
        FROM item_events GROUP BY ALL""")
        .fetchall()
    )
    assert {(a, tuple(p)) for a, _, _, p, _ in rows} == {
        ("pick", (1, 2, 3, 4, 5)),
        ("play", (1, 2, 3, 4)),
    }
    assert len(rows) == 2 * 6 * 4
    [(first_pick,)] = (
        open_reader(db).execute("SELECT item FROM item_events WHERE event_index = 5").fetchall()
    )
    assert first_pick == "education-2"  # line 6 of the log: Fay picks education-2


def test_track_leaders_name_the_front_disc_and_count_lead_changes(tmp_path):
    db = tmp_path / "wh"
    ingest([EXAMPLE], db=db, jobs=1)
    con = open_reader(db)
    rows = con.execute("""
        SELECT l.round, l.track, l.leader, max(p.progress) AS top,
               arg_max(p.player, p.progress * 1000 + p.arrived) AS front
        FROM track_leaders l JOIN round_progress p USING (game_id, round, track)
        GROUP BY ALL""").fetchall()
    assert rows and all(leader == front for _, _, leader, _, front in rows)
    changes = con.execute("""
        SELECT count(*) FILTER (WHERE changed),
               count(*) FILTER (WHERE leader IS DISTINCT FROM prev AND prev IS NOT NULL)
        FROM (SELECT *, lag(leader) OVER (PARTITION BY track ORDER BY round) AS prev
              FROM track_leaders)""").fetchall()
    assert changes[0][0] == changes[0][1] > 0


def test_the_index_of_stored_matches_tells_present_from_conflicting_across_folds(monkeypatch):
    import hashlib

    from ingest.warehouse import stored

    monkeypatch.setattr(stored, "FOLD", 7)  # several folds into the sorted arrays
    index = stored.Stored()
    pairs = [(f"ka-{i:06d}", hashlib.sha256(str(i).encode()).hexdigest()) for i in range(100)]
    index.add(pairs[:30])
    index.add(pairs[30:])
    assert len(index) == 100
    assert all(index.same(game_id, sha) for game_id, sha in pairs)
    assert index.same("ka-000003", pairs[4][1]) is False  # another log under a stored id
    assert index.same("ka-000100", pairs[0][1]) is None  # not stored


def test_a_version_read_again_reads_the_same_after_more_matches_arrive(tmp_path, capsys):
    db = tmp_path / "wh"
    first = ingest([ROOT / "tests" / "knight_academy" / "logs"], db=db, jobs=1)
    then = store.snapshot(db).version
    at_then = count(db, "SELECT count(*) FROM games")
    second = ingest([ROOT / "tests" / "heraldry" / "logs"], db=db, jobs=1)
    assert at_then == first.ingested and count(db, "SELECT count(*) FROM games") == (
        first.ingested + second.ingested
    )
    old = open_reader(db, then)
    assert old.execute("SELECT count(*), min(game) FROM games").fetchall() == [
        (first.ingested, "knight-academy")
    ]
    assert old.execute(  # the summaries count complete matches alone
        "SELECT (SELECT sum(matches) FROM summary_matches) = count(*) FROM games WHERE complete"
    ).fetchall() == [(True,)]
    # the versions listed, each with the matches stored by then, as the ingests counted them
    assert main(["versions", "--db", str(db), "--json"]) == 0
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [v["version"] for v in listed] == list(range(1, len(listed) + 1))
    assert next(v for v in listed if v["version"] == then)["matches"] == first.ingested
    assert listed[-1]["matches"] == first.ingested + second.ingested
    # and another Delta reader reads the version by its tables' pins
    import polars as pl

    pinned = next(v for v in listed if v["version"] == then)["pins"]["games"]
    assert pl.read_delta(str(db / "tables" / "games"), version=pinned).height == first.ingested
    # a command reads it too: by its number, or by a time after its commit and before the next
    complete = count(db, "SELECT count(*) FROM games WHERE complete AND game = 'knight-academy'")
    when = store.snapshot(db, then).committed_at
    assert when is not None
    # the time `squire versions` lists for it, too: a little earlier than its commit's own
    listed_at = next(v for v in listed if v["version"] == then)["committed_at"]
    for as_of in (str(then), when.isoformat(), listed_at):
        assert main(["rescore", "knight-academy", "--db", str(db), "--as-of", as_of, "--json"]) == 0
        assert json.loads(capsys.readouterr().out.splitlines()[-1])["matches"] == complete
    assert main(["rescore", "heraldry", "--db", str(db), "--as-of", str(then), "--json"]) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["matches"] == 0
    assert main(["rescore", "heraldry", "--db", str(db), "--as-of", "99", "--json"]) == 2
    assert "has versions 0 to" in capsys.readouterr().err


def test_a_batch_committed_to_some_tables_and_never_pinned_is_never_read_and_is_undone(
    tmp_path, monkeypatch
):
    """The moment a kill can leave a batch in some tables and not others: after its tables'
    commits, before the one to `batches` that pins them."""
    db = tmp_path / "wh"
    logs = ROOT / "tests" / "knight_academy" / "logs"
    ingest([ROOT / "tests" / "heraldry" / "logs"], db=db, jobs=1)
    before = {t: count(db, f"SELECT count(*) FROM {t}") for t in ("games", "seats", "events")}
    version = store.snapshot(db).version

    def killed(self, *args, **kwargs):
        raise KeyboardInterrupt  # the process stopped between the tables and the pin

    monkeypatch.setattr(store.Committer, "pin", killed)
    with pytest.raises(KeyboardInterrupt):
        ingest([logs], db=db, jobs=1)
    monkeypatch.undo()
    ahead = [t for t in ("games", "seats", "events")
             if len(list((db / "tables" / t / "_delta_log").glob("*.json"))) > 1 + 1]  # fmt: skip
    assert ahead, "the tables took the batch's commits"
    assert store.snapshot(db).version == version  # nothing pinned them
    assert {t: count(db, f"SELECT count(*) FROM {t}") for t in before} == before
    summary = ingest([logs], db=db, jobs=1)  # which first undoes what no pin took in
    assert summary.present == 0 and summary.ingested == len(list(logs.glob("*.jsonl")))
    con = open_reader(db)
    assert con.execute("SELECT count(*) = count(DISTINCT game_id) FROM games").fetchall() == [
        (True,)
    ]
    _whole_matches_only(db)


@pytest.mark.parametrize("left", [[], ["00000000000000000000.json#1"]])
def test_tables_a_kill_left_half_made_are_made_by_the_next_writer(tmp_path, left):
    """A kill inside delta-rs' making of a table leaves its log's folder empty, or holding
    the first commit's scratch copy (both seen by killing it at random moments): not a table
    yet, to the next writer and to a reader alike."""
    db = tmp_path / "wh"
    for name in ("games", "seats", "ratings", "batches"):
        log = db / "tables" / name / "_delta_log"
        log.mkdir(parents=True)
        for scratch in left:
            (log / scratch).write_text('{"commitInfo":')
    assert not store.exists(db) and store.latest_files(db, "ratings") is None
    logs = ROOT / "tests" / "knight_academy" / "logs"
    summary = ingest([logs], db=db, jobs=1)
    assert summary.ingested == len(list(logs.glob("*.jsonl"))) and not summary.rejects
    assert count(db, "SELECT count(DISTINCT game_id) FROM seats") == summary.ingested
    assert store.exists(db) and store.latest_files(db, "ratings")
    _whole_matches_only(db)


def test_a_commit_writes_each_summary_once_summed_over_the_batches_it_takes(tmp_path):
    """Workers hand their batches' summaries to the writer rather than write them: three
    batches committed together are three files of `games` and one of each summary, which
    counts the matches of all three."""
    from ingest.pipeline.pipeline import Task, stage
    from ingest.warehouse.summaries import SUMMARIES
    from ingest.warehouse.warehouse import summary_table

    db = tmp_path / "wh"
    logs = sorted(str(p) for p in SAMPLES.glob("*.jsonl*"))[:9]
    writer = Writer(db)
    try:
        stamp = datetime.now(UTC)
        for chunk in (logs[:3], logs[3:6], logs[6:]):
            (staged,) = stage(Task(chunk, writer.db, stamp))
            assert set(staged.files) & {summary_table(n) for n in SUMMARIES} == set()
            writer.commit(staged.files, staged.shas, staged.paths, staged.repeats,
                          staged.rejects, stamp, staged.summaries)  # fmt: skip
        writer.flush()
    finally:
        writer.close()
    pins = store.snapshot(db).pins
    assert len(store.files(db, "games", pins["games"])) == 3
    for name in SUMMARIES:
        assert len(store.files(db, summary_table(name), pins[summary_table(name)])) == 1
    assert count(db, "SELECT sum(matches) FROM summary_matches") == 9
