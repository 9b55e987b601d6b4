"""Experiments are kept apart: a warehouse that also holds an experiment (one arm under the
standard rules, as real matches are played) shows the statistics of the matches played alone,
until the experiment is chosen."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from dashboards import queries
from dashboards.data import PLAYED, Filters
from ingest.cli import main
from ingest.pipeline import ingest
from ingest.warehouse import open_reader
from replay.registry import GAMES

ROOT = Path(__file__).parents[1]
LOGS = [ROOT / "tests" / g / "logs" for g in ("knight_academy", "heraldry", "paladins")]


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory) -> tuple[Path, Path, str]:
    folder = tmp_path_factory.mktemp("apart")
    played, mixed = folder / "played", folder / "mixed"
    for db in (played, mixed):
        ingest([*LOGS, ROOT / "tests" / "albus_academy" / "logs"], db=db, jobs=1)
    args = [
        *("experiment", "knight-academy", "--metric", "margin", "--bots", "greedy,random"),
        *("--a", "quest_prizes=[30,20,10]", "--max", "20", "--batch", "20", "--jobs", "1"),
        *("--db", str(mixed), "--json"),
    ]
    assert main(args) == 0
    (experiment,) = {
        row[0] for row in open_reader(mixed).execute("SELECT experiment FROM games").fetchall()
    } - {None}
    return played, mixed, experiment


STATISTICS = [
    "SOURCE_SUMMARY",
    "DECISIVE_SOURCES",
    "ROUND_END_PROGRESS",
    "ROUND_LEADERS",
    "SEAT_TABLE",
    "ITEMS",
    "COMPONENTS",
    "SOURCE_SHARE_OF_WINNERS",
    "RULESET_SUMMARY",
    *(f"WIN_RATES {d}" for d in ("position + 1", "coalesce(agent, '—')", "ruleset_key")),
    *(f"SOURCE_MEANS_BY {b}" for b in ("coalesce(agent, '—')", "player_count")),
]


def _ask(db: Path, name: str, flt: Filters) -> list[tuple]:
    query, _, slot = name.partition(" ")
    sql = getattr(queries, query).replace("{dimension}", slot).replace("{by}", slot)
    clause, params = flt.where()
    if query == "ITEMS":
        params = {**params, "pick": "pick", "play": "play"}
    # in any order (rows a query ranks alike may come either way), and sums of fractions to
    # the digits their order of summing leaves alone
    rows = _rows(db, sql.replace("{where}", clause), params)
    return sorted(
        (tuple(round(v, 9) if isinstance(v, float) else v for v in row) for row in rows), key=repr
    )


@pytest.mark.parametrize("name", STATISTICS)
def test_every_statistic_leaves_the_experiment_out_until_it_is_chosen(warehouses, name):
    played, mixed, experiment = warehouses
    for game in GAMES:
        assert _ask(mixed, name, Filters(game=game)) == _ask(played, name, Filters(game=game))
    chosen = Filters(game="knight-academy", origins=[PLAYED, experiment])
    if name.startswith(("WIN_RATES", "SEAT_TABLE", "RULESET_SUMMARY")):
        assert _ask(mixed, name, chosen) != _ask(played, name, chosen)
    alone = Filters(game="knight-academy", origins=[experiment])
    assert _ask(mixed, name, alone) and not _ask(played, name, alone)


def _rows(db: Path, sql: str, params: dict | None = None) -> list[tuple]:
    con = open_reader(db)
    try:
        return con.execute(sql, params or {}).fetchall()
    finally:
        con.close()


def test_the_home_page_the_finder_and_the_player_page_leave_it_out(warehouses):
    played, mixed, _ = warehouses
    totals = {r[0]: r[1:4] for r in _rows(mixed, queries.GAME_TOTALS)}
    assert totals["knight-academy"][2] == 40  # 20 matches an arm, counted apart
    assert {g: t[:2] for g, t in totals.items()} == {
        r[0]: tuple(r[1:3]) for r in _rows(played, queries.GAME_TOTALS)
    }
    for sql, params in (
        (queries.MATCH_LIST, queries.ANY_MATCH),
        (queries.LATEST_MATCH, {}),
        (queries.FILTER_CHOICES, {}),
        (queries.PLAYER_MATCHES.replace("{among}", queries.EVERY), {"name": "Ann"}),
        *((getattr(queries, q), {"name": "greedy"}) for q in ("PLAYER_RESULTS", "PLAYER_SOURCES",
                                                            "PLAYER_ITEMS", "PLAYER_OPPONENTS")),
    ):  # fmt: skip
        # (the examples carry no time of play: the time each warehouse ingested them stands in)
        assert _untimed(_rows(mixed, sql, params)) == _untimed(_rows(played, sql, params))
    with_them = _rows(mixed, queries.MATCH_LIST, {**queries.ANY_MATCH, "experiments": True})
    assert len(with_them) == len(_rows(played, queries.MATCH_LIST, queries.ANY_MATCH)) + 40


def _untimed(rows: list[tuple]) -> list[tuple]:
    return [tuple(v for v in row if not isinstance(v, datetime)) for row in rows]


def test_the_ratings_and_the_rescore_leave_it_out(warehouses, capsys):
    played, mixed, experiment = warehouses
    out = {}
    for db in (played, mixed):
        assert main(["ratings", "knight-academy", "--db", str(db), "--json"]) == 0
        out[db] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[mixed] == out[played]

    def rescored(db: Path, *source: str) -> int:
        args = ["rescore", "knight-academy", "--db", str(db), "--json", *source]
        assert main(args) == 0
        return int(json.loads(capsys.readouterr().out.splitlines()[-1])["matches"])

    assert rescored(mixed) == rescored(played) > 0
    assert rescored(mixed, "--source", f"experiment:{experiment}") == 40
    assert rescored(mixed, "--source", "experiment") == 40
    assert rescored(mixed, "--source", "bot") == rescored(played, "--source", "bot")
