"""Errors raised by the rules engines, the log decoder and the replayer."""

from __future__ import annotations

import re


class RulesError(Exception):
    """A log breaks a rule; `rule` is an id from `rules/` (KA-5) or from the log format (LOG-2)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message


class IllegalEvent(RulesError):
    """A well-formed event that the rules do not allow in this state. The state is untouched."""

    def __init__(self, rule: str, message: str, event: object = None) -> None:
        super().__init__(rule, message)
        self.event = event


class ReplayError(Exception):
    """Where a log was rejected: `PATH:LINE: RULE: message`, always on one line.

    `message` comes with the log's own text in it (names, cards): its control characters
    are escaped here, once, so no log can forge a line of squire's output."""

    def __init__(self, path: str, line: int, rule: str, message: str) -> None:
        self.path = path
        self.line = line
        self.rule = rule
        self.message = one_line(message)
        super().__init__(rejection(path, line, rule, self.message))

    def __reduce__(self) -> tuple[type[ReplayError], tuple[str, int, str, str]]:
        # as its fields, not its one-line text: it crosses to and from worker processes
        return (type(self), (self.path, self.line, self.rule, self.message))


# An unexpected exception while replaying one log rejects that log under this id, never the
# whole run: it is squire's fault, not necessarily the log's, and worth a report.
INTERNAL = "INTERNAL"


def internal(path: str, line: int, err: BaseException) -> ReplayError:
    return ReplayError(
        path, line, INTERNAL, f"squire failed here ({type(err).__name__}: {err}); please report it"
    )


def rejection(path: str, line: int, rule: str, message: str) -> str:
    """`PATH:LINE: RULE: message` on one line, whatever the path and message hold."""
    return f"{one_line(path)}:{line}: {rule}: {one_line(message)}"


# Characters that break a line or rewrite what a terminal shows: C0 and C1 controls, DEL,
# Unicode's line and paragraph separators and its bidirectional overrides; and the lone
# surrogates a file name that is not UTF-8 decodes to, which no output could encode.
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]"
)
_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(found: re.Match[str]) -> str:
    char = found.group()
    return _ESCAPES.get(char) or (
        f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}"
    )


def one_line(text: str) -> str:
    """`text` with its unsafe characters escaped as Python writes them (`\\n`, `\\x1b`)."""
    return _UNSAFE.sub(_escape, text) if not text.isprintable() else text
