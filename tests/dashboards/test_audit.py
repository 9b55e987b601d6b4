"""The pages' numbers recomputed from the logs themselves, through the engines and without the
warehouse: what a page calls matches are matches, seats are seats, and each rate is the share
it says it is."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from dashboards import queries
from ingest.catalogues import Library
from ingest.cli import main
from ingest.read import find_logs, read_log
from replay.game import Result
from replay.registry import GAMES
from replay.replayer import Outcome, open_log, replay

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


@pytest.fixture(scope="module")
def outcomes() -> list[Outcome]:
    """Every complete match of the logs, replayed once for the whole module."""
    books = Library()
    replayed = (
        replay(open_log(read_log(path), path, catalogues=books), keep_steps=False)
        for path in find_logs([str(p) for p in LOGS])
    )
    return [outcome for outcome in replayed if outcome.result.complete]


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


def _query(warehouse: Path, sql: str, params: dict) -> list[tuple]:
    from ingest.warehouse import open_reader

    return open_reader(warehouse).execute(sql, params).fetchall()


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
    from ingest.experiment import measure

    sql = queries.SOURCE_SHARE_OF_WINNERS.replace("{where}", "game = $game")
    shown = {(key, source): (share, n) for key, source, _, share, n in
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
