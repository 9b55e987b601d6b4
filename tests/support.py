"""Helpers every game's tests share."""

from __future__ import annotations

import random
import socket
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import strategies as st

from ingest.files.catalogues import Library
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


_ENCODER = msgspec.msgpack.Encoder()


def snapshot(state: Any) -> bytes:
    """One state object as bytes, to tell whether it changed: the same bytes before and after,
    unchanged. Sets and tables are written in the order they hold, so two equal states built
    apart may differ: compare those with `==` (or `fingerprint`). A fifteenth to a fiftieth
    of `fingerprint`'s time, which the checks that run at every step of a match need."""
    return _ENCODER.encode(state)


def fingerprint(state: Any) -> str:
    """Everything about a state, as text: equal text, equal states (sets and the keys of a
    table are written in sorted order, lists in theirs)."""
    return repr(_canonical(state))


def _canonical(value: Any) -> Any:
    if isinstance(value, msgspec.Struct):
        return (
            type(value).__name__,
            *(_canonical(getattr(value, f)) for f in value.__struct_fields__),
        )
    if isinstance(value, dict):
        return ("dict", sorted((repr(_canonical(k)), _canonical(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", sorted(repr(_canonical(v)) for v in value))
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    return value


def refused(apply: Callable[[Any, Any], Any], state: Any, event: Any, rule: str) -> str:
    """Assert `event` is refused under `rule` and leaves the state as it was; the message."""
    import pytest

    from replay.errors import IllegalEvent

    before = snapshot(state)
    with pytest.raises(IllegalEvent) as caught:
        apply(state, event)
    assert caught.value.rule == rule, caught.value
    assert snapshot(state) == before, "a rejected event changed the state"
    return caught.value.message


Among = Callable[[Any, Any, list[Any]], bool]  # (state, event, offered): one of those offered


@dataclass(frozen=True)
class Setting:
    """A `squire simulate --set` and what its matches must show of it."""

    rules: Mapping[str, Any]
    shows: Callable[[list[Any]], bool]  # over the replayed Outcomes
    players: int = 2
    bots: str = "greedy"
    matches: int = 6


@dataclass(frozen=True)
class Greedy:
    """A table where one greedy bot meets random ones, and the share of matches it must win."""

    players: int
    matches: int
    share: float  # well above 1 / players, what a random seat wins
    seed: int = 11


@dataclass(frozen=True)
class Profile:
    """What the conformance suite needs to know of a game beyond its Game record: its tables,
    the rule changes a designer tries, what counts as one of the offered events, near misses
    that must be refused, and a few figures its samples and bots must reach."""

    tables: tuple[int, ...]  # the player counts the simulator seats
    rules: st.SearchStrategy[dict[str, Any]]  # overrides for random playouts
    among: Among  # an accepted event is one the engine offered (up to its canonical form)
    near_misses: Callable[[Any, random.Random, list[Any]], list[Any]]
    setting: Setting
    greedy: Greedy
    samples: int  # at least this many bundled sample matches
    example: str  # a worked example (tests/<game>/logs/) to break, line by line
    # name → (1-based line, its replacement, the rule that must refuse it), from its lines
    broken: Callable[[list[str]], dict[str, tuple[int, str, str]]]
    # Each track where a round ends, read from the engine's state (its snapshot) and ranked by
    # the engine's own ranking: track → (its markers from the front as (the header's seat,
    # progress), the leading seat or None)
    standing: Callable[[Any], dict[str, tuple[list[tuple[int, int]], int | None]]]
    invariant: Callable[[Any], None] = field(default=lambda state: None)
    # Where one event may change the tracks after a round's end (resets) or end two rounds:
    # the function of the game's rules module a round ends in, read as it is called when the
    # call moves the match to its next round or ends it. None: a round's end is read in the
    # state after the event that ends it.
    ranks_in: str | None = None
    # Variants the player count does not imply, by name, with their player count (KA-20)
    variants: Mapping[str, int] = field(default_factory=dict)

    @property
    def all_tables(self) -> tuple[int | str, ...]:
        """Every table the simulator seats: the player counts, then the variants by name."""
        return (*self.tables, *self.variants)

    def seating(self, table: int | str) -> dict[str, Any]:
        """A table as the simulator's Spec takes it: `players`, and `variant` for a variant."""
        if isinstance(table, str):
            return {"players": self.variants[table], "variant": table}
        return {"players": table}


def led_by_first(order: list[int], values: list[int]) -> tuple[list[tuple[int, int]], int | None]:
    """A track the rules rank no further than its engine's order (seats from the front): its
    markers in that order, led by the first once above 0."""
    return [(seat, values[seat]) for seat in order], (order[0] if values[order[0]] > 0 else None)


def greedy_win_share(spec: Any, matches: int) -> float:
    """The share of the run's first `matches` matches that a greedy seat won (shared wins
    count)."""
    from ingest.simulation.simulate import simulate_match

    wins = sum(
        "greedy" in {written.agents[w] for w in written.winners}
        for written in (simulate_match(spec, i) for i in range(matches))
    )
    return wins / matches


def sample_tables_and_bots(folder: Path) -> tuple[int, set[int], set[str]]:
    """Replay every bundled sample (each must be complete, with an agreeing final claim):
    how many there are, the player counts they cover (a neutral seat is not a player) and
    the bots that played."""
    from ingest.files.read import find_logs, read_log

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


def free_port() -> int:
    """A port nothing listens on now, for a server a test starts."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def uncommitted(db: Path) -> list[str]:
    """Data files in a warehouse's tables that its latest version does not name: what a
    failed or cut-short batch would leave behind."""
    from ingest.warehouse import store

    snapshot = store.snapshot(db)
    pins = {**snapshot.pins, store.BATCHES: snapshot.version}
    left = []
    for table in sorted(p.name for p in (db / store.TABLES).iterdir()):
        # the ratings are no batch's: written after the batches, read at their latest
        listed = (store.latest_files(db, table) or [] if table == "ratings" else
                  store.files(db, table, pins.get(table, 0)))  # fmt: skip
        named = {Path(f).name for f in listed}
        left += [f"{table}/{f.name}" for f in (db / store.TABLES / table).glob("*.parquet")
                 if f.name not in named]  # fmt: skip
    return left
