"""The `squire` command line: one console script, a subcommand per job."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import msgspec

from ingest import arguments as arg
from ingest.catalogues import Library
from ingest.read import find_logs, read_log
from ingest.report import escaped, json_line, outcome_json, outcome_text
from ingest.simulate import Written
from replay.errors import ReplayError, internal, one_line
from replay.limits import MAX_LINES
from replay.log import Final
from replay.registry import GAMES
from replay.replayer import open_log, replay, state_at


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay each log; print its result (or its state after --step N); rejections to stderr,
    one line each, and every other log is still replayed whatever fails on one."""
    status = 0
    try:
        paths = list(find_logs(args.logs))
    except FileNotFoundError as err:
        print(f"squire replay: {one_line(str(err))}", file=sys.stderr)
        return 2
    for path in paths:
        try:
            code, text = _replay_one(str(path), args)
        except ReplayError as err:
            code, text = 1, str(err)
        except Exception as err:  # a bug: this log's rejection, never the end of the run
            code, text = 1, str(internal(str(path), 1, err))
        # Printed outside the try: a closed pipe ends the run, it is no fault of this log.
        print(text, file=sys.stdout if code == 0 else sys.stderr)
        status = max(status, code)
    return status


def _replay_one(path: str, args: argparse.Namespace) -> tuple[int, str]:
    """`squire replay` of one log: its exit status (2 for a step it does not have) and what
    to print (on standard output for 0, else standard error)."""
    match = open_log(read_log(path), path, catalogues=Library())
    if args.step is None:
        outcome = replay(match, keep_steps=False)
        return 0, json_line(outcome_json(outcome)) if args.json else outcome_text(outcome)
    if args.step > len(match.lines):
        return 2, f"{one_line(path)}: the log has {len(match.lines)} events, no step {args.step}"
    view = match.game.snapshot(state_at(match, args.step))
    view = {"game_id": match.header.game_id, "step": args.step, **view}
    if args.json:
        return 0, json_line(view)
    return 0, (
        f"{one_line(path)}: {one_line(match.header.game_id)} after event {args.step}\n"
        + match.game.render(escaped(view))
    )


def cmd_simulate(args: argparse.Namespace) -> int:
    """Play matches with bots and write one log per match, with a progress bar."""
    import time

    from ingest.executor import make_executor, start_early, worker_count

    start_early(args.jobs, args.cluster)  # before the imports below, to overlap them
    from ingest.progress import progress_bar
    from ingest.simulate import Spec, check, parse_settings, simulate_chunk, tasks, write_log
    from replay.errors import RulesError

    try:
        spec = Spec(
            game=args.game,
            players=args.players,
            bots=tuple(args.bots.split(",")),
            seed=args.seed,
            ruleset=args.ruleset,
            rules=parse_settings(args.set),
            played_from=args.played_from,
            played_every=args.played_every,
            variant=args.variant,
        )
        check(spec)
    except (ValueError, RulesError) as err:
        print(f"squire simulate: {err}", file=sys.stderr)
        return 2
    if args.played_from is not None:
        try:
            args.played_from + timedelta(minutes=args.played_every * (args.n - 1))
        except OverflowError:
            print(
                f"squire simulate: match {args.n} would be played after the year 9999: an "
                "earlier --played-from, a shorter --played-every or fewer matches",
                file=sys.stderr,
            )
            return 2
    out = Path(args.out or Path("simulated") / args.game)
    out.mkdir(parents=True, exist_ok=True)
    wins: dict[str, list[int]] = {}
    started = time.perf_counter()
    executor = make_executor(args.jobs, args.cluster)
    try:
        work = list(tasks(spec, args.n, worker_count(executor)))
        with progress_bar(args.n, f"simulate {args.game}") as advance:
            for written in executor.map_unordered(simulate_chunk, work):
                for match in written:
                    write_log(out, match)
                    _count_wins(match, wins)
                advance(len(written))
    finally:
        executor.close()
    seconds = time.perf_counter() - started
    print(f"wrote {args.n} logs to {out} in {seconds:.1f} s ({args.n / seconds:,.0f} matches/s)")
    for bot, (seats, won) in sorted(wins.items()):
        print(f"  {bot:<8} {seats:>7} seats  {won:>7} wins  {won / seats:6.1%}")
    return 0


def _count_wins(match: Written, wins: dict[str, list[int]]) -> None:
    """Win share by bot, by the game's own winners (a shared win counts for each)."""
    for player, bot in match.agents.items():
        row = wins.setdefault(bot, [0, 0])
        row[0] += 1
        row[1] += player in match.winners


def cmd_experiment(args: argparse.Namespace) -> int:
    """Paired simulated matches of two rule sets, batch by batch, until the difference of the
    metric is known within `--precision` (or `--max` matches an arm are played)."""
    from ingest.executor import chunked, make_executor, start_early, worker_count
    from ingest.experiment import Arms, Pair, metric_names, run
    from ingest.simulate import check, parse_settings
    from replay.errors import RulesError

    game = GAMES[args.game]
    if args.list_metrics:
        print("\n".join(metric_names(game)))
        return 0
    if not args.metric:
        print(
            "squire experiment: --metric NAME is needed (--list-metrics lists them)",
            file=sys.stderr,
        )
        return 2
    start_early(args.jobs, args.cluster)
    try:
        arms = Arms(
            game=args.game,
            players=args.players,
            bots=tuple(args.bots.split(",")),
            seed=args.seed,
            a=parse_settings(args.a),
            b=parse_settings(args.b),
            metric=args.metric,
            ruleset=args.ruleset,
            variant=args.variant,
            paired=not args.unpaired,
        )
        from ingest.experiment import measure

        measure(game, arms.metric)
        for side in ("a", "b"):
            check(arms.spec(side))
    except (ValueError, RulesError) as err:
        print(f"squire experiment: {err}", file=sys.stderr)
        return 2
    from ingest.experiment import Store, play_and_stage
    from ingest.pipeline import derive
    from ingest.warehouse import DEFAULT_DB, WarehouseBusy, Writer

    db = Path(args.db) if args.db else DEFAULT_DB
    try:
        writer = Writer(db)  # before any worker stages: it clears what a killed run left
    except WarehouseBusy as err:
        print(f"squire experiment: {err}", file=sys.stderr)
        return 1
    stamp = datetime.now(UTC)
    store = Store(db, stamp, Path(args.out) if args.out else None)
    executor = make_executor(args.jobs, args.cluster)
    workers = worker_count(executor)

    def pairs_of(work: list[tuple[Arms, int, int, bool]]) -> Iterator[list[Pair]]:
        """Each worker's pairs, its matches committed to the warehouse as they come."""
        tasks = [(one, start, stop, store) for one, start, stop, _ in work]
        for pairs, staged in executor.map_unordered(play_and_stage, tasks):
            for part in staged:
                done = writer.commit(
                    part.folder, part.shas, part.paths, part.repeats, part.rejects, stamp
                )
                if done.rejects:  # the engine refusing its own simulation: a bug
                    raise RuntimeError(str(done.rejects[0]))
            yield pairs

    try:
        reports = run(
            arms,
            args.precision,
            args.max,
            args.batch,
            pairs_of,
            lambda count: chunked(count, workers, largest=100),
        )
        for report in reports:
            if "stopped" in report:
                report["stored_in"] = str(db)
            if args.json:
                print(json.dumps(report), flush=True)
            else:
                print(_experiment_line(report), flush=True)
        executor.close()  # as an ingest's: the workers stop before the ratings and the fit
        derive(writer)
    finally:
        executor.close()
        writer.close()
    return 0


def _mean(x: float | None) -> str:
    return "—" if x is None else f"{x:.4f}"


def _experiment_line(report: dict[str, Any]) -> str:
    def pct(x: float | None) -> str:
        return "—" if x is None else f"{x:+.4f}"

    if "stopped" in report:
        ci = report["ci95"] or [None, None]
        saved = report["variance_saved"]
        return (
            f"{report['metric']}: A − B = {pct(report['difference'])}, 95% interval "
            f"[{pct(ci[0])}, {pct(ci[1])}] after {report['matches']} matches an arm "
            f"(A {_mean(report['means']['a'])}, B {_mean(report['means']['b'])}); stopped at "
            f"{report['stopped']}"
            + (f"; pairing saved {saved:.0%} of the variance" if saved is not None else "")
            + f"\n  stored as experiment {report['experiment']} in {report['stored_in']}"
        )
    ci = report.get("ci95") or [None, None]
    line = (
        f"  batch {report['batch']}: {report['matches']} matches an arm, A − B = "
        f"{pct(report.get('difference'))} [{pct(ci[0])}, {pct(ci[1])}]"
    )
    if "estimated_matches" in report:
        line += f"; about {report['estimated_matches']} matches an arm will be needed"
    return line


def cmd_rescore(args: argparse.Namespace) -> int:
    """Re-score stored matches under `--set` changes; status 2 when the changes do not fit."""
    from ingest.rescore import match_json, report_text, rescore_stored
    from ingest.selection import Selection
    from ingest.simulate import parse_settings
    from ingest.warehouse import DEFAULT_DB, exists
    from replay.errors import RulesError

    db = Path(args.db) if args.db else DEFAULT_DB
    if not exists(db):
        return arg.no_warehouse("squire rescore", db)
    selection = Selection(
        game=args.game,
        variants=args.variant,
        rulesets=args.ruleset,
        players=args.players,
        since=args.since,
        until=args.until,
        source=args.source,
    )
    try:
        changes = parse_settings(args.set)
        game = GAMES[args.game]
        game.resolve(None, changes)  # LOG-3 before any match: a name or value that cannot be
        report = rescore_stored(db, selection, changes, args.finish_with, args.seed)
    except (ValueError, RulesError) as err:
        print(f"squire rescore: {err}", file=sys.stderr)
        return 2
    refusal = report.refusal()
    if refusal:
        print(f"squire rescore: {refusal}", file=sys.stderr)
        return 2
    if args.json:
        for m in report.matches:
            print(json_line(match_json(m)))
        print(json_line(report.summary()))
    else:
        print(report_text(report))
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    """Who was winning after each step of one match, and its turning points."""
    from ingest.review import (
        NotEnoughMatches,
        fit_stored,
        model_of,
        review,
        review_text,
        stored_log,
    )
    from ingest.warehouse import DEFAULT_DB

    db = Path(args.db) if args.db else DEFAULT_DB
    target = args.match
    try:
        if Path(target).is_file():
            data = read_log(target)
        else:
            stored = stored_log(db, target)
            if stored is None:
                print(f"squire review: {one_line(target)} is neither a log file nor a match "
                      f"stored in {db}", file=sys.stderr)  # fmt: skip
                return 2
            data = stored
        match = open_log(data, target, catalogues=Library(db))
        outcome = replay(match)
        if args.source:  # fitted on those matches alone, not the model the ingest keeps
            model = fit_stored(db, match.game.name, args.source)
        else:
            model = model_of(db, match.game.name)
    except ReplayError as err:
        print(str(err), file=sys.stderr)
        return 1
    except NotEnoughMatches as err:
        print(f"squire review: {err}", file=sys.stderr)
        return 2
    reviewed = review(match, model, outcome)
    if args.json:
        print(json_line(reviewed.to_json()))
    else:
        print(review_text(reviewed, outcome))
    return 0


def cmd_ratings(args: argparse.Namespace) -> int:
    """The game's leaderboard: a line (or a JSON object) per rated name, surest best first."""
    from ingest.ratings import leaderboard, of_game
    from ingest.warehouse import DEFAULT_DB, exists

    db = Path(args.db) if args.db else DEFAULT_DB
    if not exists(db):
        return arg.no_warehouse("squire ratings", db)
    board = leaderboard(of_game(db, args.game, args.source), args.game)
    if args.json:
        for row in board.iter_rows(named=True):
            print(json_line(row))
        return 0
    if board.is_empty():
        which = f" of --source {args.source}" if args.source else ""
        print(f"no complete {args.game} match{which} is stored in {db}")
        return 0
    print(f"{'':>3} {'name':<16} {'kind':<6} {'rating':>7} {'95% interval':>15} "
          f"{'matches':>8} {'win rate':>9}")  # fmt: skip
    for i, row in enumerate(board.iter_rows(named=True), 1):
        mark = "  provisional" if row["provisional"] else ""
        print(
            f"{i:>3} {escaped(row['name']):<16} {row['kind']:<6} {row['rating']:7.2f} "
            f"{row['low']:7.2f}–{row['high']:<7.2f} {row['matches']:>8} "
            f"{row['win_rate']:9.1%}{mark}"
        )
    return 0


def cmd_compact(args: argparse.Namespace) -> int:
    """Merge the warehouse's small parts; status 2 when another compaction holds it."""
    from ingest.compact import compact
    from ingest.warehouse import DEFAULT_DB, WarehouseBusy, exists

    db = Path(args.db) if args.db else DEFAULT_DB
    if not exists(db):
        return arg.no_warehouse("squire compact", db)
    try:
        done = compact(db, args.target)
    except WarehouseBusy as err:
        print(f"squire compact: {err}", file=sys.stderr)
        return 2
    print(done.line())
    return 0


def cmd_ingest(args: argparse.Namespace) -> int:
    """Store logs in the warehouse; list what was rejected; status 1 if anything was."""
    from ingest.executor import INGEST_PRELOAD, start_early

    # Before the imports below, so that the workers' imports overlap them.
    start_early(args.jobs, args.cluster, INGEST_PRELOAD)
    from ingest.log_list import LogList
    from ingest.pipeline import ingest_logs
    from ingest.progress import progress_bar
    from ingest.warehouse import DEFAULT_DB, WarehouseBusy

    db = Path(args.db) if args.db else DEFAULT_DB
    try:
        paths = LogList(find_logs(args.paths))
    except FileNotFoundError as err:
        print(f"squire ingest: {err}", file=sys.stderr)
        return 2
    try:
        with progress_bar(len(paths), "ingest") as advance:
            summary = ingest_logs(
                paths, db=db, jobs=args.jobs, cluster=args.cluster, on_progress=advance
            )
    except WarehouseBusy as err:
        print(f"squire ingest: {err}", file=sys.stderr)
        return 2
    except Exception as err:  # the warehouse cannot be written, a worker died: not a log
        print(
            f"squire ingest: stopped ({type(err).__name__}: {one_line(str(err))}); the "
            "parts committed before stay, and running it again goes on",
            file=sys.stderr,
        )
        return 2
    head, *details = summary.lines()
    print(head)
    for line in details:
        print(line, file=sys.stderr)
    print(f"warehouse: {db}")
    return 0 if summary.ok else 1


SEATS = arg.between(1, arg.MAX_SEATS)
SAMPLES = Path(__file__).resolve().parents[1] / "data" / "samples"
APP = Path(__file__).resolve().parents[1] / "dashboards" / "app.py"


def _cannot_serve(args: argparse.Namespace) -> bool:
    """Whether the dashboards cannot listen where asked (an address this machine does not
    have, a port another program holds), said in one line before anything is started."""
    refusal = _unservable(args)
    if refusal:
        print(f"squire {args.command}: {one_line(refusal)}", file=sys.stderr)
    return refusal is not None


def _unservable(args: argparse.Namespace) -> str | None:
    import socket

    try:
        family, kind, proto, _, where = socket.getaddrinfo(
            args.address, args.port, type=socket.SOCK_STREAM
        )[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(where)
    except OSError as err:
        return f"cannot serve on {args.address}:{args.port}: {err.strerror or err}"
    return None


def cmd_dashboard(args: argparse.Namespace) -> int:
    """Serve the Streamlit app on this machine; the URL is printed first."""
    import os

    if _cannot_serve(args):
        return 2

    from ingest.upload import STREAMLIT_MB, stopped
    from ingest.warehouse import DEFAULT_DB

    env = dict(os.environ)
    if args.db:
        env["SQUIRE_WAREHOUSE"] = str(Path(args.db).resolve())
    url = f"http://{args.address}:{args.port}"
    cut_short = stopped(Path(args.db) if args.db else DEFAULT_DB)
    if cut_short:
        left = sum(len(upload.unprocessed) for upload in cut_short)
        print(
            f"squire: {len(cut_short)} upload(s) were cut short when the server last stopped: "
            f"{left} of their files were neither stored nor rejected; the Upload page lists "
            "them and ingests them again",
            flush=True,
        )
    print(f"squire: dashboards at {url}  (Ctrl-C stops them)", flush=True)
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(APP),
        f"--server.port={args.port}",
        f"--server.address={args.address}",
        "--server.headless=true",
        "--browser.gatherUsageStats=false",
        "--server.fileWatcherType=none",
        f"--server.maxUploadSize={STREAMLIT_MB}",
    ]
    # Streamlit takes this process's place, so a signal that stops it (Ctrl-C, a service
    # manager's SIGTERM) reaches Streamlit itself and leaves nothing running behind.
    os.chdir(APP.parents[1])
    os.execve(sys.executable, command, env)


def cmd_up(args: argparse.Namespace) -> int:
    """The main job: make sure the warehouse holds the bundled sample matches (all of them on
    a fresh clone; those a newer release added, on an older warehouse), then serve the
    dashboards."""
    from ingest.pipeline import ingest_logs
    from ingest.progress import progress_bar
    from ingest.warehouse import DEFAULT_DB, open_reader

    if _cannot_serve(args):  # before the samples' ingest, not after it
        return 2
    db = Path(args.db) if args.db else DEFAULT_DB
    stored = {row[0] for row in open_reader(db).execute("SELECT game_id FROM games").fetchall()}
    # A sample's file is named after its game_id, so the missing ones are found unread.
    paths = [
        p
        for p in find_logs([str(SAMPLES)])
        if Path(p).name.removesuffix(".gz").removesuffix(".jsonl") not in stored
    ]
    if paths:
        print(f"squire: ingesting {len(paths)} bundled sample matches into {db}")
        with progress_bar(len(paths), "ingest samples") as advance:
            summary = ingest_logs(paths, db=db, on_progress=advance)
        print(summary.lines()[0])
    return cmd_dashboard(args)


def cmd_schema(args: argparse.Namespace) -> int:
    game = GAMES[args.game]
    schema = msgspec.json.schema(game.header_type | game.event_type | Final)
    schema["title"] = f"squire-log/1 — {game.name}"
    print(json.dumps(schema, indent=2, ensure_ascii=False))
    return 0


def cmd_catalogues(args: argparse.Namespace) -> int:
    """List the catalogues squire finds, each with its check; or check the files given."""
    from ingest.catalogues import PARSERS, catalogue_bytes, describe, scan
    from ingest.warehouse import DEFAULT_DB
    from replay.catalogues import CatalogueError

    warehouse = Path(args.db) if args.db else DEFAULT_DB

    if args.check:
        status = 0
        parse = PARSERS[args.game]
        for path in args.check:
            try:
                found = parse(catalogue_bytes(path), path)
            except CatalogueError as err:  # named by its file, or by the entry in it
                print(
                    one_line(str(err) if err.where == path else f"{path}: {err}"), file=sys.stderr
                )
                status = 1
                continue
            print(
                f"{path}: {found.name} {found.version} ok ({_counts(found)}); sha256 {found.sha256}"
            )
        return status
    for game in [args.game] if args.game else sorted(PARSERS):
        print(f"{game}:")
        seen: set[tuple[str, str]] = set()
        for found in scan(game, warehouse):
            line = describe(found, PARSERS[game])
            if not isinstance(found, CatalogueError):
                pair = (found.name, found.version)
                if pair in seen:  # a published pair never changes: the first one found stays
                    line += f"  (not used: {found.name} {found.version} is found before it)"
                seen.add(pair)
            print("  " + line)
    return 0


def _counts(catalogue: Any) -> str:
    """What a catalogue holds, kind by kind, whatever its game."""
    if hasattr(catalogue, "entries"):
        return ", ".join(f"{len(v)} {k}" for k, v in catalogue.entries.items())
    return (
        f"{sum(t.count for t in catalogue.tiles.values())} tiles of "
        f"{len(catalogue.tiles)} kinds, {len(catalogue.homework)} homework, "
        f"{len(catalogue.corners)} corners"
    )


def _timestamp(text: str) -> datetime:
    try:
        stamp = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an RFC 3339 time: {text!r}") from None
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)


def parser() -> argparse.ArgumentParser:
    top = arg.Parser(prog="squire", description="Replay and analyse recorded board-game matches.")
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("replay", help="replay logs: results, or the state after a step")
    p.add_argument("logs", nargs="+", metavar="LOG", help="log files, folders or globs")
    p.add_argument("--json", action="store_true", help="one JSON object per log on its own line")
    p.add_argument(
        "--step", type=arg.between(0, MAX_LINES), metavar="N", help="the whole state after event N"
    )
    p.set_defaults(run=cmd_replay)

    p = sub.add_parser("simulate", help="play matches with bots and write their logs")
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument(
        "-n",
        type=arg.between(1, arg.MAX_MATCHES, "a file a match"),
        default=100,
        help="how many matches (default 100)",
    )
    p.add_argument("--players", type=SEATS, default=4, help="seats at each table (default 4)")
    p.add_argument(
        "--bots",
        default="random",
        help="bots to seat, comma-separated (cycled "
        "over the seats, then shuffled), e.g. greedy,random",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--ruleset", help="a named ruleset (default: the game's standard one)")
    p.add_argument(
        "--variant", help="a variant the player count does not imply, e.g. lancelot (KA-20)"
    )
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="change a ruleset number, e.g. --set 'quest_prizes=[20,10,4]'",
    )
    p.add_argument(
        "--played-from",
        type=_timestamp,
        metavar="TIME",
        help="stamp match i as played i spacings after this RFC 3339 time",
    )
    p.add_argument(
        "--played-every",
        type=arg.between(1, 60 * 24 * 365),
        default=60,
        metavar="MINUTES",
        help="the spacing of --played-from (default 60 minutes)",
    )
    p.add_argument("--out", type=arg.folder, help="folder for the logs (default simulated/GAME)")
    p.add_argument("--jobs", type=arg.jobs, help="local worker processes (default: all cores)")
    p.add_argument("--cluster", metavar="ADDR", help="a Dask scheduler, e.g. tcp://host:8786")
    p.set_defaults(run=cmd_simulate)

    p = sub.add_parser(
        "rescore", help="replay a game's stored matches under changed rules: what changes"
    )
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a changed ruleset number, e.g. --set 'quest_prizes=[12,8,4]' (none: nothing changes)",
    )
    p.add_argument("--db", type=arg.folder, help="warehouse folder (default data/warehouse)")
    p.add_argument("--variant", action="append", default=[], help="only this variant (repeatable)")
    p.add_argument("--ruleset", action="append", default=[], help="only this ruleset (repeatable)")
    p.add_argument("--players", action="append", type=SEATS, default=[], help="only this count")
    p.add_argument("--since", type=date.fromisoformat, help="played on or after (YYYY-MM-DD)")
    p.add_argument("--until", type=date.fromisoformat, help="played on or before (YYYY-MM-DD)")
    _source_argument(p, "only matches of people, of bots, or of the stored experiments (of one)")
    p.add_argument(
        "--finish-with",
        metavar="BOT",
        help="where the changed rules refuse a match, let this bot finish it (an estimate)",
    )
    p.add_argument("--seed", type=int, default=0, help="the finishing bots' chance (default 0)")
    p.add_argument("--json", action="store_true", help="one JSON object per match, then a summary")
    p.set_defaults(run=cmd_rescore)

    p = sub.add_parser("ratings", help="a game's players and bots rated, with their uncertainty")
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--db", type=arg.folder, help="warehouse folder (default data/warehouse)")
    p.add_argument("--json", action="store_true", help="one JSON object per rated name")
    _source_argument(
        p, "rated over the matches of people, of bots, or of the stored experiments (of one) alone"
    )
    p.set_defaults(run=cmd_ratings)

    p = sub.add_parser(
        "compact", help="merge the warehouse's small parts into large ones (readers keep reading)"
    )
    p.add_argument("--db", type=arg.folder, help="warehouse folder (default data/warehouse)")
    p.add_argument(
        "--target",
        type=arg.between(1, 10_000_000),
        default=50_000,
        help="matches a merged part holds (default 50000)",
    )
    p.set_defaults(run=cmd_compact)

    p = sub.add_parser(
        "review", help="who was winning after each step of a match, and its turning points"
    )
    p.add_argument("match", metavar="LOG|GAME_ID", help="a log file, or a stored match's game_id")
    p.add_argument(
        "--db",
        type=arg.folder,
        help="warehouse folder (default data/warehouse): the matches the estimate is fitted on, "
        "and where a game_id is looked up",
    )
    p.add_argument("--json", action="store_true", help="one JSON object")
    _source_argument(
        p,
        "the estimate fitted on the matches of people, of bots, or of the stored experiments "
        "(of one) alone",
    )
    p.set_defaults(run=cmd_review)

    p = sub.add_parser(
        "experiment", help="compare two rule sets on one question with paired simulated matches"
    )
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--a", nargs="*", default=[], metavar="KEY=VALUE", help="arm A's changes")
    p.add_argument("--b", nargs="*", default=[], metavar="KEY=VALUE", help="arm B's changes")
    p.add_argument("--metric", help="what to compare (--list-metrics lists them)")
    p.add_argument("--list-metrics", action="store_true", help="print every metric and stop")
    p.add_argument(
        "--precision",
        type=arg.positive_fraction,
        default=0.05,
        help="stop once the 95%% interval of A − B is narrower than this (default 0.05)",
    )
    p.add_argument(
        "--max",
        type=arg.between(2, arg.MAX_MATCHES),
        default=20000,
        help="most matches an arm (default 20000)",
    )
    p.add_argument(
        "--batch",
        type=arg.between(2, arg.MAX_BATCH, "a batch is played whole before its report"),
        default=500,
        help="matches an arm a batch (default 500)",
    )
    p.add_argument("--players", type=SEATS, default=4, help="seats at each table (default 4)")
    p.add_argument("--bots", default="greedy,random", help="bots to seat (default greedy,random)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--ruleset", help="the named ruleset both arms change (default: standard)")
    p.add_argument("--variant", help="a variant the player count does not imply")
    p.add_argument("--unpaired", action="store_true", help="independent arms, for comparison")
    p.add_argument(
        "--out", type=arg.folder, help="also keep both arms' logs in this folder (a/ and b/)"
    )
    p.add_argument(
        "--db", type=arg.folder, help="warehouse the matches go into (default data/warehouse)"
    )
    p.add_argument("--jobs", type=arg.jobs, help="local worker processes (default: all cores)")
    p.add_argument("--cluster", metavar="ADDR", help="a Dask scheduler, e.g. tcp://host:8786")
    p.add_argument("--json", action="store_true", help="one JSON object a batch, then the result")
    p.set_defaults(run=cmd_experiment)

    p = sub.add_parser("ingest", help="replay logs into the warehouse")
    p.add_argument("paths", nargs="+", metavar="PATH", help="log files, folders or globs")
    p.add_argument("--db", type=arg.folder, help="warehouse folder (default data/warehouse)")
    p.add_argument("--jobs", type=arg.jobs, help="local worker processes (default: all cores)")
    p.add_argument("--cluster", metavar="ADDR", help="a Dask scheduler, e.g. tcp://host:8786")
    p.set_defaults(run=cmd_ingest)

    for name, run, text in (
        ("up", cmd_up, "ingest the bundled samples the warehouse lacks, then serve the dashboards"),
        ("dashboard", cmd_dashboard, "serve the dashboards alone"),
    ):
        p = sub.add_parser(name, help=text)
        p.add_argument("--db", type=arg.folder, help="warehouse folder (default data/warehouse)")
        p.add_argument("--port", type=arg.between(1, 65535), default=8501)
        p.add_argument("--address", default="127.0.0.1")
        p.set_defaults(run=run)

    p = sub.add_parser(
        "catalogues",
        help="the component catalogues squire finds (shipped, "
        "kept by the warehouse, then in the folders of SQUIRE_CATALOGUES), or "
        "check your own files",
    )
    p.add_argument("game", nargs="?", choices=["albus-academy", "paladins"])
    p.add_argument("--check", nargs="+", metavar="FILE", help="check these catalogue files")
    p.add_argument(
        "--db",
        type=arg.folder,
        help="the warehouse whose kept catalogues to list too (default data/warehouse)",
    )
    p.set_defaults(run=cmd_catalogues)

    p = sub.add_parser("schema", help="the JSON Schema of a game's log lines")
    p.add_argument("game", choices=sorted(GAMES))
    p.set_defaults(run=cmd_schema)
    return top


def _source_argument(p: argparse.ArgumentParser, what: str) -> None:
    """Where the matches read come from (Selection.source): the matches played by default."""
    p.add_argument(
        "--source",
        type=arg.source,
        metavar="human|bot|experiment[:ID]",
        help=f"{what}; experiments are left out otherwise",
    )


def main(argv: Sequence[str] | None = None) -> int:
    for stream in (sys.stdout, sys.stderr):  # a file name that is not UTF-8 still prints
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
