"""`squire review`: who was winning after each step of one match, and its turning points."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ingest.cli import arguments as arg
from ingest.cli.report import escaped, json_line
from ingest.files.catalogues import Library
from ingest.files.read import read_log
from ingest.warehouse.location import Place
from replay.errors import ReplayError, one_line
from replay.replayer import open_log, replay


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
        "review", help="who was winning after each step of a match, and its turning points"
    )
    p.add_argument("match", metavar="LOG|GAME_ID", help="a log file, or a stored match's game_id")
    arg.db_argument(
        p, "the warehouse whose matches the estimate is fitted on, where a game_id is looked up"
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    p.add_argument(
        "--analyse",
        action="store_true",
        help="judge every decision that had a choice: the win chance the move played gave up "
        "against the best alternative, flagged as an inaccuracy, mistake or blunder (5, 10, 15 "
        "points) where its 95%% interval clears it; each seat's accuracy",
    )
    p.add_argument(
        "--samples", type=int, default=16, help="paired playouts a move analysed (default 16)"
    )
    p.add_argument(
        "--policy",
        default="greedy",
        help="the game's bot that plays the playouts out (default greedy)",
    )
    p.add_argument(
        "--to-the-end",
        action="store_true",
        help="--analyse: play every playout to the end of the match. By default they are cut "
        "at the round's end (a few rounds on where the game says so) and scored by the "
        "warehouse's fitted estimate of the chances, two to five times faster "
        "(docs/review.md); without a fitted estimate (too few stored matches) they are played "
        "to the end",
    )
    p.add_argument(
        "--jobs", type=arg.jobs, help="--analyse: local worker processes (default: all cores)"
    )
    p.add_argument(
        "--cluster", metavar="ADDR", help="--analyse: a Dask scheduler, e.g. tcp://host:8786"
    )
    arg.as_of_argument(p)
    arg.source_argument(
        p,
        "the estimate fitted on the matches of people, of bots, or of the stored experiments "
        "(of one) alone",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Who was winning after each step of one match, and its turning points."""
    from ingest.analyses.review import (
        NotEnoughMatches,
        fit_stored,
        model_of,
        review,
        review_text,
        stored_log,
    )
    from ingest.warehouse.warehouse import DEFAULT_DB

    db = args.db or DEFAULT_DB
    target = args.match
    if args.analyse and args.as_of is not None:
        print("squire review: --analyse judges the match as the warehouse holds it now, not "
              "--as-of an earlier version", file=sys.stderr)  # fmt: skip
        return 2
    try:
        if Path(target).is_file():
            data = read_log(target)
        else:
            stored = stored_log(db, target, args.as_of)
            if stored is None:
                print(f"squire review: {one_line(target)} is neither a log file nor a match "
                      f"stored in {db}", file=sys.stderr)  # fmt: skip
                return 2
            data = stored
        match = open_log(data, target, catalogues=Library(db))
        outcome = replay(match)
        if args.analyse:
            return _analysed(data, match, db, args)
        if args.source:  # fitted on those matches alone, not the model the ingest keeps
            model = fit_stored(db, match.game.name, args.source, args.as_of)
        else:
            model = model_of(db, match.game.name, args.as_of)
    except ReplayError as err:
        print(str(err), file=sys.stderr)
        return 1
    except NotEnoughMatches as err:
        print(f"squire review: {err}", file=sys.stderr)
        return 2
    except ValueError as err:  # a version the warehouse never had
        print(f"squire review: {err}", file=sys.stderr)
        return 1
    reviewed = review(match, model, outcome)
    if args.json:
        print(json_line(reviewed.to_json()))
    else:
        print(review_text(reviewed, outcome))
    return 0


def _analysed(data: bytes, match: Any, db: Place, args: argparse.Namespace) -> int:
    """The decisions judged: the flagged ones a line each, then each seat's accuracy and
    what chance moved. Kept in the warehouse when it holds this very match."""
    from ingest.analyses import moves
    from ingest.analyses.review import NotEnoughMatches, model_of, review, stored_log
    from ingest.cli.progress import progress_bar
    from ingest.pipeline.executor import ANALYSIS_PRELOAD, make_executor, start_early

    sim = match.game.simulation
    if sim is None or args.policy not in sim.bots:
        known = ", ".join(sim.bots) if sim else "none"
        print(f"squire review: --policy {args.policy} is not a bot of {match.game.name} "
              f"({known})", file=sys.stderr)  # fmt: skip
        return 2
    if args.samples < 2:
        print("squire review: --samples must be at least 2", file=sys.stderr)
        return 2
    game_id = match.header.game_id
    stored = stored_log(db, game_id)
    kept = stored is not None and moves.fingerprint(
        open_log(stored, game_id, catalogues=Library(db))
    ) == moves.fingerprint(match)
    try:
        first = review(match, model_of(db, match.game.name)).timeline[0][1]
        prior = [first.get(p, 0.0) for p in match.header.players]
    except NotEnoughMatches:
        prior = None  # no estimate of the chances: an even start, playouts to the end
    start_early(args.jobs, args.cluster, ANALYSIS_PRELOAD)
    executor = make_executor(args.jobs, args.cluster, ANALYSIS_PRELOAD)
    try:
        total = moves.choices(match)
        with moves.running(db), progress_bar(total, "analysing", unit="decisions") as advance:
            last = 0

            def note(done: int, total: int) -> None:
                nonlocal last
                advance(done - last)
                last = done

            analysis = moves.analyse_log(
                data, args.match, db, executor, samples=args.samples, policy=args.policy,
                prior=prior, cut=prior is not None and not args.to_the_end, on_progress=note,
            )  # fmt: skip
    except moves.Busy as err:
        print(f"squire review: {err}", file=sys.stderr)
        return 2
    finally:
        executor.close()
    if kept:
        moves.save(db, analysis)
    if args.json:
        print(json_line(analysis.to_json()))
        return 0
    print(_analysis_text(analysis, kept))
    return 0


def _through(rounds: int) -> str:
    return "to the round's end" if rounds == 1 else f"through the ends of {rounds} rounds"


def _analysis_text(analysis: Any, kept: bool) -> str:
    players = analysis.players
    lines = [
        f"{one_line(analysis.game_id)}: {len(analysis.decisions)} decisions with a choice "
        f"judged, {analysis.samples} paired playouts a move ({analysis.policy} bots play them "
        + (f"{_through(analysis.rounds)}, scored by the fitted estimate" if analysis.cut else "out")
        + f"), in {analysis.seconds:.0f} s"
        + ("; kept in the warehouse" if kept else "")
    ]
    for j in analysis.decisions:
        if j.label:
            lines.append(
                f"  step {j.index:>4}  {escaped(players[j.seat]):<12} {j.label:<10} "
                f"−{j.loss:.1f} points (95% {j.low:.1f} to {j.high:.1f}): "
                f"{_said(j.played)}; better {_said(j.best)}"
            )
    lines.append("  seat          accuracy  by chance       by choices      chance's share")
    for seat, player in enumerate(players):
        value = analysis.accuracy[seat]
        shown = "—" if value is None else f"{value:.1f}"
        moved = analysis.swings[seat] if analysis.swings else None
        luck = "—" if moved is None else f"{moved.chance:+.1f} points"
        play = "—" if moved is None else f"{moved.choices:+.1f} points"
        share = "—" if moved is None or moved.share is None else f"{moved.share:.0%}"
        lines.append(f"  {escaped(player):<12} {shown:>9}  {luck:>12}  {play:>13}  {share:>14}")
    return "\n".join(lines)


def _said(event: dict[str, Any]) -> str:
    fields = {k: v for k, v in event.items() if k not in ("kind", "player")}
    kind = event.get("kind", "")
    return f"{kind} " + " ".join(f"{k}={v}" for k, v in fields.items() if v not in (None, []))
