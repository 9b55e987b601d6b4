"""The worked example matches by hand (their digest results and reviewed golden files are
checked for every game by tests/test_conformance.py): one round worked out by hand."""

from __future__ import annotations

from ingest.read import read_log
from replay.replayer import open_log, replay

from .support import LOGS


def test_round_one_of_the_three_seat_example_by_hand():
    # After Ann's last play (line 31) the discs stand: courage Cid 2; joust Fay 3;
    # tournament Cid 3; education Fay 4, Ann 0, Cid 0; king Fay 2; charity Ann 11, Cid 3;
    # quest Ann 4 on Cid 4, Fay 2. Only Cid has courage: 1st, 3 squares (line 32, courage).
    # Joust: Fay alone → +3. Tournament: Cid alone → +3. Education: Ann and Cid both at 0 →
    # −3 each, nobody −1 (KA-12). King, charity and quest do not score in round 1.
    outcome = replay(open_log(read_log(LOGS / "ka-example-3p.jsonl"), "3p"))
    bonus = next(step for step in outcome.steps if step.line == 32)
    players = outcome.match.header.players
    scored = [(players[f.seat], f.source, f.points) for f in bonus.facts if hasattr(f, "points")]
    assert scored == [
        ("Fay", "joust", 3),
        ("Cid", "tournament", 3),
        ("Ann", "education", -3),
        ("Cid", "education", -3),
    ]
    moved = [
        (players[f.seat], f.track, f.before, f.after) for f in bonus.facts if hasattr(f, "track")
    ]
    assert moved == [("Cid", "courage", 2, 5)]
