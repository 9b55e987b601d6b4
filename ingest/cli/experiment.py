"""`squire experiment`: two rule sets compared by paired simulated matches, batch by batch."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ingest.cli import arguments as arg
from replay.registry import GAMES


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser(
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
    p.add_argument("--players", type=arg.SEATS, default=4, help="seats at each table (default 4)")
    p.add_argument(
        "--bots",
        default="greedy,random",
        help="bots to seat (default greedy,random); search, search:400, search:250ms or "
        "search:400:greedy (its playouts by that bot) for the searching bot, and "
        "search:400:trust=none (or horizon=N, reward=margin) with a setting of its own",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--ruleset", help="the named ruleset both arms change (default: standard)")
    p.add_argument("--variant", help="a variant the player count does not imply")
    p.add_argument("--unpaired", action="store_true", help="independent arms, for comparison")
    p.add_argument(
        "--out", type=arg.folder, help="also keep both arms' logs in this folder (a/ and b/)"
    )
    arg.db_argument(p, "warehouse the matches go into")
    p.add_argument("--jobs", type=arg.jobs, help="local worker processes (default: all cores)")
    p.add_argument("--cluster", metavar="ADDR", help="a Dask scheduler, e.g. tcp://host:8786")
    p.add_argument("--json", action="store_true", help="one JSON object a batch, then the result")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Paired simulated matches of two rule sets, batch by batch, until the difference of the
    metric is known within `--precision` (or `--max` matches an arm are played)."""
    from ingest.pipeline.executor import chunked, make_executor, start_early, worker_count
    from ingest.simulation.experiment import Arms, Pair, metric_names, run
    from ingest.simulation.simulate import check, parse_settings
    from ingest.warehouse.location import S3Path, storage_environment
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
        from ingest.simulation.experiment import measure

        measure(game, arms.metric)
        for side in ("a", "b"):
            check(arms.spec(side))
    except (ValueError, RulesError) as err:
        print(f"squire experiment: {err}", file=sys.stderr)
        return 2
    from ingest.pipeline.pipeline import derive
    from ingest.simulation.experiment import Store, play_and_stage, record
    from ingest.warehouse.origin import EXPERIMENT, Origin
    from ingest.warehouse.warehouse import DEFAULT_DB, WarehouseBusy, Writer

    db = args.db or DEFAULT_DB
    try:
        # before any worker stages: it clears what a killed run left
        writer = Writer(db, made=Origin(EXPERIMENT, experiment=arms.id))
    except WarehouseBusy as err:
        print(f"squire experiment: {err}", file=sys.stderr)
        return 1
    stamp = datetime.now(UTC)
    storage = storage_environment() if isinstance(db, S3Path) else {}
    store = Store(db, stamp, Path(args.out) if args.out else None, storage)
    executor = make_executor(args.jobs, args.cluster)
    workers = worker_count(executor)

    def pairs_of(work: list[tuple[Arms, int, int, bool]]) -> Iterator[list[Pair]]:
        """Each worker's pairs, its matches committed to the warehouse as they come."""
        tasks = [(one, start, stop, store) for one, start, stop, _ in work]
        for pairs, staged in executor.map_unordered(play_and_stage, tasks):
            for part in staged:
                done = writer.commit(part.files, part.shas, part.paths, part.repeats,
                                     part.rejects, stamp, part.summaries)  # fmt: skip
                if done.rejects:  # the engine refusing its own simulation: a bug
                    raise RuntimeError(str(done.rejects[0]))
            writer.flush()
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
            # its matches are committed by now: the record never names matches not stored
            record(db, arms, report, args.precision, args.max)
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
