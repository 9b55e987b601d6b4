"""What a careless or hostile user types: every value that cannot work ends as one line and
status 2 (or as a result), never a traceback, and names stay text in every output."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from ingest.cli import main
from ingest.cli.arguments import MAX_BATCH, MAX_MATCHES, cores
from ingest.cli.report import json_line
from ingest.files.read import find_logs
from ingest.pipeline.pipeline import ingest
from ingest.simulation.simulate import parse_settings
from ingest.warehouse.warehouse import open_reader

ROOT = Path(__file__).parents[3]
KA = ROOT / "tests" / "knight_academy" / "logs"
HE = ROOT / "tests" / "heraldry" / "logs"
GOOD = KA / "ka-example-3p.jsonl"


def refused(argv: list[str], capsys) -> str:
    """The one line a refused command prints; its status must be 2."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    return err


@pytest.fixture
def a_file(tmp_path) -> str:
    path = tmp_path / "a-file"
    path.write_text("not a folder")
    return str(path)


EXPERIMENT = ["experiment", "knight-academy", "--metric", "margin"]


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["ingest", "x", "--jobs", str(cores() + 1)], f"this machine's {cores()} cores"),
        (["ingest", "x", "--jobs", "10000"], "between 1 and"),
        (["ingest", "x", "--jobs", "-3"], "between 1 and"),
        (["simulate", "knight-academy", "--jobs", "0"], "between 1 and"),
        ([*EXPERIMENT, "--jobs", "10000"], "between 1 and"),
        ([*EXPERIMENT, "--precision", "nan"], "a finite number above 0"),
        ([*EXPERIMENT, "--precision", "inf"], "a finite number above 0"),
        ([*EXPERIMENT, "--precision", "-0.1"], "a finite number above 0"),
        ([*EXPERIMENT, "--batch", "1000000000"], f"between 2 and {MAX_BATCH:,}"),
        ([*EXPERIMENT, "--max", str(MAX_MATCHES + 1)], f"between 2 and {MAX_MATCHES:,}"),
        ([*EXPERIMENT, "--max", "1e9"], "is not a whole number"),
        ([*EXPERIMENT, "--players", "0"], "between 1 and 10"),
        (["simulate", "knight-academy", "-n", "-5"], "between 1 and"),
        (["simulate", "knight-academy", "--played-every", "0"], "between 1 and"),
        (["replay", "--step", "-1", str(GOOD)], "between 0 and"),
        (["compact", "--retain", "-1"], "between 0 and"),
        (["dashboard", "--port", "70000"], "between 1 and 65,535"),
        (["rescore", "knight-academy", "--players", "11"], "between 1 and 10"),
    ],
)
def test_a_number_that_cannot_work_is_refused_in_one_line(argv, says, capsys):
    assert says in refused(argv, capsys)


@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "knight-academy", "--out", "{file}"],
        [*EXPERIMENT, "--out", "{file}"],
        [*EXPERIMENT, "--db", "{file}"],
        ["ingest", str(GOOD), "--db", "{file}"],
        ["rescore", "knight-academy", "--db", "{file}"],
        ["ratings", "heraldry", "--db", "{file}"],
        ["up", "--db", "{file}"],
    ],
)
def test_a_file_where_a_folder_is_meant_is_refused(argv, a_file, capsys):
    err = refused([a.replace("{file}", a_file) for a in argv], capsys)
    assert f"{a_file} is a file, not a folder" in err


@pytest.mark.parametrize(
    "argv", [["rescore", "knight-academy"], ["ratings", "heraldry"], ["compact"]]
)
def test_a_command_that_reads_a_warehouse_says_when_there_is_none(argv, tmp_path, capsys):
    assert main([*argv, "--db", str(tmp_path / "nothing-here")]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"squire {argv[0]}: no warehouse at {tmp_path / 'nothing-here'} "
        f"(`squire ingest LOGS --db {tmp_path / 'nothing-here'}` makes one)\n"
    )


@pytest.fixture(scope="module")
def examples(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("careless") / "wh"
    ingest([KA, HE], db=db, jobs=1)
    return db


def test_rules_no_stored_match_can_be_set_up_under_are_refused_with_the_rule(examples, capsys):
    # KA-4: hands of 20 at three seats and more need 60 cards and more; the deck holds 52.
    assert main(["rescore", "knight-academy", "--db", str(examples), "--players", "3",
                 "--players", "4", "--set", "hand_size=20"]) == 2  # fmt: skip
    err = capsys.readouterr().err
    assert err.startswith("squire rescore: KA-4: a deck of 52 cannot deal 3 hands")
    assert "none of the" in err and len(err.splitlines()) == 1
    # HE-22: a map of 30 tiles a player is larger than any table lays
    assert main(["rescore", "heraldry", "--db", str(examples), "--set", "tiles_per_player=30"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("squire rescore: HE-22: ") and len(err.splitlines()) == 1


def test_rules_some_matches_cannot_be_set_up_under_are_counted_apart(examples, capsys):
    # Hands of 20 deal at the two-seat tables (Gawain's, Lancelot's) and at no other.
    assert main(["rescore", "knight-academy", "--db", str(examples), "--set", "hand_size=20",
                 "--json"]) == 0  # fmt: skip
    *matches, summary = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    unplayable = [m for m in matches if m.get("differs_at") == 0]
    assert summary["cannot_play"] == len(unplayable) > 0
    assert {m["rule"] for m in unplayable} == {"KA-4"}
    assert summary["matches"] == len(matches) > len(unplayable)


def test_spaces_around_a_setting_are_those_of_a_person_typing_it():
    assert parse_settings(["quest_prizes = [12, 8, 4]", " lifts= 1"]) == {
        "quest_prizes": [12, 8, 4],
        "lifts": 1,
    }


def test_json_output_holds_no_character_a_reader_could_take_for_a_line_break():
    value = {"name": "Ann\u2028x\u2029y\x85z\nw 骑士"}
    line = json_line(value)
    assert line.splitlines() == [line] and json.loads(line) == value
    assert "\\u2028" in line and "\\u0085" in line and "骑士" in line


def _renamed(tmp_path: Path, name: str) -> Path:
    """The three-seat example with Ann renamed."""
    path = tmp_path / "renamed.jsonl"
    path.write_text(GOOD.read_text().replace('"Ann"', json.dumps(name)))
    return path


def test_replay_json_escapes_line_separators_in_names(tmp_path, capsys):
    log = _renamed(tmp_path, "Ann\u2028\x85")
    assert main(["replay", "--json", str(log)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [out.rstrip("\n")]
    assert "Ann\u2028\x85" in json.loads(out)["scores"]


def test_a_dangling_link_a_missing_path_and_a_folder_named_like_a_log_cost_no_other_log(
    tmp_path, capsys
):
    (tmp_path / "gone.jsonl").symlink_to(tmp_path / "nowhere.jsonl")
    (tmp_path / "folder.jsonl").mkdir()
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "inner.jsonl").mkdir()  # inside a folder searched, too
    os.mkfifo(tmp_path / "logs" / "pipe.jsonl")
    (tmp_path / "logs" / "good.jsonl").write_bytes(GOOD.read_bytes())
    targets = [
        str(tmp_path / "gone.jsonl"),
        str(tmp_path / "missing.jsonl"),
        str(tmp_path / "folder.jsonl"),
        str(tmp_path / "logs"),
    ]
    assert main(["replay", *targets]) == 1
    out, err = capsys.readouterr()
    assert "ka-example-3p" in out
    assert sorted(err.splitlines()) == sorted(
        [
            f"{tmp_path / 'gone.jsonl'}:1: LOG-7: cannot read: No such file or directory",
            f"{tmp_path / 'missing.jsonl'}:1: LOG-7: cannot read: No such file or directory",
            f"{tmp_path / 'folder.jsonl'}:1: LOG-7: not a regular file",
            f"{tmp_path / 'logs' / 'inner.jsonl'}:1: LOG-7: not a regular file",
            f"{tmp_path / 'logs' / 'pipe.jsonl'}:1: LOG-7: not a regular file",
        ]
    )
    # a glob finds what a folder's search finds: the FIFO and the folder named like a log
    assert list(find_logs([str(tmp_path / "logs" / "*.jsonl")])) == list(
        find_logs([str(tmp_path / "logs")])
    )
    db = tmp_path / "wh"
    assert main(["ingest", *targets, "--db", str(db), "--jobs", "1"]) == 1
    capsys.readouterr()
    con = open_reader(db)
    assert con.execute("SELECT game_id FROM games").fetchall() == [("ka-example-3p",)]
    assert con.execute("SELECT count(*) FROM rejects").fetchall() == [(5,)]


def test_a_glob_that_matches_nothing_is_named(tmp_path, capsys):
    assert main(["replay", str(tmp_path / "*.jsonl")]) == 2
    assert capsys.readouterr().err == (
        f"squire replay: {tmp_path / '*.jsonl'}: no such file, folder or matching log\n"
    )


def test_a_time_of_play_past_the_year_9999_is_refused_before_any_match(tmp_path, capsys):
    argv = ["simulate", "knight-academy", "-n", "3", "--played-from", "9999-12-31T23:59:59Z"]
    assert main([*argv, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("squire simulate: match 3 would be played after the year 9999")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("address", ["999.1.1.1", "10.255.255.1"])
def test_an_address_the_dashboards_cannot_listen_on_is_refused_in_one_line(address, capsys):
    assert main(["dashboard", "--address", address, "--port", "8599"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"squire dashboard: cannot serve on {address}:8599: ")
    assert len(err.splitlines()) == 1


def test_a_port_another_program_holds_is_refused_before_the_samples_are_ingested(tmp_path, capsys):
    import socket

    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        assert main(["up", "--db", str(tmp_path / "wh"), "--port", str(port)]) == 2
    err = capsys.readouterr().err
    assert err == f"squire up: cannot serve on 127.0.0.1:{port}: Address already in use\n"
    assert not (tmp_path / "wh").exists()
