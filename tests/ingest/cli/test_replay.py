"""`squire replay` and `squire schema` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import msgspec

from ingest.cli import main

LOGS = Path(__file__).parents[2] / "knight_academy" / "logs"
FOUR = LOGS / "ka-example-4p.jsonl"


def test_replay_prints_scores_by_source_and_the_winner(capsys):
    assert main(["replay", str(FOUR)]) == 0
    out = capsys.readouterr().out
    assert "complete after 253 events" in out
    assert "Fay         7           8         -7    24      -10     10     32" in out
    assert "winner: Fay" in out


def test_replay_json_prints_one_object_per_log_line(capsys):
    assert main(["replay", "--json", str(LOGS)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["game_id"] for row in rows] == [
        "ka-example-3p",
        "ka-example-4p",
        "ka-example-5p",
        "ka-example-advanced-3p",
        "ka-example-boards-3p",
        "ka-example-gawain",
        "ka-example-lancelot",
    ]
    assert rows[5]["winners"] == ["Ann"] and rows[5]["scores"]["Gawain"] == 25


def test_a_rejected_log_goes_to_stderr_with_status_one_and_the_others_still_replay(
    tmp_path, capsys
):
    bad = tmp_path / "bad.jsonl"
    lines = FOUR.read_text().splitlines()
    lines[6] = lines[6].replace("courage-3", "quest-5")
    bad.write_text("\n".join(lines) + "\n")
    assert main(["replay", "--json", str(bad), str(FOUR)]) == 1
    captured = capsys.readouterr()
    assert (
        captured.err.strip() == f"{bad}:7: KA-5: Ann picks quest-5 but holds courage-3, "
        "king-4, courage-3, sword-3, charity-2"
    )
    assert json.loads(captured.out)["game_id"] == "ka-example-4p"


def test_step_shows_the_whole_state_after_that_event(capsys):
    assert main(["replay", "--json", "--step", "24", str(FOUR)]) == 0
    view = json.loads(capsys.readouterr().out)
    assert view["phase"] == "play" and view["round"] == 1 and view["step"] == 24
    assert view["seats"]["Bob"]["picked"] == [
        "education-4",
        "sword-4",
        "charity-2",
        "charity-4",
        "quest-2",
    ]
    assert view["expecting"] == {
        "kind": "play",
        "players": ["Cid"],
        "decided_by": "Cid",
        "round": 1,
        "played": 1,
    }
    assert view["deck"] == 52 - 20 and view["discard"] == 0
    assert main(["replay", "--step", "24", str(FOUR)]) == 0
    assert "next: play by Cid" in capsys.readouterr().out


def test_a_step_past_the_end_is_an_error(capsys):
    assert main(["replay", "--step", "999", str(FOUR)]) == 2
    assert "has 253 events" in capsys.readouterr().err


def test_schema_is_the_json_schema_of_the_events_and_validates_real_lines(capsys):
    assert main(["schema", "knight-academy"]) == 0
    schema = json.loads(capsys.readouterr().out)
    kinds = {
        d["properties"]["kind"]["enum"][0]
        for d in schema["$defs"].values()
        if "kind" in d.get("properties", {})
    }
    # split, choose, assign: KA-20; lift: KA-21a; wager, codex, shield, mercy: KA-22b, c, f
    assert kinds == {
        *("header", "deal", "pick", "play", "bonus", "lift", "final"),
        *("split", "choose", "assign", "wager", "codex", "shield", "mercy"),
    }


def test_the_console_script_runs(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "ingest.cli", "replay", "--json", str(FOUR)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert msgspec.json.decode(out)["winners"] == ["Fay"]
