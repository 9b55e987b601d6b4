"""What each seat is told of mercy's swaps while the codex is in play (KA-22c, KA-22f): a
codex shield given changes hands face down, so only its giver and its receiver hear its
value, and each seat hears its own mercy points alone."""

from __future__ import annotations

import pytest

from .replayed import told

EXAMPLE = "ka-example-boards-3p"  # Ann, Bob, Cid; at step 51 Cid gives Bob a −3, takes a 3
SWAP = 51


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_codex_shield_given_in_mercy_is_told_to_its_giver_and_receiver_alone(lang):
    said = {seat: told("knight-academy", EXAMPLE, lang, seat)[SWAP - 1] for seat in range(4)}
    whole = told("knight-academy", EXAMPLE, lang)[SWAP - 1]
    assert "−3" in whole and "Bob −6" in whole and "Cid +6" in whole
    for seat in (1, 2):  # Bob received it, Cid gave it
        assert "−3" in said[seat]
    for seat in (0, 3):  # Ann, and the table's screen (a seat past the last)
        assert "−3" not in said[seat] and "−6" not in said[seat] and "+6" not in said[seat]
        assert ("face down" if lang == "en" else "面朝下") in said[seat]
    assert "Bob −6" in said[1] and "Cid +6" not in said[1]
    assert "Cid +6" in said[2] and "Bob −6" not in said[2]
