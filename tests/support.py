"""Helpers every game's tests share."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from replay.replayer import open_log, replay


def files(folder: Path) -> dict[str, bytes]:
    """Every file of a folder by name, with its bytes: to compare two simulator runs."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def log_data(lines: list[str]) -> bytes:
    """Log lines as the bytes of a file."""
    return ("\n".join(lines) + "\n").encode()


def all_facts(data: bytes) -> list[object]:
    """Every step's index, round and facts: two replays of one log must give the same."""
    return [(s.index, s.round, s.facts) for s in replay(open_log(data, "r.jsonl")).steps]


def write_variants(folder: Path, lines: list[str], changes: dict[str, tuple[int, str]]) -> None:
    """`good.jsonl` and, for each name, a copy with one line (1-based) replaced."""
    folder.mkdir(exist_ok=True)
    (folder / "good.jsonl").write_text("\n".join(lines) + "\n")
    for name, (number, text) in changes.items():
        changed = list(lines)
        changed[number - 1] = text
        (folder / name).write_text("\n".join(changed) + "\n")


def refused(apply: Callable[[Any, Any], Any], state: Any, event: Any, rule: str,
            fingerprint: Callable[[Any], bytes]) -> str:
    """Assert `event` is refused under `rule` and leaves the state as it was; the message."""
    import pytest

    from replay.errors import IllegalEvent

    before = fingerprint(state)
    with pytest.raises(IllegalEvent) as caught:
        apply(state, event)
    assert caught.value.rule == rule, caught.value
    assert fingerprint(state) == before, "a rejected event changed the state"
    return caught.value.message


class Checked:
    """Wraps a bot and fails if it ever returns an event `allowed(state, seat, event)` denies."""

    def __init__(self, bot: Any, allowed: Callable[[Any, int, Any, Any], bool]) -> None:
        self.bot, self.name, self.allowed = bot, bot.name, allowed

    def choose(self, state: Any, seat: int, options: Any, rng: Any) -> Any:
        event = self.bot.choose(state, seat, options, rng)
        assert self.allowed(state, seat, event, options), f"{self.name} chose {event!r}"
        return event
