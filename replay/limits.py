"""LOG-6: how much of anything squire reads from one log, checked before the work it bounds.

Logs come from other programs and from strangers (the upload page), so every dimension a
log controls is bounded: its size once uncompressed, its number of lines, the length of a
line and how deeply a line nests. The values sit far above any real match (the bundled
samples and the worked examples reach 60 KB, 504 lines, 5 KB a line and a depth of 4) and
far below what would exhaust a worker. The rulesets bound the numbers a header may
override (LOG-3), so that no log makes the engine itself do unbounded work.
"""

from __future__ import annotations

import re

from replay.errors import RulesError

MAX_LOG_BYTES = 16 * 2**20  # uncompressed; a gzip is inflated only this far
MAX_LINES = 100_000  # blank lines included, so also the most events of a match
MAX_LINE_BYTES = 2**20
MAX_DEPTH = 32  # arrays and objects inside one another on one line

_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
# Brackets only, `{}` folded into `[]`: a line's nesting is then the nesting of its brackets.
_FOLD = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_NOT_BRACKETS_OR_NEWLINES = bytes(b for b in range(256) if b not in b"[]{}\n")


def size_text(count: int) -> str:
    return f"{count / 2**20:g} MiB" if count >= 2**20 else f"{count:,} bytes"


def beyond_limits(data: bytes) -> tuple[int, RulesError] | None:
    """The first line at which an uncompressed log passes a limit, with the limit; or None.

    Each check runs in C over the whole log, and only where the log is large enough to
    break it; a line's nesting is counted exactly only when it holds more brackets than
    MAX_DEPTH (a Heraldry header's map)."""
    if len(data) > MAX_LOG_BYTES:
        return data.count(b"\n", 0, MAX_LOG_BYTES) + 1, RulesError(
            "LOG-6", f"the log is larger than {size_text(MAX_LOG_BYTES)} uncompressed"
        )
    if len(data) > MAX_LINES and data.count(b"\n", 0, len(data) - 1) >= MAX_LINES:
        return MAX_LINES + 1, RulesError("LOG-6", f"the log has more than {MAX_LINES:,} lines")
    lines: list[bytes] | None = None
    if len(data) > MAX_LINE_BYTES:
        lines = data.split(b"\n")
        for number, line in enumerate(lines, 1):
            if len(line) > MAX_LINE_BYTES:
                return number, RulesError(
                    "LOG-6", f"the line is longer than {size_text(MAX_LINE_BYTES)}"
                )
    brackets = data.translate(None, _NOT_BRACKETS_OR_NEWLINES).split(b"\n")
    if max(map(len, brackets)) > MAX_DEPTH:
        lines = lines or data.split(b"\n")
        for number, (line, held) in enumerate(zip(lines, brackets), 1):
            if len(held) > MAX_DEPTH and depth(line) > MAX_DEPTH:
                return number, RulesError(
                    "LOG-6", f"the line nests arrays and objects deeper than {MAX_DEPTH} levels"
                )
    return None


def depth(line: bytes) -> int:
    """How deeply arrays and objects nest on a line, counted in C.

    Strings are dropped (their brackets are text) and the brackets left are paired up: each
    pass of `replace` takes away the innermost pairs, so the passes count the depth of the
    matched ones, and brackets never closed add their own. For valid JSON that is exactly
    its depth; for broken JSON it is at least the depth a decoder would descend to.
    """
    # Without a backslash no quote is escaped: the strings are every other piece between quotes.
    text = _STRING.sub(b"", line) if b"\\" in line else b"".join(line.split(b'"')[::2])
    brackets = text.translate(_FOLD, _NOT_BRACKETS)
    passes = 0
    while b"[]" in brackets and passes <= MAX_DEPTH:
        brackets = brackets.replace(b"[]", b"")
        passes += 1
    return passes + brackets.count(b"[")
