"""Line numbering of logs: blank lines are skipped but counted."""

from __future__ import annotations

import pytest

from replay.log import numbered_lines


@pytest.mark.parametrize(
    "data, expected",
    [
        (b"a\nb\n", [(1, b"a"), (2, b"b")]),
        (b"a\nb", [(1, b"a"), (2, b"b")]),
        (b"a\n\nb", [(1, b"a"), (3, b"b")]),
        (b"a\n  \t\nb\n", [(1, b"a"), (3, b"b")]),
        (b"\n\nx", [(3, b"x")]),
        (b"  \nx", [(2, b"x")]),
        (b"a\n\n", [(1, b"a")]),
        (b"a\r\nb\r\n", [(1, b"a\r"), (2, b"b\r")]),
        (b"", []),
        (b"\n", []),
    ],
)
def test_blank_lines_are_skipped_and_counted(data, expected):
    assert numbered_lines(data) == expected
