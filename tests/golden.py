"""Golden playthroughs: each example log's facts and end state, written out to be reviewed.

Each game's tests keep theirs in `tests/<game>/golden/`; regenerate on purpose, then read
the diff:  python -m tests.golden [GAME ...]  (every game by default)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from ingest.files.read import read_log
from replay.replayer import open_log, replay
from tests.support import CATALOGUES


def playthrough(log: Path) -> dict[str, Any]:
    """What the golden files hold for one log: every fact with its step, and the end state."""
    outcome = replay(open_log(read_log(log), log.name, catalogues=CATALOGUES))
    facts = [
        {"index": step.index, "line": step.line, **msgspec.to_builtins(fact)}
        for step in outcome.steps
        for fact in step.facts
    ]
    return {"facts": facts, "end": outcome.match.game.snapshot(outcome.state)}


def write_all(logs: Path, golden: Path) -> None:
    golden.mkdir(exist_ok=True)
    for log in sorted(logs.glob("*.jsonl")):
        played = playthrough(log)
        stem = log.name.removesuffix(".jsonl")
        (golden / f"{stem}.facts.jsonl").write_text(
            "".join(json.dumps(fact, ensure_ascii=False) + "\n" for fact in played["facts"])
        )
        (golden / f"{stem}.end.json").write_text(
            json.dumps(played["end"], indent=1, ensure_ascii=False) + "\n"
        )


def check(log: Path, golden: Path) -> None:
    """The log replays to exactly the reviewed facts and end state."""
    got = playthrough(log)
    stem = log.name.removesuffix(".jsonl")
    facts = [json.loads(line) for line in (golden / f"{stem}.facts.jsonl").read_text().splitlines()]
    assert got["facts"] == facts
    assert json.loads(json.dumps(got["end"])) == json.loads(
        (golden / f"{stem}.end.json").read_text()
    )


def check_expected(log: Path, expected: Path) -> None:
    """The log ends with the result its game's digest gives it (a line of expected.jsonl)."""
    from ingest.cli.report import outcome_json

    wanted = {row["game_id"]: row for row in map(json.loads, expected.read_text().splitlines())}
    got = outcome_json(replay(open_log(read_log(log), str(log), catalogues=CATALOGUES)))
    want = wanted[got["game_id"]]
    assert {key: got[key] for key in want} == want


if __name__ == "__main__":
    import sys

    from replay.registry import GAMES

    for name in sys.argv[1:] or sorted(GAMES):
        folder = Path(__file__).parent / name.replace("-", "_")
        write_all(folder / "logs", folder / "golden")
