"""Golden playthroughs: each example log's facts and end state, written out to be reviewed.

Regenerate on purpose, then read the diff:  python -m tests.knight_academy.golden
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgspec

from ingest.read import read_log
from replay.replayer import open_log, replay

from .support import LOGS

GOLDEN = Path(__file__).parent / "golden"


def playthrough(log: Path) -> dict[str, Any]:
    """What the golden files hold for one log: every fact with its step, and the end state."""
    outcome = replay(open_log(read_log(log), log.name))
    facts = [
        {"index": step.index, "line": step.line, **msgspec.to_builtins(fact)}
        for step in outcome.steps
        for fact in step.facts
    ]
    return {"facts": facts, "end": outcome.match.game.snapshot(outcome.state)}


def write_all() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for log in sorted(LOGS.glob("*.jsonl")):
        golden = playthrough(log)
        stem = log.name.removesuffix(".jsonl")
        (GOLDEN / f"{stem}.facts.jsonl").write_text(
            "".join(json.dumps(fact, ensure_ascii=False) + "\n" for fact in golden["facts"])
        )
        (GOLDEN / f"{stem}.end.json").write_text(
            json.dumps(golden["end"], indent=1, ensure_ascii=False) + "\n"
        )


if __name__ == "__main__":
    write_all()
