"""Bad input never crashes squire or loses a good log: each attack ends as one rejection
`PATH:LINE: RULE: message`, within bounded memory, and every good log beside it is stored."""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from ingest.cli import main
from ingest.club.access import Who
from ingest.files.read import read_log
from ingest.pipeline import pipeline, rows
from ingest.pipeline.pipeline import ingest
from ingest.warehouse.warehouse import open_reader
from replay.errors import ReplayError, one_line
from replay.limits import MAX_DEPTH, MAX_LINE_BYTES, MAX_LINES, MAX_LOG_BYTES, depth
from replay.registry import GAMES
from replay.replayer import open_log
from tests.attacks import GOOD, MiB, attacks, lines_of, repeated_gzip, text, write_attacks
from tests.support import uncommitted

ROOT = Path(__file__).parents[3]
EXAMPLES = sorted(ROOT.glob("tests/*/logs/*.jsonl"))
REJECTION = re.compile(r"^(?P<path>[^\n]+?):(?P<line>\d+): (?P<rule>LOG-\d|[A-Z]{2}-\d+[a-z]?): ")


def rejected(data: bytes, path: str = "x.jsonl") -> ReplayError:
    with pytest.raises(ReplayError) as caught:
        open_log(data, path)
    return caught.value


@pytest.fixture
def mixed(tmp_path) -> tuple[Path, dict[str, tuple[int, str]], int]:
    """A folder of every attack beside good logs of all four games: (folder, the attacks'
    expected rejections by file name, how many good logs)."""
    folder = tmp_path / "mixed"
    expected = write_attacks(folder / "attacks")
    good = [*EXAMPLES, *sorted((ROOT / "data" / "samples").glob("*/*.jsonl*"))[::20]]
    for path in good:
        shutil.copy(path, folder / path.name)
    return folder, expected, len(good)


# --- LOG-6: the limits, each at its bound and one past it ------------------------------------


def test_nesting_is_counted_exactly_outside_strings_and_for_brackets_never_closed():
    assert depth(b'{"a": [1, {"b": []}], "c": "[[[[[["}') == 4  # { [ { [
    assert depth(b"[[],[[]]]") == 3
    assert depth(b"[" * 50) == 50
    assert depth(b'"\\"[[["') == 0  # an escaped quote does not end the string


def test_a_line_may_nest_to_the_limit_but_not_one_level_deeper():
    good = lines_of(GOOD, "deep")
    at_limit = good[1][:-1] + ', "zz": ' + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "}"
    open_log(text([good[0], at_limit]), "ok.jsonl")  # the event itself is the first level
    deeper = good[1][:-1] + ', "zz": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}"
    err = rejected(text([good[0], deeper]))
    assert (err.line, err.rule) == (2, "LOG-6") and "deeper than 32" in err.message


def test_a_line_may_be_as_long_as_the_limit_but_no_longer():
    good = lines_of(GOOD, "long")
    pad = MAX_LINE_BYTES - len(good[1]) - len(', "zz": ""')
    open_log(text([good[0], good[1][:-1] + f', "zz": "{"a" * pad}"}}']), "ok.jsonl")
    err = rejected(text([good[0], good[1][:-1] + f', "zz": "{"a" * (pad + 1)}"}}']))
    assert (err.line, err.rule) == (2, "LOG-6") and "longer than 1 MiB" in err.message


def test_a_log_may_have_as_many_lines_as_the_limit_and_not_one_more():
    header = lines_of(GOOD, "lines")[0].encode() + b"\n"
    open_log(header + b"\n" * (MAX_LINES - 1), "ok.jsonl")
    err = rejected(header + b"\n" * MAX_LINES)
    assert (err.line, err.rule) == (MAX_LINES + 1, "LOG-6")


def test_a_plain_log_larger_than_the_limit_is_refused_where_it_passes_it(tmp_path):
    path = tmp_path / "big.jsonl"
    path.write_bytes((b"x" * 99 + b"\n") * (MAX_LOG_BYTES // 100 + 1))
    with pytest.raises(ReplayError) as caught:
        read_log(path)
    assert (caught.value.rule, caught.value.line) == ("LOG-6", MAX_LOG_BYTES // 100 + 1)


@pytest.mark.parametrize(
    "name", ["nul-bomb.jsonl.gz", "newline-bomb.jsonl.gz", "field-bomb.jsonl.gz"]
)
def test_a_decompression_bomb_is_refused_before_it_is_inflated(tmp_path, name):
    data, line, rule = attacks()[name]  # a gigabyte, or 256 MiB, once inflated
    path = tmp_path / name
    path.write_bytes(data)
    tracemalloc.start()
    try:
        with pytest.raises(ReplayError) as caught:
            read_log(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert (caught.value.line, caught.value.rule) == (line, rule)
    assert peak < 3 * MAX_LOG_BYTES, f"{peak / MiB:.0f} MiB held to refuse it"


# --- LOG-7: files that are not whole logs --------------------------------------------------


@pytest.mark.parametrize("name", [n for n in attacks() if n.endswith(".gz") and "bomb" not in n])
def test_a_broken_gzip_stream_is_refused_at_the_first_line_it_does_not_deliver(tmp_path, name):
    data, line, rule = attacks()[name]
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(ReplayError) as caught:
        read_log(path)
    assert (caught.value.line, caught.value.rule) == (line, rule)


def test_gzip_members_laid_end_to_end_and_nul_padding_read_as_one_log(tmp_path):
    path = tmp_path / "joined.jsonl.gz"
    whole = GOOD.read_bytes()
    half = len(whole) // 2
    path.write_bytes(gzip.compress(whole[:half]) + gzip.compress(whole[half:]) + bytes(100))
    assert read_log(path) == whole
    path.write_bytes(repeated_gzip(b"\n", 3))
    assert read_log(path) == b"\n\n\n"


def test_a_fifo_named_like_a_log_is_refused_without_waiting_for_a_writer(tmp_path):
    os.mkfifo(tmp_path / "pipe.jsonl")
    shutil.copy(GOOD, tmp_path / "good.jsonl")
    # In a process of its own: if the FIFO were opened for reading, it would wait forever.
    done = subprocess.run(
        [sys.executable, "-m", "ingest.cli", "replay", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stderr == f"{tmp_path / 'pipe.jsonl'}:1: LOG-7: not a regular file\n"
    assert "winner: Cid" in done.stdout


def test_a_file_that_cannot_be_read_is_refused_at_line_one_with_the_reason(tmp_path):
    with pytest.raises(ReplayError) as caught:
        read_log(tmp_path / "missing.jsonl")
    assert str(caught.value) == (
        f"{tmp_path / 'missing.jsonl'}:1: LOG-7: cannot read: No such file or directory"
    )


# --- LOG-3: every ruleset parameter has a range ---------------------------------------------


def test_a_board_of_a_billion_columns_is_refused_with_the_parameter_and_its_range():
    data, line, rule = attacks()["board-of-a-billion.jsonl"]
    err = rejected(data)
    assert (err.line, err.rule) == (line, rule)
    assert "Expected `int` <= 12 - at `$.board_cols`" in err.message


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_ruleset_parameter_has_a_range_and_the_standard_rules_keep_to_it(game):
    import msgspec
    from msgspec import inspect

    config = GAMES[game].config_type

    def unbounded(info: inspect.Type, where: str) -> list[str]:
        if isinstance(info, inspect.IntType):
            return [] if info.ge is not None and info.le is not None else [where]
        if isinstance(info, inspect.StrType):
            return [] if info.max_length is not None else [where]
        if isinstance(info, (inspect.ListType, inspect.VarTupleType, inspect.SetType)):
            return ([] if info.max_length is not None else [where]) + unbounded(
                info.item_type, f"{where}[]"
            )
        if isinstance(info, inspect.DictType):
            return (
                ([] if info.max_length is not None else [where])
                + unbounded(info.key_type, f"{where} key")
                + unbounded(info.value_type, f"{where}[]")
            )
        if isinstance(info, inspect.TupleType):
            return [w for i, t in enumerate(info.item_types) for w in unbounded(t, f"{where}[{i}]")]
        if isinstance(info, (inspect.LiteralType, inspect.BoolType)):
            return []
        return [f"{where}: {type(info).__name__}"]

    fields = inspect.type_info(config).fields  # type: ignore[attr-defined]
    assert [w for f in fields for w in unbounded(f.type, f.name)] == []
    for ruleset in GAMES[game].rulesets.values():  # the shipped rulesets are inside the ranges
        assert msgspec.convert(msgspec.to_builtins(ruleset), type=config) == ruleset


# --- one line each, whatever the log says ---------------------------------------------------


def test_control_characters_in_a_name_are_escaped_so_no_line_can_be_forged(tmp_path, capsys):
    data, line, rule = attacks()["forged-name.jsonl"]
    path = tmp_path / "forged.jsonl"
    path.write_bytes(data)
    assert main(["replay", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"{path}:{line}: {rule}: x\\ny:1: LOG-1: ")
    assert "\x1b" not in err and "\\x1b[2J picks quest-5" in err
    assert one_line("a\u2028b\u202ec\tok 骑士") == "a\\u2028b\\u202ec\\tok 骑士"


def test_a_path_that_is_not_utf8_still_prints(tmp_path, capsys):
    name = os.fsdecode(b"\xff-bad.jsonl")
    (tmp_path / name).write_text("not json\n")
    assert main(["replay", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{tmp_path}/\\udcff-bad.jsonl:1: LOG-1: not a JSON object")


# --- whatever fails on one log, the others go on ---------------------------------------------


def test_an_engine_failure_rejects_only_that_log_at_its_line(tmp_path, capsys):
    game = GAMES["knight-academy"]
    apply = game.apply

    def failing(state, event):  # a bug that strikes at the first play of the 5-seat example
        if type(event).__name__ == "Play" and len(state.players) == 5:
            raise KeyError("boom")
        return apply(state, event)

    object.__setattr__(game, "apply", failing)  # the Game record is frozen
    try:
        assert main(["replay", "--json", str(ROOT / "tests/knight_academy/logs")]) == 1
        out, err = capsys.readouterr()
        summary = ingest([ROOT / "tests/knight_academy/logs"], db=tmp_path / "wh", jobs=1)
    finally:
        object.__setattr__(game, "apply", apply)
    others = len(list((ROOT / "tests/knight_academy/logs").glob("*.jsonl"))) - 1
    assert len(out.splitlines()) == others
    assert re.fullmatch(
        r".*ka-example-5p\.jsonl:\d+: INTERNAL: squire failed here \(KeyError: "
        r"'boom'\); please report it\n",
        err,
    )
    assert summary.ingested == others and [r.rule for r in summary.rejects] == ["INTERNAL"]
    assert summary.rejects[0].line == int(err.split(":")[1])


def test_a_value_that_does_not_fit_its_column_rejects_only_that_match(tmp_path, monkeypatch):
    build = rows._replay_into

    def oversized(*args):
        game_id = build(*args)
        rows_ = args[1]
        if game_id == "ka-example-4p":
            rows_["seat_points"][-1] = (*rows_["seat_points"][-1][:4], 10**30)  # beyond int64
        return game_id

    monkeypatch.setattr(rows, "_replay_into", oversized)
    summary = ingest([ROOT / "tests/knight_academy/logs"], db=tmp_path / "wh", jobs=1)
    assert summary.ingested == len(list((ROOT / "tests/knight_academy/logs").glob("*.jsonl"))) - 1
    assert [(Path(r.path).name, r.rule) for r in summary.rejects] == [
        ("ka-example-4p.jsonl", "INTERNAL")
    ]
    stored = (
        open_reader(tmp_path / "wh")
        .execute("SELECT DISTINCT game_id FROM seat_points ORDER BY 1")
        .fetchall()
    )
    assert stored == [
        ("ka-example-3p",),
        ("ka-example-5p",),
        ("ka-example-advanced-3p",),
        ("ka-example-boards-3p",),
        ("ka-example-gawain",),
        ("ka-example-lancelot",),
    ]


def test_a_batch_that_cannot_be_written_is_halved_until_the_log_at_fault_is_alone(
    tmp_path, monkeypatch
):
    write = pipeline.write_batch

    def refusing(db, tables):
        if "ka-example-gawain" in tables["games"]["game_id"].to_pylist():
            raise ValueError("no such column")
        return write(db, tables)

    monkeypatch.setattr(pipeline, "write_batch", refusing)
    summary = ingest([ROOT / "tests/knight_academy/logs"], db=tmp_path / "wh", jobs=1)
    assert summary.ingested == len(list((ROOT / "tests/knight_academy/logs").glob("*.jsonl"))) - 1
    assert [(Path(r.path).name, r.rule) for r in summary.rejects] == [
        ("ka-example-gawain.jsonl", "INTERNAL")
    ]
    assert not uncommitted(tmp_path / "wh")  # no file of the failing batches left behind


# --- the whole contract: a folder of attacks beside good logs --------------------------------


def test_an_ingest_of_attacks_mixed_with_good_logs_stores_every_good_log(mixed):
    folder, expected, good = mixed
    db = folder.parent / "wh"
    summary = ingest([folder], db=db, jobs=2)  # real worker processes
    assert summary.ingested == good and not summary.conflicts
    assert {Path(r.path).name: (r.line, r.rule) for r in summary.rejects} == expected
    con = open_reader(db)
    assert con.execute("SELECT count(*) FROM games").fetchall() == [(good,)]
    assert con.execute("SELECT count(*) FROM rejects").fetchall() == [(len(expected),)]
    assert not uncommitted(db)
    again = ingest([folder], db=db, jobs=2)  # nothing is stored twice, rejects included
    assert (again.ingested, again.present, len(again.rejects)) == (0, good, len(expected))
    assert open_reader(db).execute("SELECT count(*) FROM rejects").fetchall() == [(len(expected),)]


def test_replay_of_the_same_folder_prints_one_line_per_rejected_log_and_every_good_result(mixed):
    folder, expected, good = mixed
    done = subprocess.run(
        [sys.executable, "-m", "ingest.cli", "replay", "--json", str(folder)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    found = {
        Path(m["path"]).name: (int(m["line"]), m["rule"]) for m in map(REJECTION.match, lines) if m
    }
    assert len(lines) == len(expected) and found == expected
    assert len([json.loads(line) for line in done.stdout.splitlines()]) == good


def test_a_simulation_the_game_itself_refuses_is_reported_on_one_line(capsys, tmp_path):
    # The sample catalogue holds 15 tavern cards; 100 extra a round is more than it has.
    assert (
        main(
            [
                "simulate",
                "paladins",
                "-n",
                "1",
                "--set",
                "tavern_extra=100",
                "--out",
                str(tmp_path),
                "--jobs",
                "1",
            ]
        )
        == 2
    )
    assert capsys.readouterr().err == (
        "squire simulate: PA-42: catalogue squire-sample 1: "
        "tavern: check 1: 15 entries; this ruleset needs at "
        "least 104\n"
    )


def test_a_catalogue_folder_with_a_fifo_and_a_nested_bomb_is_listed_not_waited_on(tmp_path):
    folder = tmp_path / "mine" / "paladins"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "pipe.toml")
    (folder / "deep.toml").write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    env = {**os.environ, "SQUIRE_CATALOGUES": str(tmp_path / "mine")}
    listed = subprocess.run(
        [
            sys.executable,
            "-m",
            "ingest.cli",
            "catalogues",
            "paladins",
            "--db",
            str(tmp_path / "wh"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert listed.returncode == 0 and "Traceback" not in listed.stderr
    assert f"unreadable  {folder / 'pipe.toml'}: not a regular file" in listed.stdout
    assert f"unreadable  {folder / 'deep.toml'}: not a TOML file" in listed.stdout
    checked = subprocess.run(
        [
            sys.executable,
            "-m",
            "ingest.cli",
            "catalogues",
            "paladins",
            "--check",
            str(folder / "deep.toml"),
            str(folder / "pipe.toml"),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert checked.returncode == 1 and len(checked.stderr.splitlines()) == 2
    assert "Traceback" not in checked.stderr


def test_an_upload_worker_that_holds_more_than_its_memory_is_stopped(tmp_path, monkeypatch):
    import io

    from ingest.pipeline import upload

    monkeypatch.setattr(upload, "WORKER_MEMORY", 8 * MiB)  # less than Python itself needs
    report = upload.ingest_uploads(
        [("good.jsonl", io.BytesIO(GOOD.read_bytes()))],
        tmp_path / "wh",
        Who(None, "admin", "local"),
    )
    assert report.error == (
        "the ingest held more than 8 MiB and was stopped; what it had committed stays"
    )
    assert open_reader(tmp_path / "wh").execute("SELECT count(*) FROM games").fetchall() == [(0,)]
