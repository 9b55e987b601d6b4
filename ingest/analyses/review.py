"""`squire review`: a match replayed with each seat's chance to win after every step, and the
turning points, the steps that moved a chance most (the model is ingest.analyses.outlook's)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import duckdb
import msgspec
import polars as pl

from ingest.analyses.outlook import Facts, Model, fit, predict, turning_points
from ingest.files.read import rebuilt
from ingest.warehouse import store
from ingest.warehouse.fact_rows import fact_rows
from ingest.warehouse.location import Place, place, write_whole
from ingest.warehouse.selection import Selection
from ingest.warehouse.warehouse import open_reader
from replay.errors import one_line
from replay.facts import ScoreChanged
from replay.log import Final
from replay.replayer import Match, Outcome, Step, replay, start, steps

# Fewer stored matches than this fit nothing a reader should trust.
LEAST_MATCHES = 30
# The most recent matches a fit reads: more change the weights by less than the noise.
FIT_MATCHES = 2000


# Each game's fitted model, kept in the warehouse by every ingest: a fit reads the latest
# 2,000 matches (about a second and a half), which the viewer's first match would wait for.
MODELS = "models"
REFIT = 1.1  # the growth in complete matches that has a game's model fitted again


class Kept(msgspec.Struct, frozen=True, kw_only=True):
    complete: int  # the game's complete matches when it was fitted
    model: Model
    # the warehouse's version it was fitted on (None: kept by a squire that did not say)
    version: int | None = None


class NotEnoughMatches(Exception):
    """The warehouse holds too few complete matches of a game to fit its model."""


@dataclass(frozen=True)
class Review:
    game_id: str
    method: str
    timeline: list[tuple[int, dict[str, float]]]  # (step, player → chance), step 0 first
    turning_points: list[dict[str, Any]]  # step, player, before, after, what

    def to_json(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "timeline": [{"step": s, "p": p} for s, p in self.timeline],
            "turning_points": self.turning_points,
            "method": self.method,
        }


def stored_facts(
    con: duckdb.DuckDBPyConnection, game: str, limit: int = FIT_MATCHES, source: str | None = None
) -> Facts:
    """The facts of the game's most recent complete matches, as outlook reads them: the matches
    played (people's and bots'), or those of `source` (Selection.source)."""
    where, params = Selection(game=game, source=source).where()
    ids = con.sql(
        f"""SELECT g.game_id, g.event_count FROM games g WHERE {where}
        ORDER BY g.played_at DESC, g.game_id LIMIT $limit""",
        params={**params, "limit": limit},
    ).pl()
    listed = ids["game_id"].to_list()
    # The range lets the reader skip row groups by their game_id statistics; the list says
    # which of the ids in it.
    chosen = {"low": min(listed, default=""), "high": max(listed, default=""), "ids": listed}
    only = "WHERE game_id BETWEEN $low AND $high AND game_id IN (SELECT unnest($ids))"

    def read(columns: str, table: str) -> pl.DataFrame:
        frame: pl.DataFrame = con.sql(f"SELECT {columns} FROM {table} {only}", params=chosen).pl()
        return frame

    return Facts(
        lengths=ids,
        seats=read("game_id, player, neutral, position, won", "seats"),
        scores=read("game_id, event_index, player, points", "score_events"),
        tracks=read("game_id, event_index, player, track, progress_after", "track_moves"),
        resources=read("game_id, event_index, player, resource, delta", "resource_changes"),
    )


def fit_stored(
    db: Place, game: str, source: str | None = None, as_of: int | datetime | None = None
) -> Model:
    con = open_reader(db, as_of)
    try:
        facts = stored_facts(con, game, source=source)
    finally:
        con.close()
    if facts.lengths.height < LEAST_MATCHES:
        which = f" of --source {source}" if source else ""
        raise NotEnoughMatches(
            f"who was winning is estimated from stored matches: {game} needs at least "
            f"{LEAST_MATCHES} complete ones{which} in the warehouse, it holds "
            f"{facts.lengths.height}"
        )
    return fit(facts, game)


def _kept(db: Place, game: str, path: Place | None = None) -> Kept | None:
    path = path or place(db) / MODELS / f"{game}.json"
    try:
        return msgspec.json.decode(path.read_bytes(), type=Kept)
    except (FileNotFoundError, msgspec.DecodeError, msgspec.ValidationError):
        return None  # none kept yet, or by another version of squire: fitted again


def refresh_models(db: Place, reader: duckdb.DuckDBPyConnection | None = None) -> None:
    """Fit again the model of each game whose complete matches grew by a tenth since its
    model was kept, or fell (the caller holds the warehouse's lock): a fit costs an ingest
    about a second and a half and half a GiB, and a few more matches move it by little.
    `reader`: the caller's reader of the warehouse (default: one of its own)."""
    con = open_reader(db) if reader is None else reader
    try:
        counts = con.sql(  # the matches played: an experiment's rules are not the game's
            "SELECT game, sum(matches)::BIGINT FROM summary_matches "
            "WHERE experiment IS NULL GROUP BY game"
        ).fetchall()
        (version,) = con.sql("SELECT max(version) FROM batches").fetchall()[0]
        for game, complete in counts:
            kept = _kept(db, game)
            if complete < LEAST_MATCHES or (
                kept is not None and kept.complete <= complete < kept.complete * REFIT
            ):
                continue
            model = fit(stored_facts(con, game), game)
            kept_now = msgspec.json.encode(Kept(complete=complete, model=model, version=version))
            # each fit kept by its version too, so that a version read again is read with
            # the model it was read with then
            write_whole(place(db) / MODELS / game / f"{version:06d}.json", kept_now)
            write_whole(place(db) / MODELS / f"{game}.json", kept_now)  # the old or the new
    finally:
        if reader is None:
            con.close()


def model_of(db: Place, game: str, as_of: int | datetime | None = None) -> Model:
    """The game's model as the last ingest kept it, or fitted now (a warehouse from before
    models were kept); NotEnoughMatches when too few matches are stored. At `as_of` (an
    earlier version, or time): the model kept last at or before it, or, where none was kept
    by its version (an older squire's), fitted on the matches of that version."""
    if as_of is not None and store.exists(db):
        version = store.snapshot(db, as_of)
        if version.earlier:
            fits = place(db) / MODELS / game
            kept_by = sorted(
                (int(f.stem), f)
                for f in (fits.glob("*.json") if fits.exists() else [])
                if f.stem.isdigit() and int(f.stem) <= version.version
            )
            then = _kept(db, game, kept_by[-1][1]) if kept_by else None
            return then.model if then is not None else fit_stored(db, game, as_of=as_of)
    kept = _kept(db, game)
    return kept.model if kept is not None else fit_stored(db, game)


def stored_log(db: Place, game_id: str, as_of: int | datetime | None = None) -> bytes | None:
    """A stored match's log, rebuilt from its header and event lines as written (at `as_of`:
    as the warehouse held it then)."""
    con = open_reader(db, as_of)
    try:
        head = con.sql(
            "SELECT header FROM games WHERE game_id = $id", params={"id": game_id}
        ).fetchall()
        if not head:
            return None
        payloads = con.sql(
            "SELECT payload FROM events WHERE game_id = $id ORDER BY event_index",
            params={"id": game_id},
        ).fetchall()
    finally:
        con.close()
    return rebuilt(head[0][0], [p for (p,) in payloads])


def replayed_facts(outcome: Outcome) -> Facts:
    """One replayed match's facts in the warehouse's shape."""
    match = outcome.match
    header, players = match.header, match.header.players
    game_id = header.game_id
    rows = fact_rows(game_id, players, outcome.steps)  # as an ingest stores them
    scores = [(g, i, who, points) for g, i, _, who, _, points in rows["score_events"]]
    tracks = [(g, i, who, t, after) for g, i, _, who, t, _, after, _ in rows["track_moves"]]
    resources = [(g, i, who, r, d) for g, i, _, who, r, d, _ in rows["resource_changes"]]
    neutral = getattr(header, "neutral", None)
    first = players.index(header.start_player)
    result = match.game.result(outcome.state) if match.game.is_over(outcome.state) else None
    seats = pl.DataFrame(
        {
            "game_id": [game_id] * len(players),
            "player": list(players),
            "neutral": [p == neutral for p in players],
            "position": [(seat - first) % len(players) for seat in range(len(players))],
            "won": [bool(result and seat in result.winners) for seat in range(len(players))],
        }
    )

    def frame(rows: Sequence[tuple[Any, ...]], columns: dict[str, Any]) -> pl.DataFrame:
        return pl.DataFrame(list(rows), schema=columns, orient="row")

    return Facts(
        seats=seats,
        lengths=pl.DataFrame({"game_id": [game_id], "event_count": [len(outcome.steps)]}),
        scores=frame(
            scores,
            {
                "game_id": pl.String,
                "event_index": pl.Int64,
                "player": pl.String,
                "points": pl.Int64,
            },
        ),
        tracks=frame(
            tracks,
            {
                "game_id": pl.String,
                "event_index": pl.Int64,
                "player": pl.String,
                "track": pl.String,
                "progress_after": pl.Int64,
            },
        ),
        resources=frame(
            resources,
            {
                "game_id": pl.String,
                "event_index": pl.Int64,
                "player": pl.String,
                "resource": pl.String,
                "delta": pl.Int64,
            },
        ),
    )


def event_text(event: Any) -> str:
    """An event in a line: its player, its kind and its other fields."""
    if isinstance(event, Final):  # where a log's last run ends, the game's end scoring
        return "final scoring"
    raw = msgspec.to_builtins(event)
    kind = raw.pop("kind", "")
    who = raw.pop("player", None)
    fields = " ".join(f"{k}={v}" for k, v in raw.items() if v not in (None, [], {}))
    return " ".join(part for part in (who, kind, fields) if part)


def _what(step: Step, players: Sequence[str]) -> str:
    """The event, and the points it scored by player (a round's scoring, say)."""
    scored: dict[str, int] = {}
    for fact in step.facts:
        if isinstance(fact, ScoreChanged):
            who = players[fact.seat]
            scored[who] = scored.get(who, 0) + fact.points
    text = event_text(step.event)
    if any(scored.values()):
        text += " (" + ", ".join(f"{who} {p:+d}" for who, p in scored.items() if p) + ")"
    return text


def over_at(match: Match) -> int | None:
    """The step after which the engine says the game is over (0: before any event), or None
    for a log that stops before it ends."""
    game = match.game
    state = start(match)
    if game.is_over(state):
        return 0
    for step in steps(match, state):
        if game.is_over(state):
            return step.index
    return None


def review(match: Match, model: Model, outcome: Outcome | None = None) -> Review:
    """Each step's chances; at the end of a complete match, the result's: 1 for the winner,
    winners sharing a tie the rules leave standing."""
    outcome = outcome or replay(match)
    facts = replayed_facts(outcome)
    steps = pl.DataFrame(
        {
            "game_id": [match.header.game_id] * (len(outcome.steps) + 1),
            "step": list(range(len(outcome.steps) + 1)),
        }
    )
    chances = predict(model, facts, steps)
    timeline: dict[int, dict[str, float]] = {}
    for step, player, p in chances.select("step", "player", "p").iter_rows():
        timeline.setdefault(step, {})[player] = p
    game = match.game
    over = over_at(match)
    if over is not None:
        # From the event that ends the game the chances are its result: the scoring still to
        # come (a closing claim, end bonuses the engine adds at the close) changes nothing.
        winners = game.result(outcome.state).winners
        names = [match.header.players[seat] for seat in winners]
        for step, seats in timeline.items():
            if step >= over:
                timeline[step] = {who: (1 / len(names) if who in names else 0.0) for who in seats}
    ordered = [(s, {k: round(v, 4) for k, v in timeline[s].items()}) for s in sorted(timeline)]
    what = {step.index: _what(step, match.header.players) for step in outcome.steps}
    return Review(
        game_id=match.header.game_id,
        method=model.method,
        timeline=ordered,
        turning_points=[
            {"step": s, "player": who, "before": b, "after": a, "what": what[s]}
            for s, who, b, a in turning_points(ordered)
        ],
    )


def review_text(reviewed: Review, outcome: Outcome) -> str:
    """The turning points, then the chances at the end of each round."""

    def chances(p: dict[str, float]) -> str:
        return "  ".join(f"{one_line(who)} {share:.0%}" for who, share in p.items())

    # Names and ids come from the log: escaped, so that none can forge a line of this text.
    lines = [f"{one_line(reviewed.game_id)}: {reviewed.method}", "turning points:"]
    lines += [
        f"  step {t['step']}: {one_line(t['what'])} — {one_line(t['player'])} "
        f"{t['before']:.0%} → {t['after']:.0%}"
        for t in reviewed.turning_points
    ] or ["  none moved a chance by 5 points"]
    ends: dict[int, int] = {}  # round → its last step
    for step in outcome.steps:
        ends[step.round] = step.index
    at = dict(reviewed.timeline)
    if not outcome.steps:
        lines.append(f"the log holds no events: at the start, {chances(at[0])}")
        return "\n".join(lines)
    lines.append("after each round:")
    lines += [f"  round {r} (step {s}): {chances(at[s])}" for r, s in ends.items() if s in at]
    if not outcome.result.complete:
        lines.append(
            f"the log stops after event {len(outcome.steps)}, before the game ends: the "
            "chances are as they stood there"
        )
    return "\n".join(lines)
