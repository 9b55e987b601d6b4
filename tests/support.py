"""Helpers every game's tests share."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ingest.catalogues import Library
from replay.registry import GAMES
from replay.replayer import open_log, replay

# The catalogues the tests hand the engines: the shipped ones (and SQUIRE_CATALOGUES'), read
# by ingest as every caller of the engines does.
CATALOGUES = Library()


def catalogue(game: str) -> Any:
    """A catalogue game's default catalogue, decoded: the third argument of its new_game."""
    uses = GAMES[game].catalogue
    assert uses is not None
    return CATALOGUES.find(game, *uses.default)


def files(folder: Path) -> dict[str, bytes]:
    """Every file of a folder by name, with its bytes: to compare two simulator runs."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def log_data(lines: list[str]) -> bytes:
    """Log lines as the bytes of a file."""
    return ("\n".join(lines) + "\n").encode()


def all_facts(data: bytes) -> list[object]:
    """Every step's index, round and facts: two replays of one log must give the same."""
    return [
        (s.index, s.round, s.facts)
        for s in replay(open_log(data, "r.jsonl", catalogues=CATALOGUES)).steps
    ]


def write_variants(folder: Path, lines: list[str], changes: dict[str, tuple[int, str]]) -> None:
    """`good.jsonl` and, for each name, a copy with one line (1-based) replaced."""
    folder.mkdir(exist_ok=True)
    (folder / "good.jsonl").write_text("\n".join(lines) + "\n")
    for name, (number, text) in changes.items():
        changed = list(lines)
        changed[number - 1] = text
        (folder / name).write_text("\n".join(changed) + "\n")


def refused(
    apply: Callable[[Any, Any], Any],
    state: Any,
    event: Any,
    rule: str,
    fingerprint: Callable[[Any], bytes],
) -> str:
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


def greedy_win_share(spec: Any, matches: int) -> float:
    """The share of the run's first `matches` matches that a greedy seat won (shared wins
    count)."""
    from ingest.simulate import simulate_match

    wins = sum(
        "greedy" in {written.agents[w] for w in written.winners}
        for written in (simulate_match(spec, i) for i in range(matches))
    )
    return wins / matches


def sample_tables_and_bots(folder: Path) -> tuple[int, set[int], set[str]]:
    """Replay every bundled sample (each must be complete, with an agreeing final claim):
    how many there are, the player counts they cover (a neutral seat is not a player) and
    the bots that played."""
    from ingest.read import find_logs, read_log

    paths = list(find_logs([str(folder)]))
    tables, bots = set(), set()
    for path in paths:
        outcome = replay(
            open_log(read_log(path), str(path), catalogues=CATALOGUES), keep_steps=False
        )
        assert outcome.result.complete and outcome.final_claim is not None, path
        header = outcome.match.header
        tables.add(len(header.players) - (getattr(header, "neutral", None) is not None))
        bots.update(header.agents.values())
    return len(paths), tables, bots
