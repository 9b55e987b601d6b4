"""Where a match came from is a filter everywhere. Experiments are kept apart: a warehouse that
also holds an experiment (one arm under the standard rules, as real matches are played) shows
the statistics of the matches played alone, until the experiment is chosen. People's matches
and simulations can each be chosen alone: a warehouse of both shows, for people's matches,
what a warehouse of those alone shows."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import duckdb
import pytest

from dashboards import queries
from dashboards.data import BOT, HUMAN, PLAYED, Filters
from ingest.cli import main
from ingest.pipeline.pipeline import ingest
from ingest.warehouse.warehouse import open_reader
from replay.registry import GAMES

ROOT = Path(__file__).parents[3]
LOGS = [ROOT / "tests" / g / "logs" for g in ("knight_academy", "heraldry", "paladins")]


# The examples' matches were played by people (no seat names a bot); a few samples of each game
# were played by bots.
PEOPLE = [*LOGS, ROOT / "tests" / "albus_academy" / "logs"]
SAMPLES = ROOT / "data" / "samples"
BOTS = [
    path
    for game in ("knight-academy", "heraldry", "paladins", "albus-academy")
    for path in sorted((SAMPLES / game).glob("*.jsonl.gz"))[:4]
]


@pytest.fixture(scope="module")
def people(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("people") / "people"
    ingest(PEOPLE, db=db, jobs=1)
    return db


@pytest.fixture(scope="module")
def warehouses(tmp_path_factory) -> tuple[Path, Path, str]:
    folder = tmp_path_factory.mktemp("apart")
    played, mixed = folder / "played", folder / "mixed"
    for db in (played, mixed):
        ingest([*PEOPLE, *BOTS], db=db, jobs=1)
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


def _ask(db: Path | duckdb.DuckDBPyConnection, name: str, flt: Filters) -> list[tuple]:
    """A statistic's rows, from a warehouse or from a reader already open on one."""
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
    chosen = Filters(game="knight-academy", origins=[*PLAYED, experiment])
    if name.startswith(("WIN_RATES", "SEAT_TABLE", "RULESET_SUMMARY")):
        assert _ask(mixed, name, chosen) != _ask(played, name, chosen)
    alone = Filters(game="knight-academy", origins=[experiment])
    assert _ask(mixed, name, alone) and not _ask(played, name, alone)


def _rows(
    db: Path | duckdb.DuckDBPyConnection, sql: str, params: dict | None = None
) -> list[tuple]:
    if isinstance(db, duckdb.DuckDBPyConnection):
        return db.execute(sql, params or {}).fetchall()
    con = open_reader(db)
    try:
        return con.execute(sql, params or {}).fetchall()
    finally:
        con.close()


def test_the_home_page_the_finder_and_the_player_page_leave_it_out(warehouses):
    played, mixed, _ = warehouses
    # game, matches, complete, people's, bots', experiments' (then the days)
    totals = {r[0]: r[1:6] for r in _rows(mixed, queries.GAME_TOTALS)}
    assert totals["knight-academy"][4] == 40  # 20 matches an arm, counted apart
    assert {g: t[:4] for g, t in totals.items()} == {
        r[0]: tuple(r[1:5]) for r in _rows(played, queries.GAME_TOTALS)
    }
    assert all(matches == human + bot for matches, _, human, bot, _ in totals.values())
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
    """The rows without their times, in any order (rows a query ranks alike come either way)."""
    return sorted((tuple(v for v in row if not isinstance(v, datetime)) for row in rows), key=repr)


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


def _who_played(path: Path) -> str:
    """A log's origin read from its header, as a reader of the log would: a bot at every seat
    is a simulation."""
    import gzip

    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as lines:
        header = json.loads(next(lines))
    agents = header.get("agents") or {}
    return "bot" if all(p in agents for p in header["players"]) else "human"


def test_every_match_says_who_played_it(warehouses):
    _, mixed, _ = warehouses
    logs = [p for folder in PEOPLE for p in sorted(folder.iterdir())] + BOTS
    expected = {"human": 0, "bot": 0}
    for path in logs:
        expected[_who_played(path)] += 1
    stored = dict(
        _rows(mixed, "SELECT origin, count(*) FROM games WHERE experiment IS NULL GROUP BY ALL")
    )
    assert stored == expected and expected["human"] and expected["bot"] == 16
    # an experiment's matches were played by its bots
    assert _rows(mixed, "SELECT DISTINCT origin FROM games WHERE experiment IS NOT NULL") == [
        ("bot",)
    ]


@pytest.mark.parametrize("name", STATISTICS)
def test_people_s_matches_alone_read_as_a_warehouse_of_them_alone(people, warehouses, name):
    _, mixed, _ = warehouses
    for game in GAMES:
        alone = _ask(people, name, Filters(game=game))
        assert _ask(mixed, name, Filters(game=game, origins=[HUMAN])) == alone
        bots = _ask(mixed, name, Filters(game=game, origins=[BOT]))
        if name.startswith(("WIN_RATES", "SEAT_TABLE", "RULESET_SUMMARY")):
            assert bots and bots != alone


def test_a_part_from_before_origins_says_who_played_its_matches(people, warehouses, tmp_path):
    """A part of the older format written before `games.origin` and its summaries' version:
    converted, its matches' origin is read from their seats, and its summaries derived from
    its rows."""
    import pyarrow.parquet as pq

    from ingest.warehouse import summaries
    from ingest.warehouse.convert import parts
    from tests.ingest.warehouse.older import as_parts

    _, mixed, _ = warehouses
    old = tmp_path / "old"
    as_parts(mixed, old)
    for part in parts(old):
        games = pq.read_table(part / "games.parquet")
        pq.write_table(games.drop_columns(["origin"]), part / "games.parquet")
        for name in summaries.SUMMARIES:  # as an earlier version named them
            (part / summaries.file_name(name)).rename(part / f"summary_{name}.parquet")
    assert all(summaries.missing(p) for p in parts(old))
    # one reader of each (an old part's summaries are derived as a reader opens it)
    before, now = open_reader(old), open_reader(mixed)
    try:
        for name in STATISTICS:
            for game in GAMES:
                for origins in ([HUMAN], [BOT], list(PLAYED)):
                    flt = Filters(game=game, origins=origins)
                    assert _ask(before, name, flt) == _ask(now, name, flt), (name, game, origins)
    finally:
        before.close()
        now.close()
    assert _rows(old, queries.MATCH_LIST, queries.ANY_MATCH) == _rows(
        mixed, queries.MATCH_LIST, queries.ANY_MATCH
    )


def test_the_commands_take_where_matches_came_from(people, warehouses, capsys):
    _, mixed, _ = warehouses

    def ratings(db: Path, *source: str) -> list[dict]:
        assert main(["ratings", "knight-academy", "--db", str(db), "--json", *source]) == 0
        return [json.loads(line) for line in capsys.readouterr().out.splitlines()]

    assert ratings(mixed, "--source", "human") == ratings(people)
    bots = {row["name"] for row in ratings(mixed, "--source", "bot")}
    assert bots and bots <= {"random", "greedy", "focus", "denier"}

    def rescored(db: Path, *source: str) -> int:
        assert main(["rescore", "knight-academy", "--db", str(db), "--json", *source]) == 0
        return int(json.loads(capsys.readouterr().out.splitlines()[-1])["matches"])

    assert rescored(mixed, "--source", "human") == rescored(people) > 0
    assert rescored(mixed, "--source", "bot") == 4
