"""What a correction costs and how the entries it breaks can be mended.

A change to an early entry (a draft pick) can make later ones illegal: the card picked then is
no longer in that hand. Replaying on past the first refusal, with each refused entry left out,
finds every entry the change breaks at once, so the table sees the whole bill before it pays
it, and the cost of a correction can be told before it is made.

An entry broken is mended in the obvious way when the correction exchanged two components and
the entry follows the exchange (Bob now holds the card Ann kept in her place), or when the same
component has moved to another seat, whose entry it now is. Nothing is mended that the engine
refuses, and nothing without being asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from replay.errors import RulesError

_ENCODER = msgspec.json.Encoder()
# Fields that say what an event is, never what it holds: not exchanged by a correction.
_FIXED = ("kind",)


@dataclass(frozen=True)
class Problem:
    """An entry (its number, from 0) the engine refuses, with the rule and its message."""

    index: int
    rule: str
    message: str


def broken(game: Any, state: Any, events: Sequence[Any], first: int) -> list[Problem]:
    """Every entry from `first` on that the engine refuses from `state` (the state before
    entry `first`), each checked with the refused ones before it left out. `state` is
    changed: it ends after the last entry accepted."""
    found = []
    for index in range(first, len(events)):
        try:
            game.apply(state, events[index])
        except RulesError as err:  # apply leaves the state as it was (docs/engines.md)
            found.append(Problem(index, err.rule, err.message))
    return found


def exchanged(old: Any, new: Any) -> dict[str, str]:
    """The components a correction exchanged: each value of `old` that `new` has another in
    its place, and back (Ann keeps king-2, not sword-3: king-2 ↔ sword-3)."""
    before, after = msgspec.to_builtins(old), msgspec.to_builtins(new)
    if not isinstance(before, dict) or not isinstance(after, dict):
        return {}
    if before.get("kind") != after.get("kind"):
        return {}
    swaps: dict[str, str] = {}
    for name, value in before.items():
        if name in _FIXED or name == "player":
            continue
        _pair(value, after.get(name), swaps)
    return swaps


def _pair(old: Any, new: Any, swaps: dict[str, str]) -> None:
    if isinstance(old, str) and isinstance(new, str) and old != new:
        swaps.setdefault(old, new)
        swaps.setdefault(new, old)
    elif isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        gone = [v for v in old if v not in new]
        came = [v for v in new if v not in old]
        if len(gone) == len(came):  # a list's order does not count: what left, what came
            for a, b in zip(gone, came):
                _pair(a, b, swaps)


def mends(
    game: Any,
    state: Any,
    event: Any,
    swaps: dict[str, str],
    players: Sequence[str],
) -> list[Any]:
    """The entries that may stand in for `event`, refused at `state`, each one the engine
    accepts there: `event` with the correction's exchange made, then the same event as
    another seat's (the component it names has moved to that seat)."""
    kind = msgspec.to_builtins(event)
    if not isinstance(kind, dict):
        return []
    tried: list[dict[str, Any]] = []
    if swaps:
        tried.append({k: v if k in _FIXED else _swapped(v, swaps) for k, v in kind.items()})
    if "player" in kind:
        tried.extend({**kind, "player": p} for p in players if p != kind["player"])
    found: list[Any] = []
    seen = {_ENCODER.encode(event)}
    for fields in tried:
        try:
            candidate = msgspec.convert(fields, game.event_type)
        except msgspec.ValidationError:
            continue
        key = _ENCODER.encode(candidate)
        if key in seen:
            continue
        seen.add(key)
        if accepted(game, state, candidate):
            found.append(candidate)
    return found


def accepted(game: Any, state: Any, event: Any) -> bool:
    """Does the engine accept `event` at `state` (which stays as it is)?"""
    try:
        game.apply(game.clone(state), event)
    except RulesError:
        return False
    return True


def _swapped(value: Any, swaps: dict[str, str]) -> Any:
    if isinstance(value, str):
        return swaps.get(value, value)
    if isinstance(value, list):
        return [_swapped(v, swaps) for v in value]
    if isinstance(value, dict):
        return {k: _swapped(v, swaps) for k, v in value.items()}
    return value
