"""The worked example matches: results as the digest gives them, facts and end states as
reviewed in golden/, and the opening worked out by hand."""

from __future__ import annotations

from ingest.read import read_log
from replay.replayer import open_log, state_at
from tests.golden import example_tests
from tests.support import CATALOGUES

from .golden import GOLDEN
from .support import LOGS

(
    test_each_example_ends_with_the_digests_result,
    test_each_example_replays_to_its_reviewed_golden_facts_and_end_state,
) = example_tests(LOGS, GOLDEN)


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
