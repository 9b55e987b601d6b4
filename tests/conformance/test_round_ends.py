"""Every game's round ends as the warehouse stores them: for every bundled sample, each marker's
position in `round_progress` and each track's leader in `track_leaders` are the engine's own
where each round ends, read from its state (its snapshot, Knight Academy's discs) and ranked by
its own ranking as the match is replayed event by event, not from the facts those rows are
made of; and each track's moves in `track_moves` end where that ranking finds the marker."""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable
from functools import wraps
from typing import Any

import pytest

from ingest.files.read import find_logs, read_log
from ingest.pipeline.rows import replay_files
from replay.replayer import Match, open_log, start, steps
from tests.support import CATALOGUES, Profile

from .play import NAMES, PROFILES, SAMPLES

Standing = dict[str, tuple[list[tuple[int, int]], int | None]]


def _paths(name: str) -> list[str]:
    return [str(path) for path in find_logs([str(SAMPLES[name])])]


@pytest.fixture(scope="module", params=NAMES)
def name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module")
def stored(name: str) -> dict[str, list[dict[str, Any]]]:
    """The tables' rows as an ingest's workers make them of the game's samples."""
    batch = replay_files(_paths(name), catalogues=CATALOGUES)
    assert not batch.rejects
    tables = ("round_progress", "track_leaders", "track_moves")
    return {table: batch.tables[table].to_pylist() for table in tables}


def _read_at_round_ends(match: Match, profile: Profile) -> dict[int, Standing]:
    """Round → the engine's tracks where it ended. A round ends where the next begins (the
    setup, round 0, is no round) or the match does, and is read there (see `ranks_in`)."""
    game = match.game
    state = start(match)
    ends: dict[int, Standing] = {}
    with pytest.MonkeyPatch.context() as patch:
        if profile.ranks_in:
            rules = importlib.import_module(f"replay.games.{game.name.replace('-', '_')}.rules")
            ends_round: Callable[..., Any] = getattr(rules, profile.ranks_in)

            @wraps(ends_round)
            def reading_first(state: Any, *args: Any) -> Any:
                rnd, reading = state.round, profile.standing(state)
                out = ends_round(state, *args)
                if (state.round > rnd >= 1) or game.is_over(state):
                    ends[rnd] = reading
                return out

            patch.setattr(rules, profile.ranks_in, reading_first)
        for step in steps(match, state):
            if not profile.ranks_in and state.round > step.round >= 1:
                ends[step.round] = profile.standing(state)
    if game.is_over(state):
        ends.setdefault(state.round, profile.standing(state))
    return ends


@pytest.fixture(scope="module")
def engine(name: str) -> dict[str, list[tuple[Any, ...]]]:
    """The same rows, from the engine's state at each round's end."""
    profile = PROFILES[name]
    progress: list[tuple[Any, ...]] = []
    leaders: list[tuple[Any, ...]] = []
    for path in _paths(name):
        match = open_log(read_log(path), path, catalogues=CATALOGUES)
        players, game_id = match.header.players, match.header.game_id
        last: dict[str, int] = {}
        for rnd, tracks in sorted(_read_at_round_ends(match, profile).items()):
            for track, (markers, leader) in tracks.items():
                for i, (seat, value) in enumerate(markers):
                    # arrived: the place counted from the back
                    progress.append((game_id, rnd, players[seat], track, value, len(markers) - i))
                if leader is not None:
                    changed = track in last and last[track] != leader
                    leaders.append((game_id, rnd, track, players[leader], changed))
                    last[track] = leader
    return {"round_progress": progress, "track_leaders": leaders}


def _rows(rows: list[dict[str, Any]]) -> Counter[tuple[Any, ...]]:
    return Counter(tuple(row.values()) for row in rows)


def test_round_progress_holds_each_marker_where_the_engine_has_it_at_each_rounds_end(
    name, stored, engine
):
    want = Counter(engine["round_progress"])
    got = _rows(stored["round_progress"])
    assert want, name
    assert got == want, (sorted(got - want)[:5], sorted(want - got)[:5])


def test_track_leaders_are_the_engines_own_at_each_rounds_end(name, stored, engine):
    want = Counter(engine["track_leaders"])
    got = _rows(stored["track_leaders"])
    assert want, name
    assert got == want, (sorted(got - want)[:5], sorted(want - got)[:5])


def test_each_tracks_moves_end_where_the_rounds_ranking_finds_the_marker(name, stored):
    # The moves in the order the engine made them; a reset comes after the ranking of the round
    # it ends (KA-16), so it is left out.
    last: dict[tuple[Any, ...], int] = {}
    for move in stored["track_moves"]:
        if move["cause"] != "reset":
            key = (move["game_id"], move["round"], move["player"], move["track"])
            last[key] = move["progress_after"]
    stands: dict[tuple[Any, ...], set[int]] = {}
    for row in stored["round_progress"]:
        key = (row["game_id"], row["round"], row["player"], row["track"])
        stands.setdefault(key, set()).add(row["progress"])  # a disc of each colour (KA-20)
    wrong = [key for key, after in last.items() if key in stands and after not in stands[key]]
    assert not wrong and last.keys() & stands.keys(), wrong[:5]
