"""Ratings: how strong each player and each bot is, with how sure we are, per game.

The model is Weng and Lin's Bayesian approximation of the Plackett–Luce model (openskill's
`PlackettLuce`, as `plackett_luce` writes it out): each name has a skill estimate `mu` and an
uncertainty `sigma`, and every complete match updates its seats' estimates from the order
they finished in, 2 to 5 seats, a tie where the game leaves one (the stored `rank`, after
Heraldry's tie-break). A seat played by a bot is the bot's (`greedy`, `random`, …), any other
seat its player's; a neutral seat (Gawain, KA-19) is nobody's. A rating is of a kind and a name:
a person who calls herself `greedy` is not the bot. Where one of them holds several seats of a
match (two greedy bots), each seat is rated against the others and it takes the sum of their
changes.

Matches are rated in the order they were played (`played_at`, then `game_id`), so the ratings
are the same whatever order the logs were ingested in. The warehouse keeps every match's
ratings before and after it in the Delta table `tables/ratings` (one row per match and name),
which polars and DuckDB read as they read the other tables. An ingest whose new matches of a
game were all played after every stored one continues from the stored ratings and appends
their rows; otherwise that game is rated again from its first match, and its rows replace the
game's in one commit (readers see the old rows or the new, never a mix). Either way the seats
stream from the warehouse a slice at a time: memory stays that of a slice and of one rating
per name, whatever the number of matches.
"""

from __future__ import annotations

import math
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from deltalake import write_deltalake

from ingest.analyses import plackett_luce
from ingest.warehouse import store
from ingest.warehouse.location import Place, S3Path, arrow_path, register_with
from ingest.warehouse.selection import Selection
from ingest.warehouse.store import HOOKS, LOG, folder
from ingest.warehouse.warehouse import (
    RATINGS,
    announce,
    older_rating_files,
    open_reader,
    rating_files,
)

# A name with fewer rated matches than this is shown as provisional.
PROVISIONAL = 10
# The interval shown: mu ± Z·sigma, 95% of a normal belief.
Z = 1.959964
FOLDER = "ratings"  # where an older squire kept the ratings, beside the tables
# Seats turned into Python objects at a time, and what DuckDB may hold while it joins and
# sorts a game's seats (it spills to the temp folder beyond that). Rating a million matches
# from the start took the process 505 MiB above its own at 200,000 and 256 MB, 313 MiB at
# these, in the same 48 s; 64 MB is too little for the join.
SLICE = 50_000
SORT_MEMORY = "128MB"

HISTORY: dict[str, pl.DataType] = {
    "game": pl.String(),
    "game_id": pl.String(),
    "played_at": pl.Datetime("us", "UTC"),
    "name": pl.String(),
    "kind": pl.String(),
    "seats": pl.Int64(),
    "wins": pl.Int64(),
    "mu_before": pl.Float64(),
    "sigma_before": pl.Float64(),
    "mu": pl.Float64(),
    "sigma": pl.Float64(),
}

# Every complete match's seats that can win, by the name rated: the bot, or the player.
SEATS = """
SELECT g.game, g.game_id, coalesce(g.played_at, g.ingested_at) AS played_at,
       coalesce(s.agent, s.player) AS name,
       CASE WHEN s.agent IS NULL THEN 'player' ELSE 'bot' END AS kind,
       s.rank, s.won
FROM games g JOIN seats s USING (game_id)
WHERE g.complete AND NOT s.neutral AND {where}
ORDER BY played_at, g.game_id, s.seat
"""


# Who a rating is of, within a game: (kind, name), kind `player` or `bot`.
Rated = tuple[str, str, str]  # (game, kind, name)


def rate(
    seats: pl.DataFrame, start: dict[Rated, tuple[float, float]] | None = None
) -> pl.DataFrame:
    """Rate the matches of `seats` (SEATS' columns, in its order) from `start` ((mu, sigma) by
    (game, kind, name); the fresh start at the model's prior): their history rows."""
    slices = (seats.slice(offset, SLICE) for offset in range(0, seats.height, SLICE))
    done = [pl.DataFrame(rows, schema=HISTORY, orient="row") for rows in _rated(slices, start)]
    return pl.concat(done) if done else pl.DataFrame(schema=HISTORY)


def _rated(
    slices: Iterable[pl.DataFrame], start: dict[Rated, tuple[float, float]] | None
) -> Iterator[list[tuple[Any, ...]]]:
    """The history rows of the matches in `slices` (SEATS' rows in order, a match possibly
    split between two slices), a slice at a time."""
    state = dict(start or {})
    match: list[tuple[Any, ...]] = []
    names = ("game", "game_id", "played_at", "name", "kind", "rank", "won")
    # Plain lists (a frame per match costs ~0.4 ms), a slice at a time: only a slice's seats
    # are Python objects at once.
    for part in slices:
        rows: list[tuple[Any, ...]] = []
        for seat in zip(*(part[c].to_list() for c in names), strict=True):
            if match and seat[1] != match[0][1]:
                rows.extend(_rate_match(match, state))
                match = []
            match.append(seat)
        yield rows
    if match:
        yield _rate_match(match, state)


def _rate_match(
    match: list[tuple[Any, ...]], state: dict[Rated, tuple[float, float]]
) -> list[tuple[Any, ...]]:
    """One match's seats (game, game_id, played_at, name, kind, rank, won): its rows."""
    game, game_id, played_at = match[0][0], match[0][1], match[0][2]
    whose = [(seat[4], seat[3]) for seat in match]  # (kind, name)
    if len(whose) < 2:
        return []
    prior = (plackett_luce.MU, plackett_luce.SIGMA)
    before = {w: state.get((game, *w), prior) for w in whose}
    after = plackett_luce.rate([before[w] for w in whose], [float(seat[5]) for seat in match])
    # (kind, name) → (the summed change of mu, sigma's factor)
    moved: dict[tuple[str, str], tuple[float, float]] = {}
    for w, (rated_mu, rated_sigma) in zip(whose, after, strict=True):
        mu, sigma = before[w]
        shift, factor = moved.get(w, (0.0, 1.0))
        moved[w] = (shift + rated_mu - mu, factor * rated_sigma / sigma)
    out = []
    for (kind, name), (shift, factor) in moved.items():
        mu, sigma = before[(kind, name)]
        state[(game, kind, name)] = (mu + shift, sigma * factor)
        mine = [seat for seat in match if (seat[4], seat[3]) == (kind, name)]
        wins = sum(1 for seat in mine if seat[6])
        out.append(
            (game, game_id, played_at, name, kind, len(mine), wins, mu, sigma,
             mu + shift, sigma * factor)
        )  # fmt: skip
    return out


SCHEMA = pl.DataFrame(schema=HISTORY).to_arrow().schema  # HISTORY's, as Parquet is written


def stored(db: Place) -> pl.DataFrame:
    found = rating_files(db)
    if not found:
        return pl.DataFrame(schema=HISTORY)
    frames = []
    for f in found:
        filesystem, where = arrow_path(f)
        frame = pl.from_arrow(pq.read_table(where, filesystem=filesystem))
        assert isinstance(frame, pl.DataFrame)
        frames.append(frame)
    return pl.concat(frames).sort("game", "played_at", "game_id")


def _seats(con: duckdb.DuckDBPyConnection, where: str, **params: Any) -> pl.DataFrame:
    seats: pl.DataFrame = con.sql(SEATS.replace("{where}", where), params=params or None).pl()
    return seats.with_columns(pl.col("played_at").dt.convert_time_zone("UTC"))


def _streamed(con: duckdb.DuckDBPyConnection, where: str, **params: Any) -> Iterator[pl.DataFrame]:
    """SEATS' rows a slice at a time, straight from the warehouse."""
    relation = con.sql(SEATS.replace("{where}", where), params=params or None)
    for batch in relation.to_arrow_reader(SLICE):
        frame = pl.from_arrow(batch)
        assert isinstance(frame, pl.DataFrame)
        yield frame.with_columns(pl.col("played_at").dt.convert_time_zone("UTC"))


def _batches(rows: Iterable[list[tuple[Any, ...]]]) -> pa.RecordBatchReader:
    """The history rows as Arrow batches, pulled as a writer takes them."""

    def batches() -> Iterator[pa.RecordBatch]:
        for chunk in rows:
            if chunk:
                frame = pl.DataFrame(chunk, schema=HISTORY, orient="row").to_arrow()
                yield from frame.cast(SCHEMA).to_batches()

    return pa.RecordBatchReader.from_batches(SCHEMA, batches())


def _write(db: Place, rows: Iterable[list[tuple[Any, ...]]], game: str | None = None) -> None:
    """Append `rows` to the ratings' table (created by the first), or, with a `game`, put
    them in place of that game's rows: one commit either way, so readers see the rows before
    it or after it whole, on a folder as on S3."""
    table = str(folder(db, RATINGS))
    if game is None:
        write_deltalake(table, _batches(rows), mode="append", configuration=LOG,
                        post_commithook_properties=HOOKS)  # fmt: skip
        return
    quoted = game.replace("'", "''")
    write_deltalake(table, _batches(rows), mode="overwrite", predicate=f"game = '{quoted}'",
                    configuration=LOG, post_commithook_properties=HOOKS)  # fmt: skip


def migrate(db: Place) -> None:
    """An older squire's ratings, each game's files (or the single file of one older still),
    moved into the ratings' table in one commit, then deleted: a kill before the commit
    leaves them to move again, a kill after it leaves files no reader reads any more."""
    older = older_rating_files(db)
    if not older:
        return
    if store.latest_files(db, RATINGS) is None:
        con = duckdb.connect()
        if isinstance(db, S3Path):
            register_with(con)
        try:  # straight from file to table, unsorted (readers order the rows): millions of
            # rows at most, which a sort would hold
            listed = ", ".join("'" + str(f).replace("'", "''") + "'" for f in older)
            relation = con.sql(f"SELECT * FROM read_parquet([{listed}], union_by_name = true)")
            reader = relation.to_arrow_reader(SLICE)
            write_deltalake(str(folder(db, RATINGS)), _cast(reader), mode="overwrite",
                            configuration=LOG, post_commithook_properties=HOOKS)  # fmt: skip
        finally:
            con.close()
    for f in older:
        f.unlink(missing_ok=True)
    if not isinstance(db, S3Path):  # the games' folders, and what an older rating left there
        shutil.rmtree(Path(db) / FOLDER, ignore_errors=True)


def _cast(reader: pa.RecordBatchReader) -> pa.RecordBatchReader:
    return pa.RecordBatchReader.from_batches(
        SCHEMA, (batch.select(SCHEMA.names).cast(SCHEMA) for batch in reader)
    )


FRESH = """
SELECT g.game,
       min(struct_pack(played_at := coalesce(g.played_at, g.ingested_at), game_id := g.game_id))
FROM games g
WHERE g.complete AND g.experiment IS NULL AND g.game_id NOT IN (SELECT game_id FROM ratings)
GROUP BY g.game ORDER BY g.game
"""
# The matches rated: a game's played matches. An experiment's are designs under changed rules,
# not anyone's skill; a warehouse whose ratings counted them (an older squire's) is rated again.
PLAYED = "g.game = $game AND g.experiment IS NULL"
RATED_EXPERIMENTS = """
SELECT DISTINCT g.game FROM ratings r JOIN games g USING (game_id) WHERE g.experiment IS NOT NULL
"""
# A game where a person and a bot share a name, rated as one by an older squire: each row's
# rating before follows the one after its previous row of either kind, not of its own.
RATED_AS_ONE = f"""
WITH shared AS (
    SELECT game, name FROM ratings GROUP BY game, name HAVING count(DISTINCT kind) > 1
), chained AS (
    SELECT r.game, r.mu_before, lag(r.mu) OVER (
        PARTITION BY r.game, r.kind, r.name ORDER BY r.played_at, r.game_id
    ) AS previous
    FROM ratings r JOIN shared USING (game, name)
)
SELECT DISTINCT game FROM chained WHERE mu_before <> coalesce(previous, {plackett_luce.MU})
"""
LAST = "SELECT max(struct_pack(played_at, game_id)) FROM ratings WHERE game = $game"
CURRENT = """
SELECT kind, name, arg_max(mu, (played_at, game_id)), arg_max(sigma, (played_at, game_id))
FROM ratings WHERE game = $game GROUP BY kind, name
"""


def update(db: Place, con: duckdb.DuckDBPyConnection) -> None:
    """Bring the stored ratings up to the warehouse's complete matches (`con` reads it, its
    `ratings` view the stored ones); the caller holds the warehouse's lock. Only the matches
    not rated yet are read, unless a game must be rated again."""
    firsts = dict(con.sql(FRESH).fetchall())
    stale = {game for (game,) in con.sql(RATED_EXPERIMENTS).fetchall()}
    stale |= {game for (game,) in con.sql(RATED_AS_ONE).fetchall()}
    for game in sorted(set(firsts) | stale):
        first = firsts.get(game)
        (last,) = con.sql(LAST, params={"game": game}).fetchall()[0]
        if (
            first is not None
            and game not in stale
            and (
                last is None
                or (first["played_at"], first["game_id"]) > (last["played_at"], last["game_id"])
            )
        ):  # continue from the ratings as they stand, their rows appended
            start = {
                (game, kind, name): (mu, sigma)
                for kind, name, mu, sigma in con.sql(CURRENT, params={"game": game}).fetchall()
            }
            fresh = f"{PLAYED} AND g.game_id NOT IN (SELECT game_id FROM ratings)"
            _write(db, _rated(_streamed(con, fresh, game=game), start))
        else:  # a match played before a rated one: rate the game again from its start
            _write(db, _rated(_streamed(con, PLAYED, game=game), {}), game=game)
    if firsts or stale:  # written after the last commit: a reader may have opened without them
        announce(db)


HISTORY_OF = "SELECT * FROM ratings WHERE game = $game ORDER BY played_at, game_id"


def of_game(
    db: Place, game: str, source: str | None = None, as_of: int | datetime | None = None
) -> pl.DataFrame:
    """The game's history as stored, or, where the stored ratings lag the warehouse (it was
    written by a squire without ratings), rated afresh in memory; rated afresh too over the
    matches of one `source` alone (Selection.source: a narrower field rates differently).
    At `as_of` (an earlier version, or time), as the ratings stood then: the stored rows of
    the matches it held, where those are the game's first, else rated afresh over them."""
    con = open_reader(db, as_of)
    try:
        if source is not None:
            where, params = Selection(game=game, source=source).where()
            return rate(_seats(con, where, **params))
        seats = _seats(con, PLAYED, game=game)
        history: pl.DataFrame = con.sql(HISTORY_OF, params={"game": game}).pl()
    finally:
        con.close()
    history = history.with_columns(pl.col("played_at").dt.convert_time_zone("UTC")).cast(
        pl.Schema(HISTORY)
    )
    if set(seats["game_id"].unique()) <= set(history["game_id"].unique()):
        return history
    return rate(seats)


def refresh(db: Place, con: duckdb.DuckDBPyConnection | None = None) -> None:
    """`update` from the warehouse's committed matches (the caller holds its lock), on `con`, a
    reader opened after `migrate` (default: one of its own)."""
    if con is None:
        migrate(db)
        own = open_reader(db)
        try:
            refresh(db, own)
        finally:
            own.close()
        return
    # Rating a game from its start sorts all its seats (four million at a million matches):
    # bounded here, DuckDB spills the sort to disk instead of doubling the ingest's memory.
    con.execute(f"SET memory_limit = '{SORT_MEMORY}'")
    con.execute(f"SET temp_directory = '{tempfile.gettempdir().replace(chr(39), chr(39) * 2)}'")
    try:
        update(db, con)
    finally:
        con.execute("RESET memory_limit")


def current(history: pl.DataFrame) -> dict[Rated, tuple[float, float]]:
    """Each rating after its last match."""
    last = history.group_by("game", "kind", "name", maintain_order=True).last()
    return {
        (g, k, n): (mu, sigma)
        for g, k, n, mu, sigma in last.select("game", "kind", "name", "mu", "sigma").iter_rows()
    }


def leaderboard(history: pl.DataFrame, game: str) -> pl.DataFrame:
    """One row a rated person or bot of the game: rating, its 95% interval, matches, win rate
    (of its matches: those in which one of its seats won, a bot may hold several),
    provisional; in `rank`'s order."""
    mine = history.filter(pl.col("game") == game)
    return (
        mine.group_by("kind", "name")
        .agg(
            pl.col("mu").last().alias("rating"),
            pl.col("sigma").last(),
            pl.len().alias("matches"),
            ((pl.col("wins") > 0).sum() / pl.len()).alias("win_rate"),
        )
        .pipe(rank)
    )


# People before bots: they are not ranked against each other, whatever their numbers (a bot
# plays thousands of matches to a person's few).
KINDS = ("player", "bot")


def rank(board: pl.DataFrame) -> pl.DataFrame:
    """A leaderboard's last rating of each person and bot in order: people first, then bots,
    each by rating (the skill estimate, mu), highest first. Not by the interval's low end,
    which put a bot sure of a low rating above a person rated higher on few matches."""
    return (
        board.with_columns(
            (pl.col("rating") - Z * pl.col("sigma")).alias("low"),
            (pl.col("rating") + Z * pl.col("sigma")).alias("high"),
            (pl.col("matches") < PROVISIONAL).alias("provisional"),
            pl.col("kind").replace_strict(KINDS, range(len(KINDS)), default=len(KINDS)).alias("k"),
        )
        .sort(["k", "rating", "name"], descending=[False, True, False])
        .select("name", "kind", "rating", "low", "high", "matches", "win_rate", "provisional")
    )


def win_chances(ratings: list[tuple[float, float]]) -> list[float]:
    """Each seat's chance to come first, by the Plackett–Luce model the ratings are fitted
    under: exp(mu / c) shared out, c² the sum of every seat's sigma² and beta²."""
    c = math.sqrt(sum(sigma**2 + plackett_luce.BETA**2 for _, sigma in ratings))
    top = max(mu for mu, _ in ratings)
    weights = [math.exp((mu - top) / c) for mu, _ in ratings]
    total = sum(weights)
    return [w / total for w in weights]
