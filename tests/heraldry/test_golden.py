"""The worked example matches by hand (their digest results and reviewed golden files are
checked for every game by tests/test_conformance.py): a few lines checked by hand."""

from __future__ import annotations

from ingest.read import read_log
from replay.facts import PiecesRemoved, ResourceChanged, ScoreChanged
from replay.replayer import open_log, replay, state_at

from .support import LOGS


def test_a_battle_with_loot_and_a_promotion_of_the_two_player_example_by_hand():
    # Line 23: Fay's first knight from [0, 0] shares [1, 0] with Ann's village; the second
    # joins it, so a battle: the village goes back to Ann's reserve and Fay takes Ann's field.
    # Line 25: Fay pays forest 3 + forest 3 + field 5 + plains 4 = 15 for viscount: 4 points.
    outcome = replay(open_log(read_log(LOGS / "he-example-2p.jsonl"), "2p"))
    by_line = {step.line: step for step in outcome.steps}
    battle = by_line[23].facts
    assert (
        PiecesRemoved(
            round=8, seat=0, victim=1, place="[1, 0]", piece="village", count=1, cause="battle"
        )
        in battle
    )
    assert ResourceChanged(round=8, seat=1, resource="field", delta=-1, cause="loot") in battle
    assert ScoreChanged(round=9, seat=0, source="title", points=4) in by_line[25].facts
    before, after = (state_at(outcome.match, i) for i in (21, 22))
    h = before.board.index[1, 0]
    assert before.building[h] == (1, "village") and after.building[h] is None
    assert after.knights[h] == [2, 0]
