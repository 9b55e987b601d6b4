"""Replaying logs into warehouse rows: the work each worker does, in columnar batches.

A worker reads its files, replays each one, and returns Arrow tables (one per warehouse
table) plus the rejections; it never touches the warehouse's tables.
"""

from __future__ import annotations

import gc
import hashlib
import json
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, get_args

import pyarrow as pa

from ingest.files.catalogues import Library
from ingest.files.read import read_log
from ingest.warehouse.fact_rows import add_fact_rows
from ingest.warehouse.tables import COLUMNS, TYPES, Reject, origin
from replay.catalogues import Catalogues
from replay.errors import ReplayError, internal, one_line
from replay.game import Game
from replay.replayer import Step, open_log, start, steps


@dataclass
class Batch:
    """Rows of whole matches, column by column, ready to be committed together."""

    tables: dict[str, pa.Table]
    shas: dict[str, str]  # game_id → log_sha256 of each match in the tables
    paths: dict[str, str] = field(default_factory=dict)  # game_id → the file it came from
    repeats: list[tuple[str, str, str]] = field(default_factory=list)  # (path, game_id, sha)
    rejects: list[Reject] = field(default_factory=list)
    logs: int = 0


# Tables gathered as rows (one tuple per fact); the others gather columns.
ROW_TABLES = (
    "score_events",
    "track_moves",
    "resource_changes",
    "pieces_removed",
    "round_progress",
    "item_events",
    "seat_points",
    "track_leaders",
)


_ITEM_TYPES: dict[str, dict[type, tuple[str, str]]] = {}


_TAGS: dict[type, str] = {}


def _tag_of(event_type: type) -> str:
    """An event's kind (its struct tag), looked up once per type."""
    tag = _TAGS.get(event_type)
    if tag is None:
        tag = _TAGS[event_type] = event_type.__struct_config__.tag  # type: ignore[attr-defined]
    return tag


def _item_types(game: Game[Any, Any, Any]) -> dict[type, tuple[str, str]]:
    """Event type → (kind, field naming its component), from the game's `item_fields`."""
    if game.name not in _ITEM_TYPES:
        kinds = {t.__struct_config__.tag: t for t in get_args(game.event_type)}
        _ITEM_TYPES[game.name] = {
            kinds[kind]: (kind, field) for kind, field in game.item_fields.items()
        }
    return _ITEM_TYPES[game.name]


def _column(name: str, values: list[Any]) -> pa.Array:
    if name == "payload":  # the log's own bytes, checked as UTF-8 when the log was opened
        return pa.array(values, pa.binary()).cast(pa.string())
    return pa.array(values, type=TYPES.get(name, pa.string()))


@contextmanager
def _collector_paused() -> Iterator[None]:
    """A batch holds hundreds of thousands of row tuples, none in a reference cycle; the
    cyclic collector would scan them again and again as they pile up (a quarter of a
    worker's time, measured), so it waits until the batch is built."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def replay_files(
    paths: list[str],
    names: dict[str, str] | None = None,
    catalogues: Catalogues | None = None,
    carried: Mapping[str, bytes | ReplayError] | None = None,
) -> Batch:
    """Replay each log; whole matches become rows, broken logs become rejections.

    `names` gives the name to record a file under where it is not its path (an upload's
    file name); `catalogues`, those the matches may be played with (default: the shipped
    ones and SQUIRE_CATALOGUES'); `carried`, by path, what reading a log gave where it was
    read on another machine (`read_carried`). Whatever fails on one log is that log's
    rejection, never the batch's end."""
    with _collector_paused():
        return _replay_files(paths, names or {}, catalogues or Library(), carried or {})


def read_carried(paths: list[str]) -> dict[str, bytes | ReplayError]:
    """The logs' bytes, or why one cannot be read (as `replay_files` would reject it): what a
    task carries to a worker that does not see the files."""
    out: dict[str, bytes | ReplayError] = {}
    for path in paths:
        try:
            out[path] = read_log(path)
        except ReplayError as err:
            out[path] = err
    return out


# Matches whose rows are turned into Arrow at a time. A whole batch's Python rows take a
# hundred megabytes of fresh pages; slices this size reuse the same memory (measured per
# 500 matches: 30,000 page faults instead of 100,000, and half the time in the kernel).
SLICE = 100


def _empty() -> tuple[dict[str, dict[str, list[Any]]], dict[str, list[tuple[Any, ...]]]]:
    cols: dict[str, dict[str, list[Any]]] = {
        table: {name: [] for name in COLUMNS[table]} for table in ("games", "seats", "events")
    }
    return cols, {table: [] for table in ROW_TABLES}


def _to_arrow(
    cols: dict[str, dict[str, list[Any]]], rows: dict[str, list[tuple[Any, ...]]]
) -> dict[str, pa.Table]:
    tables = {
        table: pa.table({name: _column(name, values) for name, values in columns.items()})
        for table, columns in cols.items()
    }
    for table, tuples in rows.items():  # Arrow reads row tuples as structs, in C
        struct = pa.struct([(name, TYPES.get(name, pa.string())) for name in COLUMNS[table]])
        tables[table] = pa.Table.from_struct_array(pa.array(tuples, type=struct))
    return tables


Mark = tuple[int, ...]  # the length of every list of a slice's rows, before a match


def _mark(cols: dict[str, dict[str, list[Any]]], rows: dict[str, list[tuple[Any, ...]]]) -> Mark:
    return (
        *(len(values) for columns in cols.values() for values in columns.values()),
        *map(len, rows.values()),
    )


def _lists(
    cols: dict[str, dict[str, list[Any]]], rows: dict[str, list[tuple[Any, ...]]]
) -> list[list[Any]]:
    """Every list of a slice's rows, in the order `_mark` measures them."""
    return [*(values for columns in cols.values() for values in columns.values()), *rows.values()]


def _rollback(
    cols: dict[str, dict[str, list[Any]]], rows: dict[str, list[tuple[Any, ...]]], mark: Mark
) -> None:
    """Take away whatever a failed match appended after `mark`."""
    for values, length in zip(_lists(cols, rows), mark):
        del values[length:]


@dataclass
class _Slice:
    """Matches whose rows go to Arrow together, and where each one's rows begin."""

    cols: dict[str, dict[str, list[Any]]]
    rows: dict[str, list[tuple[Any, ...]]]
    matches: list[tuple[str, str, Mark]] = field(default_factory=list)  # (game_id, name, mark)


def _slice_tables(
    piece: _Slice, rejects: list[Reject], shas: dict[str, str], where: dict[str, str]
) -> dict[str, pa.Table]:
    """The slice in Arrow; if a value does not fit its column, each match is tried alone and
    the ones that fail are rejected, so the others are kept."""
    try:
        return _to_arrow(piece.cols, piece.rows)
    except Exception:
        pass
    kept: list[dict[str, pa.Table]] = []
    lists = _lists(piece.cols, piece.rows)
    ends = [mark for _, _, mark in piece.matches[1:]] + [tuple(map(len, lists))]
    for (game_id, name, begin), end in zip(piece.matches, ends):
        cols, rows = _empty()
        for values, whole, a, b in zip(_lists(cols, rows), lists, begin, end):
            values.extend(whole[a:b])
        try:
            kept.append(_to_arrow(cols, rows))
        except Exception as err:
            failed = internal(name, 1, err)
            rejects.append(
                Reject(name, failed.line, failed.rule, failed.message, shas.pop(game_id))
            )
            del where[game_id]
    empty = _to_arrow(*_empty())
    return {table: pa.concat_tables([empty[table]] + [t[table] for t in kept]) for table in empty}


def _replay_files(
    paths: list[str],
    names: dict[str, str],
    catalogues: Catalogues,
    carried: Mapping[str, bytes | ReplayError],
) -> Batch:
    piece = _Slice(*_empty())
    slices: list[dict[str, pa.Table]] = []
    shas: dict[str, str] = {}
    where: dict[str, str] = {}
    repeats: list[tuple[str, str, str]] = []
    rejects: list[Reject] = []
    for path in paths:
        name = one_line(names.get(path, path))  # stored, so it must encode whatever the bytes
        try:
            read = carried.get(path)
            if isinstance(read, ReplayError):
                raise read
            data = read_log(path) if read is None else read
        except ReplayError as err:
            rejects.append(Reject(name, err.line, err.rule, err.message, ""))
            continue
        sha = hashlib.sha256(data).hexdigest()
        mark = _mark(piece.cols, piece.rows)
        try:
            game_id = _replay_into(piece.cols, piece.rows, name, data, sha, shas, catalogues)
        except ReplayError as err:
            rejects.append(Reject(name, err.line, err.rule, err.message, sha))
            continue
        except Exception as err:  # a bug: this log's rejection, and none of its rows kept
            _rollback(piece.cols, piece.rows, mark)
            failed = internal(name, 1, err)
            rejects.append(Reject(name, failed.line, failed.rule, failed.message, sha))
            continue
        if game_id in shas:
            repeats.append((name, game_id, sha))  # a second file with a match seen here
            continue
        shas[game_id] = sha
        where[game_id] = name
        piece.matches.append((game_id, name, mark))
        if len(piece.matches) == SLICE:
            slices.append(_slice_tables(piece, rejects, shas, where))
            piece = _Slice(*_empty())
    slices.append(_slice_tables(piece, rejects, shas, where))
    tables = {table: pa.concat_tables([tables[table] for tables in slices]) for table in slices[0]}
    return Batch(
        tables=tables, shas=shas, paths=where, repeats=repeats, rejects=rejects, logs=len(paths)
    )


def _replay_into(
    cols: dict[str, dict[str, list[Any]]],
    rows: dict[str, list[tuple[Any, ...]]],
    path: str,
    data: bytes,
    sha: str,
    seen: dict[str, str],
    catalogues: Catalogues,
) -> str:
    """Append one match's rows; on a rejection nothing of it is appended."""
    match = open_log(data, path, catalogues=catalogues)
    header = match.header
    game = match.game
    state = start(match)
    replayed: list[Step] = list(steps(match, state))  # raises before any row is added
    game_id = header.game_id
    if game_id in seen:
        return game_id
    players = header.players
    result = game.result(state)
    neutral = getattr(header, "neutral", None)

    g = cols["games"]
    g["game_id"].append(game_id)
    g["game"].append(game.name)
    g["variant"].append(header.variant)
    ruleset = header.ruleset or game.standard_ruleset
    g["ruleset"].append(ruleset)
    rules = json.dumps(header.rules, sort_keys=True, separators=(",", ":"))
    g["rules"].append(rules)
    g["ruleset_key"].append(ruleset if not header.rules else f"{ruleset} {rules}")
    g["player_count"].append(len(players) - (neutral is not None))
    g["seat_count"].append(len(players))
    g["complete"].append(result.complete)
    g["event_count"].append(len(match.lines))
    g["played_at"].append(header.played_at)
    g["source"].append(header.source)
    g["path"].append(path)
    g["log_sha256"].append(sha)
    g["engine_version"].append(game.engine_version)
    g["header"].append(match.header_line.decode())
    catalogue = getattr(state, "catalogue", None)  # games played with a component catalogue
    g["catalogue"].append(catalogue.name if catalogue else None)
    g["catalogue_version"].append(catalogue.version if catalogue else None)
    g["catalogue_sha256"].append(catalogue.sha256 if catalogue else None)
    g["experiment"].append(header.experiment.id if header.experiment else None)
    g["arm"].append(header.experiment.arm if header.experiment else None)
    g["origin"].append(origin(players, header.agents, neutral))

    s = cols["seats"]
    winners = set(result.winners)
    sources = game.scored_sources(match.config)  # a variant board replaces some (KA-22)
    rows["seat_points"].extend(
        [
            (game_id, seat, player, source, result.sources[seat].get(source, 0))
            for seat, player in enumerate(players)
            for source in sources
        ]
    )
    first = players.index(header.start_player)
    beaten = {result.scores[seat] for seat in range(len(players)) if seat not in winners}
    for seat, player in enumerate(players):
        s["game_id"].append(game_id)
        s["seat"].append(seat)
        s["player"].append(player)
        s["agent"].append(header.agents.get(player))
        s["neutral"].append(player == neutral)
        s["start_player"].append(seat == first)
        s["position"].append((seat - first) % len(players))  # in turn order from the start
        s["score"].append(result.scores[seat])
        s["rank"].append(result.ranks[seat])
        s["won"].append(seat in winners)
        # Won on the game's tie-break: a seat that did not win had the same score.
        s["tie_break"].append(seat in winners and result.scores[seat] in beaten)

    e = cols["events"]
    n = len(replayed)
    events = [step.event for step in replayed]
    e["game_id"].extend([game_id] * n)
    e["event_index"].extend(range(1, n + 1))
    e["line"].extend([step.line for step in replayed])
    e["payload"].extend([line for _, line in match.lines[:n]])  # bytes, UTF-8 checked on opening
    e["kind"].extend(map(_tag_of, map(type, events)))
    e["player"].extend([getattr(event, "player", None) for event in events])
    e["round"].extend([step.round for step in replayed])

    item_fields = _item_types(game)  # empty for a game without components
    items = rows["item_events"]
    taken: dict[tuple[int, str, str], int] = {}  # (round, player, kind) → items so far
    player_of = _players_of(state, players)
    for step in replayed:
        named = item_fields.get(type(step.event))
        if named is not None:
            event = step.event
            kind, field = named
            player = player_of(event.player)
            key = (step.round, player, kind)
            taken[key] = position = taken.get(key, 0) + 1
            items.append(
                (
                    game_id,
                    step.index,
                    step.round,
                    player,
                    kind,
                    getattr(event, field),
                    position,
                )
            )
    add_fact_rows(rows, game_id, players, replayed)
    return game_id


def _players_of(state: Any, players: list[str]) -> Callable[[str], str]:
    """The header's player an event's `player` plays for: itself, or (KA-20 lancelot, whose
    colours' events name the colour) the player whose colour it is, so that a colour's picks
    and plays count for the player whose seat wins or loses."""
    owners, seats = getattr(state, "owners", None), getattr(state, "seats", None)
    if owners is None or not isinstance(seats, dict):
        return str
    return lambda name: players[owners[seats[name]]] if name in seats else name
