"""Every game's logs: its worked examples end with the digest's result and replay to their
reviewed golden files, and any bytes at all either replay or are refused cleanly."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support import CATALOGUES

from .play import FOLDERS, NAMES

EXAMPLE_LOGS = sorted(log for folder in FOLDERS.values() for log in folder.glob("logs/*.jsonl"))
PREFIX = {"knight-academy": "KA-", "heraldry": "HE-", "paladins": "PA-", "albus-academy": "AA-"}


@pytest.mark.parametrize("log", EXAMPLE_LOGS, ids=lambda p: p.stem)
def test_each_worked_example_ends_with_the_digests_result(log):
    from tests.golden import check_expected

    check_expected(log, log.parents[1] / "expected.jsonl")


@pytest.mark.parametrize("log", EXAMPLE_LOGS, ids=lambda p: p.stem)
def test_each_worked_example_replays_to_its_reviewed_golden_facts_and_end_state(log):
    from tests.golden import check

    check(log, log.parents[1] / "golden")


def test_every_game_has_worked_examples_and_a_rule_prefix():
    assert {log.parents[1].name for log in EXAMPLE_LOGS} == {f.name for f in FOLDERS.values()}
    assert set(PREFIX) == set(NAMES)


def _header_of(name: str) -> bytes:
    """The first worked example's header line: a valid start for any bytes that follow."""
    first = sorted((FOLDERS[name] / "logs").glob("*.jsonl"))[0]
    return first.read_bytes().split(b"\n", 1)[0] + b"\n"


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=150, deadline=None)
@given(data=st.binary(max_size=300) | st.text(max_size=200).map(str.encode))
def test_arbitrary_bytes_either_replay_or_are_refused_cleanly(name, data):
    from replay.errors import ReplayError
    from replay.replayer import open_log, replay

    head = _header_of(name)
    replay(open_log(head, "head.jsonl", catalogues=CATALOGUES))  # a valid, incomplete match
    for blob in (data, head + data):
        try:
            replay(open_log(blob, "fuzz.jsonl", catalogues=CATALOGUES))
        except ReplayError as err:
            assert err.rule.startswith(("LOG-", PREFIX[name])) and err.line >= 1
