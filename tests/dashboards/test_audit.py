"""The pages' numbers recomputed from the logs themselves, through the engines and without the
warehouse: what a page calls matches are matches, seats are seats, and each rate is the share
it says it is; points by source are the engines' points, a track's leader is the first of the
engine's ranking where a round ends, and a component taken is an event that took it."""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from dashboards import queries
from ingest.cli import main
from ingest.files.catalogues import Library
from ingest.files.read import find_logs, read_log
from replay.facts import TrackMoved, TrackRanked
from replay.game import Result
from replay.games.knight_academy.scoring import ranked
from replay.registry import GAMES
from replay.replayer import Match, Outcome, open_log, start, steps

from .conftest import ROOT

LOGS = [
    ROOT / "data" / "samples",
    *(ROOT / "tests" / game / "logs" for game in ("knight_academy", "heraldry", "paladins")),
    ROOT / "tests" / "albus_academy" / "logs",
]


@dataclass(frozen=True)
class Ended:
    """A complete match as the engine ends it: its rule set as the pages key it, its result."""

    game: str
    ruleset_key: str
    result: Result


@dataclass(frozen=True)
class Take:
    """An event that takes a component (the game's `item_fields`), as the engine replays it."""

    round: int
    player: str  # the header's player whose seat took it (in lancelot, the colour's player)
    action: str
    item: str
    position: int  # 1 = the acting seat's first such event of the round


@dataclass
class Replayed:
    """What the module reads of one complete match, replayed once event by event: the end,
    each track's leader at each round's end as the engine ranks the track then, and the
    components taken."""

    outcome: Outcome
    leaders: dict[tuple[int, str], str] = field(default_factory=dict)  # (round, track) → player
    takes: list[Take] = field(default_factory=list)
    # Knight Academy: (round, track) → the player of the first disc of the engine's ranking
    # (KA-8, KA-9) read from the state where a round ended and no reset has moved that track.
    ranked_first: dict[tuple[int, str], str | None] = field(default_factory=dict)


def _replayed(match: Match) -> Replayed:
    state = start(match)
    seen = Replayed(Outcome(match=match, state=state))
    players = match.header.players
    fields = match.game.item_fields
    owners = getattr(state, "owners", None)  # Knight Academy's lancelot: a colour's player
    counted: Counter[tuple[int, str, str]] = Counter()
    ranks = match.game.name == "knight-academy"
    for step in steps(match, state):
        kind = type(step.event).__struct_config__.tag
        if kind in fields:
            name = step.event.player
            seat = state.seats[name]
            counted[step.round, name, kind] += 1
            seen.takes.append(
                Take(
                    round=step.round,
                    player=players[owners[seat] if owners else seat],
                    action=kind,
                    item=getattr(step.event, fields[kind]),
                    position=counted[step.round, name, kind],
                )
            )
        ended: dict[str, int] = {}  # track → the round whose end the engine ranked it at
        reset: set[str] = set()
        for fact in step.facts:
            if type(fact) is TrackRanked:
                ended[fact.track] = fact.round
                if fact.leads:
                    seen.leaders[fact.round, fact.track] = players[fact.seat]
            elif type(fact) is TrackMoved and fact.cause == "reset":
                reset.add(fact.track)
        if ended and ranks:
            for track, rnd in ended.items():
                if track not in reset:
                    first = ranked(state, track)[:1]
                    seen.ranked_first[rnd, track] = players[owners[first[0]]] if first else None
    return seen


@pytest.fixture(scope="module")
def replayed() -> list[Replayed]:
    """Every complete match of the logs, replayed once for the whole module."""
    books = Library()
    found = (
        _replayed(open_log(read_log(path), path, catalogues=books))
        for path in find_logs([str(p) for p in LOGS])
    )
    return [r for r in found if r.outcome.result.complete]


@pytest.fixture(scope="module")
def outcomes(replayed) -> list[Outcome]:
    return [r.outcome for r in replayed]


@pytest.fixture(scope="module")
def ended(outcomes) -> list[Ended]:
    found = []
    for outcome in outcomes:
        game, header = outcome.match.game, outcome.match.header
        ruleset = header.ruleset or game.standard_ruleset
        rules = json.dumps(header.rules, sort_keys=True, separators=(",", ":"))
        key = ruleset if not header.rules else f"{ruleset} {rules}"
        found.append(Ended(game.name, key, outcome.result))
    return found


@dataclass(frozen=True)
class Seat:
    """A seat that can win, of a complete match, as the engine ends it."""

    game: str
    game_id: str
    player_count: int
    position: int  # in turn order from the start player
    name: str  # the bot that played it, or the player
    won: bool


@pytest.fixture(scope="module")
def seats(outcomes) -> list[Seat]:
    found = []
    for outcome in outcomes:
        match, result = outcome.match, outcome.result
        header = match.header
        players = list(header.players)
        neutral = getattr(header, "neutral", None)
        first = players.index(header.start_player)
        agents = header.agents or {}
        for seat, player in enumerate(players):
            if player == neutral:
                continue
            found.append(
                Seat(
                    game=match.game.name,
                    game_id=header.game_id,
                    player_count=len(players) - (neutral is not None),
                    position=(seat - first) % len(players),
                    name=agents.get(player) or player,
                    won=seat in result.winners,
                )
            )
    return found


@cache
def _reader(warehouse: Path) -> Any:
    """One reader of the module's warehouse, which no test changes: opening one costs more
    than most of the questions asked of it."""
    from ingest.warehouse.warehouse import open_reader

    return open_reader(warehouse)


def _query(warehouse: Path, sql: str, params: dict) -> list[tuple]:
    return _reader(warehouse).cursor().execute(sql, params).fetchall()


@pytest.mark.parametrize("game", ["knight-academy", "heraldry", "paladins", "albus-academy"])
@pytest.mark.parametrize(
    ("dimension", "of"),
    [
        ("position + 1", lambda s: s.position + 1),
        ("player_count", lambda s: s.player_count),
        (
            "CASE WHEN start_player THEN 'yes' ELSE 'no' END",
            lambda s: "yes" if s.position == 0 else "no",
        ),
    ],
)
def test_win_rates_count_seats_and_their_wins_as_the_engines_end_the_logs(
    warehouse, seats, game, dimension, of
):
    mine = [s for s in seats if s.game == game]
    expected = {
        value: (sum(1 for s in mine if of(s) == value), sum(s.won for s in mine if of(s) == value))
        for value in {of(s) for s in mine}
    }
    sql = queries.WIN_RATES.replace("{dimension}", dimension).replace("{where}", "game = $game")
    shown = {value: (n, wins) for value, n, wins, _ in _query(warehouse, sql, {"game": game})}
    assert {str(k): v for k, v in shown.items()} == {str(k): v for k, v in expected.items()}


@pytest.mark.parametrize("game", ["knight-academy", "heraldry", "paladins", "albus-academy"])
def test_the_ratings_count_matches_and_the_matches_won(warehouse, seats, game, capsys):
    matches: Counter[str] = Counter()
    won: Counter[str] = Counter()
    # A match of one seat that can win (Paladins' solo game) ranks no one against anyone.
    rated = [s for s in seats if s.game == game and s.player_count > 1]
    for name, game_id in {(s.name, s.game_id) for s in rated}:
        matches[name] += 1
        won[name] += any(s.won for s in rated if s.game_id == game_id and s.name == name)
    assert main(["ratings", game, "--db", str(warehouse), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert {r["name"]: r["matches"] for r in rows} == dict(matches)
    assert {r["name"]: r["win_rate"] for r in rows} == pytest.approx(
        {name: won[name] / matches[name] for name in matches}
    )


@pytest.mark.parametrize("game", ["knight-academy", "heraldry", "paladins", "albus-academy"])
def test_balances_share_of_winners_points_is_the_experiment_metric_over_the_same_matches(
    warehouse, ended, game
):
    from ingest.simulation.experiment import measure

    sql = queries.SOURCE_SHARE_OF_WINNERS.replace("{where}", "game = $game")
    shown = {(key, source): (share, n) for key, source, _, share, n, *_ in
             _query(warehouse, sql, {"game": game})}  # fmt: skip
    expected = {}
    for key in {e.ruleset_key for e in ended if e.game == game}:
        for source in GAMES[game].sources:
            metric = measure(GAMES[game], f"source_share:{source}")
            values = [
                metric(None, [], e.result) for e in ended if (e.game, e.ruleset_key) == (game, key)
            ]
            values = [v for v in values if v is not None]
            if values and (key, source) in shown:
                expected[key, source] = (pytest.approx(sum(values) / len(values)), len(values))
    # (a source a rule set does not score has no row, where the metric reads it as 0)
    assert expected and set(shown) == set(expected)
    assert {k: shown[k] for k in expected} == expected
    # signed: Knight Academy's education is a penalty for some, and shown as a loss of share
    if game == "knight-academy":
        assert any(share < 0 for (_, source), (share, _) in shown.items())


def _points(outcomes: list[Outcome], game: str) -> list[tuple[dict[str, Any], str, int]]:
    """(the seat's facts, source, points) for every seat that can win of the game's complete
    matches and every source its rules score from, zeros included."""
    found = []
    for outcome in outcomes:
        match, result = outcome.match, outcome.result
        if match.game.name != game:
            continue
        header = match.header
        players = list(header.players)
        neutral = getattr(header, "neutral", None)
        for seat, player in enumerate(players):
            if player == neutral:
                continue
            about = {
                "won": seat in result.winners,
                "player_count": len(players) - (neutral is not None),
                "agent": header.agents.get(player) or "",  # a person's seat: a group of its own
                "player": player,
            }
            for source in match.game.scored_sources(match.config):
                found.append((about, source, result.sources[seat].get(source, 0)))
    return found


def _quantile(values: list[int], p: float) -> float:
    """The p-quantile interpolated between the two values around it (as quantile_cont)."""
    ordered = sorted(values)
    at = p * (len(ordered) - 1)
    low, high = ordered[math.floor(at)], ordered[math.ceil(at)]
    return low + (at - math.floor(at)) * (high - low)


@pytest.mark.parametrize("game", ["knight-academy", "heraldry", "paladins", "albus-academy"])
def test_sources_points_of_winners_and_the_others_are_the_engines_points_by_source(
    warehouse, outcomes, game
):
    by: defaultdict[tuple[str, bool], list[int]] = defaultdict(list)
    for about, source, points in _points(outcomes, game):
        by[source, about["won"]].append(points)
    expected = {
        key: (
            len(values),
            pytest.approx(sum(values) / len(values)),
            min(values),
            pytest.approx([_quantile(values, q) for q in (0.25, 0.5, 0.75)]),
            max(values),
        )
        for key, values in by.items()
    }
    sql = queries.SOURCE_SUMMARY.replace("{where}", "game = $game")
    shown = {
        (source, won): (seats, mean, low, [q1, median, q3], high)
        for source, _, won, seats, mean, low, q1, median, q3, high in _query(
            warehouse, sql, {"game": game}
        )
    }
    assert expected and shown == expected


@pytest.mark.parametrize("game", ["knight-academy", "heraldry", "paladins", "albus-academy"])
@pytest.mark.parametrize(
    ("by", "column"),
    [
        ("player_count", "player_count"),
        ("coalesce(agent, '')", "agent"),
        ("player", "player"),
    ],
)
def test_sources_mean_points_by_bot_players_and_player_are_the_engines(
    warehouse, outcomes, game, by, column
):
    by_value: defaultdict[tuple[str, str], list[int]] = defaultdict(list)
    for about, source, points in _points(outcomes, game):
        by_value[str(about[column]), source].append(points)
    expected = {key: (pytest.approx(sum(v) / len(v)), len(v)) for key, v in by_value.items()}
    sql = queries.SOURCE_MEANS_BY.replace("{by}", by).replace("{where}", "game = $game")
    rows = _query(warehouse, sql, {"game": game})
    shown = {(str(v), s): (mean, seats) for v, s, _, mean, seats in rows}
    assert expected and shown == expected


def _leads(replayed: list[Replayed], game: str) -> dict[tuple[str, int], tuple[int, int, int]]:
    """(track, round) → (matches with a leader then, of which the leader won, of which the lead
    changed hands since the track's previous round with a leader)."""
    counts: defaultdict[tuple[str, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in replayed:
        match, result = r.outcome.match, r.outcome.result
        if match.game.name != game:
            continue
        won = {match.header.players[seat] for seat in result.winners}
        before: dict[str, str] = {}
        for (rnd, track), leader in sorted(r.leaders.items()):
            row = counts[track, rnd]
            row[0] += 1
            row[1] += leader in won
            row[2] += track in before and before[track] != leader
            before[track] = leader
    return {key: (m, w, c) for key, (m, w, c) in counts.items()}


@pytest.mark.parametrize("game", ["knight-academy", "heraldry", "paladins", "albus-academy"])
def test_tracks_leaders_and_lead_changes_are_the_engines_ranking_at_each_rounds_end(
    warehouse, replayed, game
):
    expected = {
        key: (pytest.approx(wins / n), changes, n, wins)
        for key, (n, wins, changes) in _leads(replayed, game).items()
    }
    sql = queries.ROUND_LEADERS.replace("{where}", "game = $game")
    shown = {
        (track, rnd): (share, changes, n, wins)
        for track, rnd, share, changes, n, wins in _query(warehouse, sql, {"game": game})
    }
    assert expected and shown == expected
    # a lead that never changes hands would pass unseen: the samples have changes
    assert sum(changes for _, changes, _, _ in shown.values()) > 0


def test_knight_academys_leader_at_a_rounds_end_is_the_first_disc_of_its_ranking(replayed):
    # KA-8, KA-9: read from the state as each round ends, where no reset has moved the track
    checked = 0
    for r in replayed:
        for key, first in r.ranked_first.items():
            assert r.leaders.get(key) == first, (r.outcome.match.path, key)
            checked += 1
    assert checked > 10_000


def _takes(replayed: list[Replayed], game: str) -> Iterator[tuple[Take, bool, str]]:
    """Every component taken by a seat that can win of the game's complete matches: the take,
    whether its seat's player won, the match. (One at a time: a list of them all would be
    swept by every collection of the garbage the replayed matches make.)"""
    for r in replayed:
        match, result = r.outcome.match, r.outcome.result
        if match.game.name != game:
            continue
        players = list(match.header.players)
        neutral = getattr(match.header, "neutral", None)
        won = {players[seat] for seat in result.winners}
        for take in r.takes:
            if take.player != neutral:
                yield take, take.player in won, match.header.game_id


def _cards(warehouse: Path, replayed: list[Replayed], action: str) -> tuple[dict, dict]:
    """Balance's card table's columns of one action ("pick" or "play") by card: as the engine
    replays the takes, and as the page shows them."""
    sums: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for take, won, _ in _takes(replayed, "knight-academy"):
        if take.action == action:
            card = sums[take.item]  # takes, positions, early ones, won
            card[0] += 1
            card[1] += take.position
            card[2] += take.position <= 2
            card[3] += won
    if action == "pick":
        expected = {
            card: {
                "picks": n,
                "mean_pick_position": pytest.approx(positions / n),
                "early_pick_rate": pytest.approx(early / n),
                "win_rate_when_picked": pytest.approx(won / n),
                "early_picks": early,
                "wins_when_picked": won,
            }
            for card, (n, positions, early, won) in sums.items()
        }
    else:
        expected = {
            card: {
                "plays": n,
                "win_rate_when_played": pytest.approx(won / n),
                "wins_when_played": won,
            }
            for card, (n, _, _, won) in sums.items()
        }
    sql = queries.ITEMS.replace("{where}", "game = $game")
    rows = _dicts(warehouse, sql, {"game": "knight-academy", "pick": "pick", "play": "play"})
    columns = next(iter(expected.values()), {})
    shown = {row["item"]: {c: row[c] for c in columns} for row in rows if row[f"{action}s"]}
    return shown, expected


def test_balances_cards_are_the_picks_the_engine_replays(warehouse, replayed):
    shown, expected = _cards(warehouse, replayed, "pick")
    assert expected and shown == expected


def test_balances_cards_are_the_plays_the_engine_replays(warehouse, replayed):
    shown, expected = _cards(warehouse, replayed, "play")
    assert expected and shown == expected


@pytest.mark.parametrize("game", ["paladins", "albus-academy"])
def test_balances_components_are_the_components_the_engine_replays(warehouse, replayed, game):
    takers: defaultdict[tuple[str, str], dict[tuple[str, str], list[Any]]] = defaultdict(dict)
    for take, won, game_id in _takes(replayed, game):
        seat = takers[take.action, take.item].setdefault((game_id, take.player), [0, [], won])
        seat[0] += 1
        seat[1].append(take.round)
    expected = {
        key: {
            "taken": sum(times for times, _, _ in seats.values()),
            "seats": len(seats),
            "mean_first_round": _mean([min(rounds) for _, rounds, _ in seats.values()]),
            "win_rate_of_takers": _mean([won for _, _, won in seats.values()]),
            "wins": sum(won for _, _, won in seats.values()),
        }
        for key, seats in takers.items()
    }
    sql = queries.COMPONENTS.replace("{where}", "game = $game")
    shown = {
        (row.pop("action"), row.pop("item")): row for row in _dicts(warehouse, sql, {"game": game})
    }
    assert expected and shown == expected


def _mean(values: list[Any]) -> Any:
    """The mean, approximately (a page's mean is a sum over a count); None of nothing."""
    return pytest.approx(sum(values) / len(values)) if values else None


def _dicts(warehouse: Path, sql: str, params: dict) -> list[dict[str, Any]]:
    cursor = _reader(warehouse).cursor().execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]
