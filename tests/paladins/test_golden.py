"""The worked example matches by hand (their digest results and reviewed golden files are
checked for every game by tests/test_conformance.py): an attack worked out by hand."""

from __future__ import annotations

from ingest.read import read_log
from replay.replayer import open_log, state_at
from tests.support import CATALOGUES

from .support import LOGS


def test_bobs_first_attack_by_hand():
    # Line 10: Bob (paladin Lisette: +1 strength this round) attacks Lost Legion (strength 8)
    # with strength 0 + 1: 7 missing, so ceil(7 / 2) = 4 silver of his 5 (PA-53). Its attack
    # reward 2inf 1str 2silver: influence 2, strength 1, silver 1 + 2 = 3.
    match = open_log(read_log(LOGS / "pa-example-2p.jsonl"), "2p", catalogues=CATALOGUES)
    before, after = state_at(match, 8), state_at(match, 9)
    bob_before, bob = before.board[1], after.board[1]
    assert bob_before.silver == 5 and bob.silver == 3
    assert bob.tracks == {"faith": 0, "strength": 1, "influence": 2}
    assert bob.attacked == ["out-30"] and "out-30" not in after.outsiders
    assert bob.spaces["attack"] == ["green", "blue", "purple"]
