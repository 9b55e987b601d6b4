"""Errors raised by the rules engines, the log decoder and the replayer."""

from __future__ import annotations


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
    """Where a log was rejected: `PATH:LINE: RULE: message`."""

    def __init__(self, path: str, line: int, rule: str, message: str) -> None:
        super().__init__(f"{path}:{line}: {rule}: {message}")
        self.path = path
        self.line = line
        self.rule = rule
        self.message = message
