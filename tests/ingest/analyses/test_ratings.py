"""Ratings: small cases worked by hand, the same ratings whatever order the logs came in, the
bots in the order of their strength, and `squire ratings`."""

from __future__ import annotations

import json
import math
import shutil
from datetime import UTC, datetime
from pathlib import Path

import polars as pl
import pytest
from deltalake import DeltaTable, write_deltalake
from hypothesis import given, settings
from hypothesis import strategies as st

from ingest.analyses import plackett_luce
from ingest.analyses.ratings import PROVISIONAL, Z, leaderboard, rate, stored, win_chances
from ingest.cli import main
from ingest.pipeline.pipeline import ingest

ROOT = Path(__file__).parents[3]
SAMPLES = ROOT / "data" / "samples"
WHEN = datetime(2026, 1, 1, tzinfo=UTC)
MU, SIGMA, BETA = 25.0, 25.0 / 3, 25.0 / 6  # openskill's defaults
TAU = MU / 300  # added to sigma before each match (skill may drift)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.floats(0, 50), st.floats(0.1, 10), st.integers(1, 5)
        ),  # mu, sigma, rank of a seat
        min_size=2,
        max_size=6,
    )
)
def test_the_update_is_openskills_plackett_luce_to_the_last_bit(seats):
    """The ratings' own update against the library it was written from: the same numbers, ties
    and any order of ranks included."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [(mu, sigma) for mu, sigma, _ in seats]
    ranks = [float(rank) for _, _, rank in seats]
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    expected = [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=list(ranks))]
    assert plackett_luce.rate(ratings, ranks) == expected


def _seats(*matches: list[tuple[str, int]]) -> pl.DataFrame:
    """Matches as (name, rank) seats, played an hour apart, no bots."""
    rows = [
        ("g", f"m{i}", WHEN.replace(hour=i), name, "player", rank, rank == 1)
        for i, seats in enumerate(matches)
        for name, rank in seats
    ]
    return pl.DataFrame(
        rows,
        schema={"game": pl.String, "game_id": pl.String, "played_at": pl.Datetime("us", "UTC"),
                "name": pl.String, "kind": pl.String, "rank": pl.Int64, "won": pl.Boolean},
        orient="row",
    )  # fmt: skip


def _after(history: pl.DataFrame) -> dict[str, tuple[float, float]]:
    last = history.group_by("name").last()
    return {n: (mu, s) for n, mu, s in last.select("name", "mu", "sigma").iter_rows()}


def test_two_players_one_match_worked_by_hand():
    # Weng and Lin's Plackett–Luce update: sigma² = (25/3)² + tau², c² = 2 (sigma² + beta²);
    # both at 25, so each had a chance of 1/2. The winner gains sigma²/c · (1 − 1/2), the loser
    # loses as much; sigma² shrinks by the factor 1 − (sigma/c)(sigma²/c²)(1/2)(1/2).
    after = _after(rate(_seats([("Ann", 1), ("Bob", 2)])))
    s2 = SIGMA**2 + TAU**2
    c = math.sqrt(2 * (s2 + BETA**2))
    gain = s2 / c * 0.5
    shrink = 1 - (math.sqrt(s2) / c) * (s2 / c**2) * 0.25
    assert after["Ann"][0] == pytest.approx(MU + gain) == pytest.approx(27.635, abs=1e-3)
    assert after["Bob"][0] == pytest.approx(MU - gain)
    assert (
        after["Ann"][1] == pytest.approx(math.sqrt(s2 * shrink)) == pytest.approx(8.066, abs=1e-3)
    )


def test_a_tie_moves_no_one_and_makes_both_surer():
    after = _after(rate(_seats([("Ann", 1), ("Bob", 1)])))
    assert after["Ann"][0] == pytest.approx(MU) and after["Bob"][0] == pytest.approx(MU)
    assert after["Ann"][1] < SIGMA and after["Ann"][1] == pytest.approx(after["Bob"][1])


def test_a_five_seat_match_worked_by_hand():
    # All at 25: c² = 5 (sigma² + beta²). The winner is beaten by no one: it gains sigma²/c ·
    # (1 − 1/5). The last is compared with the field at every place: sigma²/c · −(1/5 + 1/4 +
    # 1/3 + 1/2) — the chance that each, in turn, would have come first among those left.
    names = ["A", "B", "C", "D", "E"]
    after = _after(rate(_seats([(n, i + 1) for i, n in enumerate(names)])))
    s2 = SIGMA**2 + TAU**2
    c = math.sqrt(5 * (s2 + BETA**2))
    assert after["A"][0] == pytest.approx(MU + s2 / c * 0.8, abs=1e-6)
    assert after["E"][0] == pytest.approx(MU - s2 / c * (1 / 5 + 1 / 4 + 1 / 3 + 1 / 2), abs=1e-6)
    assert [after[n][0] for n in names] == sorted((after[n][0] for n in names), reverse=True)
    assert sum(after[n][0] - MU for n in names) == pytest.approx(0.0, abs=1e-9)


def test_a_name_in_two_seats_takes_the_sum_of_both_seats_changes():
    # greedy first and last: its two changes nearly cancel; random, second, gains
    history = rate(_seats([("greedy", 1), ("random", 2), ("greedy", 3)]))
    row = history.filter(pl.col("name") == "greedy").row(0, named=True)
    assert row["seats"] == 2 and row["wins"] == 1
    assert _after(history)["random"][0] > MU


def test_chances_follow_the_ratings_and_sum_to_one():
    even = win_chances([(25.0, SIGMA), (25.0, SIGMA)])
    assert even == pytest.approx([0.5, 0.5])
    strong, weak = win_chances([(40.0, 2.0), (10.0, 2.0)])
    assert strong > 0.9 and strong + weak == pytest.approx(1.0)


@pytest.fixture(scope="module")
def rated(samples_and_examples) -> Path:
    return samples_and_examples  # read only


def _split(tmp_path: Path, rated: Path) -> tuple[Path, Path]:
    """A quarter of the Knight Academy samples (every run's, by match number) in two halves:
    every one played before October, then the rest, so that the later half continues the
    ratings and the earlier half, ingested second, makes the game be rated again from its
    start."""
    from ingest.warehouse.warehouse import open_reader

    played = dict(
        open_reader(rated)
        .execute(
            "SELECT game_id, played_at < '2026-10-01' FROM games WHERE game = 'knight-academy'"
        )
        .fetchall()
    )
    early, late = tmp_path / "early", tmp_path / "late"
    early.mkdir()
    late.mkdir()
    for f in (SAMPLES / "knight-academy").iterdir():
        game_id = f.name.split(".")[0]
        if int(game_id.rsplit("-", 1)[1]) % 4 == 0:  # a quarter keeps the test quick
            shutil.copy(f, (early if played[game_id] else late) / f.name)
    assert len(list(early.iterdir())) > 0 and len(list(late.iterdir())) > 0
    return early, late


def _same(a: pl.DataFrame, b: pl.DataFrame) -> None:
    key = ["game", "played_at", "game_id", "name"]
    assert a.sort(key).equals(b.sort(key))


def test_the_ratings_do_not_depend_on_the_order_the_logs_were_ingested_in(tmp_path, rated):
    early, late = _split(tmp_path, rated)
    whole = tmp_path / "whole"
    ingest([early, late], db=whole, jobs=1)
    reference = stored(whole)
    assert reference.height > 0
    for order in ((early, late), (late, early)):  # continued, then rated again from the start
        db = tmp_path / f"in-{order[0].name}-first"
        for folder in order:
            ingest([folder], db=db, jobs=1)
        _same(stored(db), reference)
        # the later matches' rows appended; a game rated again from its start in place of its
        # rows, in one commit
        log = DeltaTable(str(db / "tables" / "ratings")).history()
        writes = [h["operationParameters"] for h in reversed(log) if h["operation"] == "WRITE"]
        assert writes == (
            [{"mode": "Append"}, {"mode": "Append"}]
            if order[0] == early
            else [{"mode": "Append"}, {"mode": "Overwrite", "predicate": "game = 'knight-academy'"}]
        )


def test_a_compaction_merges_the_ratings_and_deletes_the_rows_they_replaced(tmp_path, rated):
    from ingest.warehouse.compact import compact

    early, late = _split(tmp_path, rated)
    db = tmp_path / "compacted"
    for folder in (late, early, SAMPLES / "heraldry"):  # appended, replaced, appended
        ingest([folder], db=db, jobs=1)
    before = stored(db)
    table = db / "tables" / "ratings"
    assert len(list(table.glob("*.parquet"))) == 3  # one of them replaced
    assert len(DeltaTable(str(table)).file_uris()) == 2
    done = compact(db, retain_hours=0)
    assert done.replaced >= 2
    assert [Path(f).name for f in DeltaTable(str(table)).file_uris()] == [
        f.name for f in table.glob("*.parquet")
    ]  # merged into one, and what it replaced deleted
    _same(stored(db), before)


def test_ratings_read_as_of_an_earlier_version_are_the_ones_it_had(tmp_path, rated, capsys):
    """A leaderboard quoted at a version reads the same after more matches arrive: whether
    they continued the ratings (the version's are the stored ones' first rows) or made the
    game be rated again from its start (then rated afresh over the version's matches)."""
    from ingest.analyses.ratings import of_game
    from ingest.warehouse import store
    from ingest.warehouse.warehouse import open_reader

    early, late = _split(tmp_path, rated)
    for order in ((early, late), (late, early)):
        db = tmp_path / f"as-of-{order[0].name}-first"
        ingest([order[0]], db=db, jobs=1)
        version = store.snapshot(db).version
        then = of_game(db, "knight-academy")
        assert main(["ratings", "knight-academy", "--db", str(db), "--json"]) == 0
        quoted = capsys.readouterr().out
        ingest([order[1]], db=db, jobs=1)
        assert not of_game(db, "knight-academy").equals(then)  # more matches, other ratings
        _same(of_game(db, "knight-academy", as_of=version), then)
        # the stored rows where the ratings went on, rated afresh where they started again
        kept = open_reader(db, version).execute("SELECT count(*) FROM ratings").fetchone()[0]
        assert kept == (then.height if order[0] == early else 0)
        args = ["ratings", "knight-academy", "--db", str(db), "--json", "--as-of", str(version)]
        assert main(args) == 0
        assert capsys.readouterr().out == quoted
    assert main([*args[:-1], "99"]) == 1
    assert "not 99" in capsys.readouterr().err


def test_ratings_streamed_a_few_seats_at_a_time_are_the_same(tmp_path, rated, monkeypatch):
    import ingest.analyses.ratings as ratings

    early, late = _split(tmp_path, rated)
    reference = tmp_path / "reference"
    ingest([early, late], db=reference, jobs=1)
    monkeypatch.setattr(ratings, "SLICE", 7)  # slices that cut matches in two
    for order in ((early, late), (late, early)):
        db = tmp_path / f"sliced-{order[0].name}-first"
        for folder in order:
            ingest([folder], db=db, jobs=1)
        _same(stored(db), stored(reference))


@pytest.mark.parametrize("layout", ["one file", "a folder a game"])
def test_an_older_squires_ratings_are_moved_into_the_ratings_table(rated, tmp_path, layout):
    copy = tmp_path / "older"
    shutil.copytree(rated, copy)
    before = stored(copy)
    shutil.rmtree(copy / "tables" / "ratings")
    if layout == "one file":  # as squire kept the history first
        before.write_parquet(copy / "ratings.parquet")
    else:  # then a folder a game, a file an ingest
        for game in before["game"].unique():
            mine = before.filter(pl.col("game") == game)
            (copy / "ratings" / game).mkdir(parents=True)
            mine.head(3).write_parquet(copy / "ratings" / game / "000001.parquet")
            mine.slice(3).write_parquet(copy / "ratings" / game / "000002.parquet")
    _same(stored(copy), before)  # read as it is
    ingest([SAMPLES / "paladins"], db=copy, jobs=1)  # nothing new
    assert not (copy / "ratings.parquet").exists() and not (copy / "ratings").exists()
    _same(stored(copy), before)
    assert pl.read_delta(str(copy / "tables" / "ratings")).height == before.height


def test_the_bots_come_out_in_the_order_of_their_strength(rated):
    history = stored(rated)
    for game in ("knight-academy", "heraldry", "paladins", "albus-academy"):
        board = leaderboard(history, game).filter(pl.col("kind") == "bot")
        bots = {row["name"]: row for row in board.iter_rows(named=True)}
        assert bots["greedy"]["low"] > bots["random"]["high"], game  # apart, not only ahead
    assert "Gawain" not in set(history["name"])  # a neutral seat is nobody's


def test_ratings_json_lists_the_people_then_the_bots_each_by_rating(rated, capsys):
    assert main(["ratings", "knight-academy", "--db", str(rated), "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows and all(
        set(r) == {"name", "kind", "rating", "low", "high", "matches", "provisional"} | {"win_rate"}
        for r in rows
    )
    kinds = [r["kind"] for r in rows]
    assert kinds == sorted(kinds, key=["player", "bot"].index)  # people first, never mixed
    for kind in ("player", "bot"):
        ratings = [r["rating"] for r in rows if r["kind"] == kind]
        assert ratings == sorted(ratings, reverse=True), kind
    for r in rows:
        assert r["low"] == pytest.approx(r["rating"] - Z * (r["high"] - r["rating"]) / Z)
        assert r["provisional"] == (r["matches"] < PROVISIONAL)
        assert r["kind"] in ("player", "bot")
    humans = {r["name"] for r in rows if r["kind"] == "player"}
    assert {"Ann", "Cid"} <= humans  # the worked examples' people
    assert main(["ratings", "heraldry", "--db", str(rated)]) == 0
    text = capsys.readouterr().out
    assert "greedy" in text and "provisional" in text
    assert text.index("people") < text.index("Ann") < text.index("bots") < text.index("greedy")


def _kinds(*matches: list[tuple[str, str, int]]) -> pl.DataFrame:
    """Matches as (name, kind, rank) seats, played an hour apart."""
    rows = [
        ("g", f"m{i}", WHEN.replace(hour=i), name, kind, rank, rank == 1)
        for i, seats in enumerate(matches)
        for name, kind, rank in seats
    ]
    return _seats().vstack(pl.DataFrame(rows, schema=_seats().schema, orient="row"))


def test_a_person_who_shares_a_bots_name_is_rated_apart_from_it():
    # A person called random beats the bot random twice: she rises, it falls, neither is the
    # other's rating, and each is counted a match at a time.
    history = rate(
        _kinds(
            [("random", "player", 1), ("random", "bot", 2)],
            [("random", "player", 1), ("random", "bot", 2), ("Bob", "player", 3)],
        )
    )
    board = leaderboard(history, "g")
    rows = {(r["kind"], r["name"]): r for r in board.iter_rows(named=True)}
    assert set(rows) == {("player", "random"), ("bot", "random"), ("player", "Bob")}
    assert rows[("player", "random")]["rating"] > MU > rows[("bot", "random")]["rating"]
    assert rows[("player", "random")]["matches"] == rows[("bot", "random")]["matches"] == 2
    assert (
        rows[("player", "random")]["win_rate"] == 1.0 and rows[("bot", "random")]["win_rate"] == 0
    )
    assert board["kind"].to_list() == ["player", "player", "bot"]  # people first


def test_a_warehouse_that_rated_a_person_and_a_bot_of_one_name_as_one_is_rated_again(tmp_path):
    """An older squire rated by name alone: a person and a bot who shared one shared a rating.
    The next ingest finds the history chained across the two kinds and rates the game again."""
    import ingest.analyses.ratings as ratings
    from ingest.warehouse.warehouse import open_reader

    db = tmp_path / "shared-name"
    ingest([ROOT / "tests" / "heraldry" / "logs", SAMPLES / "heraldry"], db=db, jobs=1)
    history = stored(db)
    person = history.filter(pl.col("kind") == "player")["name"][0]
    # the bot's rows renamed after her: their ratings before no longer follow their own
    older = history.with_columns(
        pl.when(pl.col("kind") == "bot").then(pl.lit(person)).otherwise("name").alias("name")
    )
    write_deltalake(str(db / "tables" / "ratings"), older.to_arrow().cast(ratings.SCHEMA),
                    mode="overwrite", predicate="game = 'heraldry'")  # fmt: skip
    con = open_reader(db)
    assert {g for (g,) in con.sql(ratings.RATED_AS_ONE).fetchall()} == {"heraldry"}
    ratings.refresh(db)
    assert (
        stored(db)
        .filter(pl.col("game") == "heraldry")
        .sort(history.columns)
        .equals(history.filter(pl.col("game") == "heraldry").sort(history.columns))
    )
    assert not open_reader(db).sql(ratings.RATED_AS_ONE).fetchall()  # and not again


def test_ratings_of_a_warehouse_without_stored_ratings_are_rated_on_the_spot(rated, tmp_path):
    copy = tmp_path / "older"
    shutil.copytree(rated, copy)
    shutil.rmtree(copy / "tables" / "ratings")  # as a squire before ratings left it
    assert main(["ratings", "paladins", "--db", str(copy), "--json"]) == 0


def test_rating_a_slice_at_a_time_changes_nothing(rated, monkeypatch):
    import ingest.analyses.ratings as ratings
    from ingest.warehouse.warehouse import open_reader

    seats = ratings._seats(open_reader(rated), "g.game = 'paladins'")
    whole = rate(seats)
    monkeypatch.setattr(ratings, "SLICE", 7)  # slices that cut matches in two
    assert rate(seats).equals(whole)


def test_an_ingest_with_nothing_new_still_rates_what_a_killed_one_left_unrated(rated, tmp_path):
    copy = tmp_path / "killed"
    shutil.copytree(rated, copy)
    before = stored(copy)
    shutil.rmtree(copy / "tables" / "ratings")  # killed after its commits, before its ratings
    summary = ingest([SAMPLES / "paladins"], db=copy, jobs=1)
    assert summary.ingested == 0 and summary.present > 0
    _same(stored(copy), before)


def test_the_pages_stored_leaderboard_is_the_one_reckoned_from_the_history(rated):
    """The win rates page reckons the leaderboard where the ratings are stored (SQL), not
    from millions of rows in memory: the same table."""
    from dashboards.ratings import LEADERBOARD
    from ingest.analyses.ratings import rank
    from ingest.warehouse.warehouse import open_reader

    history = stored(rated)
    con = open_reader(rated)
    for game in ("knight-academy", "heraldry", "paladins", "albus-academy"):
        found = rank(con.sql(LEADERBOARD, params={"game": game}).pl())
        expected = leaderboard(history, game)
        assert len(found) > 2 and found.equals(expected), game
    con.close()


def test_a_reader_skips_the_ratings_being_written(rated, tmp_path):
    from ingest.warehouse.warehouse import open_reader

    copy = tmp_path / "writing"
    shutil.copytree(rated, copy)
    before = stored(copy)
    # a file of a write killed before its commit: half written, and named by no commit
    (copy / "tables" / "ratings" / "part-00001-killed.parquet").write_bytes(b"PAR1")
    _same(stored(copy), before)
    (count,) = open_reader(copy).execute("SELECT count(*) FROM ratings").fetchall()[0]
    assert count == before.height
