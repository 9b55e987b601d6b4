"""The worked example matches by hand (their digest results and reviewed golden files are
checked for every game by tests/test_conformance.py): the opening worked out by hand."""

from __future__ import annotations

from ingest.read import read_log
from replay.replayer import open_log, state_at
from tests.support import CATALOGUES

from .support import LOGS


def test_the_opening_of_the_two_player_example_by_hand():
    # Line 16: Ann activates her se corner (homework) and completes her public spell S03
    # (cost 3 will: 3 → 0; 2 prestige tucked); line 18 refills the public homework.
    # Line 20: Bob completes his private item I19 with his 3 shards (0 left, 1 prestige).
    match = open_log(read_log(LOGS / "aa-example-2p.jsonl"), "2p", catalogues=CATALOGUES)
    after_ann, after_bob = state_at(match, 16), state_at(match, 19)
    ann, bob = after_ann.board[0], after_bob.board[1]
    assert (ann.will, ann.spells, (2, 3) in ann.exhausted) == (0, ["S03"], True)
    assert (bob.shards, bob.items) == (0, ["I19"])
    assert "S03" not in after_ann.public_homework
