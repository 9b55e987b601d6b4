"""`squire simulate`: matches played by bots, written as logs, with a progress bar."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

from ingest.cli import arguments as arg
from ingest.simulation.simulate import Written
from replay.registry import GAMES


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("simulate", help="play matches with bots and write their logs")
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument(
        "-n",
        type=arg.between(1, arg.MAX_MATCHES, "a file a match"),
        default=100,
        help="how many matches (default 100)",
    )
    p.add_argument("--players", type=arg.SEATS, default=4, help="seats at each table (default 4)")
    p.add_argument(
        "--bots",
        default="random",
        help="bots to seat, comma-separated (cycled "
        "over the seats, then shuffled), e.g. greedy,random; every game also has search "
        "(ISMCTS), search:400 (playouts a decision) or search:250ms (time a decision), and "
        "search:400:greedy plays its playouts out by the greedy bot (by default, the bot "
        "docs/search.md names for the game); search:400:trust=none (or horizon=N, "
        "reward=margin) changes one of the game's search settings",
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
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Play matches with bots and write one log per match, with a progress bar."""
    import time

    from ingest.pipeline.executor import make_executor, start_early, worker_count

    start_early(args.jobs, args.cluster)  # before the imports below, to overlap them
    from ingest.cli.progress import progress_bar
    from ingest.simulation.simulate import (
        Spec,
        check,
        parse_settings,
        simulate_chunk,
        tasks,
        write_log,
    )
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


def _timestamp(text: str) -> datetime:
    try:
        stamp = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an RFC 3339 time: {text!r}") from None
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=UTC)
