"""`squire dashboard`: the Streamlit app served on this machine, the process becoming it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ingest.cli import arguments as arg
from replay.errors import one_line


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("dashboard", help="serve the dashboards alone")
    serving_arguments(p)
    p.set_defaults(run=run)


def serving_arguments(p: argparse.ArgumentParser) -> None:
    """Where the dashboards are served from and what they read (`up` and `dashboard`)."""
    from ingest.club.serving import Budgets

    arg.db_argument(p)
    p.add_argument("--port", type=arg.between(1, 65535), default=8501)
    p.add_argument("--address", default="127.0.0.1")
    p.add_argument(
        "--open",
        action="store_true",
        help="serve beyond this machine with no sign-in needed: anyone who reaches the port "
        "may upload, record and run analyses",
    )
    p.add_argument(
        "--host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name browsers reach the server by, besides this machine's own (repeatable)",
    )
    club = p.add_argument_group("a club's budgets (each visitor's, on the server)")
    budgets = Budgets()
    for flag, most, default, said in (
        ("--heavy-per-hour", 10_000, budgets.heavy_per_hour,
         "move analyses, rescores and experiments a member may start an hour"),
        ("--uploads-per-hour", 10_000, budgets.uploads_per_hour,
         "uploads a member may make an hour"),
        ("--drafts", 10_000, budgets.drafts, "open drafts a member may have on the Record page"),
        ("--upload-workers", 64, budgets.upload_workers, "uploads ingested at once"),
    ):  # fmt: skip
        club.add_argument(flag, type=arg.between(1, most), default=default, help=said)


APP = Path(__file__).resolve().parents[2] / "dashboards" / "serve.py"


def cannot_serve(args: argparse.Namespace) -> bool:
    """Whether the dashboards cannot listen where asked (an address this machine does not
    have, a port another program holds), said in one line before anything is started."""
    refusal = _unservable(args)
    if refusal:
        print(f"squire {args.command}: {one_line(refusal)}", file=sys.stderr)
    return refusal is not None


def _unservable(args: argparse.Namespace) -> str | None:
    import socket

    from ingest.club import accounts
    from ingest.club.serving import is_loopback
    from ingest.warehouse.warehouse import DEFAULT_DB

    try:
        family, kind, proto, _, where = socket.getaddrinfo(
            args.address, args.port, type=socket.SOCK_STREAM
        )[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(where)
    except OSError as err:
        return f"cannot serve on {args.address}:{args.port}: {err.strerror or err}"
    if (
        not is_loopback(args.address)
        and not args.open
        and not accounts.users(args.db or DEFAULT_DB)
    ):
        return (
            f"{args.address} is reachable from other machines and this warehouse has no "
            "accounts: add one first (`squire users add NAME --role admin`), or pass --open "
            "to serve it open to anyone"
        )
    return None


def run(args: argparse.Namespace) -> int:
    """Serve the Streamlit app on this machine; the URL is printed first."""
    import os

    if cannot_serve(args):
        return 2

    from ingest.club.serving import Budgets, Serving, hosts_for
    from ingest.pipeline.upload import STREAMLIT_MB, stopped
    from ingest.warehouse.warehouse import DEFAULT_DB

    serving = Serving(
        address=args.address,
        port=args.port,
        open=args.open,
        hosts=hosts_for(args.address, tuple(args.host)),
        budgets=Budgets(
            args.heavy_per_hour, args.uploads_per_hour, args.drafts, args.upload_workers
        ),
    )
    env = dict(os.environ)
    env["SQUIRE_SERVING"] = serving.environment()
    if args.db:
        env["SQUIRE_WAREHOUSE"] = str(args.db.resolve() if isinstance(args.db, Path) else args.db)
    url = f"http://{args.address}:{args.port}"
    cut_short = stopped(args.db or DEFAULT_DB)
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
        # the names the server was started for: the websocket of a page reached by another
        # name (DNS rebinding) is refused, as dashboards/guard.py refuses its requests
        *(f"--server.allowedHosts={host}" for host in serving.hosts),
        "--server.enableXsrfProtection=true",
    ]
    # Streamlit takes this process's place, so a signal that stops it (Ctrl-C, a service
    # manager's SIGTERM) reaches Streamlit itself and leaves nothing running behind.
    os.chdir(APP.parents[1])
    os.execve(sys.executable, command, env)
