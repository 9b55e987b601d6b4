"""`squire users`: the club's accounts (add, list, remove, role) and the invites that sign a
phone in (invite, invites, cancel), kept beside the warehouse (ingest.club.accounts). Each
command, done or refused, writes a line of the audit log (`squire audit` reads it)."""

from __future__ import annotations

import argparse
import getpass
import socket
import sys
from collections.abc import Callable
from typing import Any

from ingest.cli import arguments as arg
from ingest.cli.report import json_line
from replay.errors import one_line

ROLES = "viewer|member|admin"


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = commands.add_parser("users", help="the club's accounts and invites (docs/club.md)")
    jobs = p.add_subparsers(dest="job", required=True, metavar="JOB")

    def job(name: str, help: str, run: Callable[[argparse.Namespace], int]) -> Any:
        q = jobs.add_parser(name, help=help)
        arg.db_argument(q, "the warehouse the accounts are kept beside")
        q.set_defaults(run=run)
        return q

    q = job("add", "add an account; its password is asked for twice", add)
    q.add_argument("name")
    q.add_argument("--role", required=True, metavar=ROLES)
    q.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the password as one line of standard input instead",
    )
    q = job("list", "list the accounts", listed)
    q.add_argument("--json", action="store_true", help="one JSON object an account")
    q = job("remove", "remove an account and cancel its open invites", remove)
    q.add_argument("name")
    q = job("role", "give an account another role and cancel its open invites", role)
    q.add_argument("name")
    q.add_argument("role", metavar=ROLES)
    q = job("invite", "print a one-time link that signs a phone in", invite)
    q.add_argument("name")
    q.add_argument("--role", required=True, metavar=ROLES)
    q.add_argument(
        "--expires", default="24h", metavar="DURATION", help="how long it lasts (30m, 24h, 7d)"
    )
    q.add_argument("--address", default="127.0.0.1", help="the address `squire up` serves on")
    q.add_argument("--port", type=arg.between(1, 65535), default=8501)
    q = job("invites", "list the invites of the last 30 days and those still open", invites)
    q.add_argument("--json", action="store_true", help="one JSON object an invite")
    q = job("cancel", "cancel an invite (its link signs no one in)", cancel)
    q.add_argument("id")


def add(args: argparse.Namespace) -> int:
    from ingest.club import Refused, accounts
    from ingest.club.names import checked_name, checked_role

    what = {"name": args.name, "role": args.role}

    def done() -> str:
        # what can be refused at once is, before a password is typed for nothing
        name, _ = checked_name(args.name), checked_role(args.role)
        taken = accounts.user(_db(args), name)
        if taken is not None:
            raise Refused(f"{taken.name} is an account already")
        made = accounts.add(_db(args), name, args.role, _password(args.password_stdin))
        what["name"] = made.name
        return f"squire: {made.name} added, {_a(made.role)}"

    return _audited(args, "users.add", what, done)


def listed(args: argparse.Namespace) -> int:
    from ingest.club import accounts

    def done() -> str:
        found = accounts.users(_db(args))
        if args.json:
            return "\n".join(
                json_line(
                    {
                        "name": u.name,
                        "role": u.role,
                        "generation": u.generation,
                        "added_at": u.added_at.isoformat(),
                    }
                )
                for u in found
            )
        if not found:
            return "no accounts (`squire users add NAME --role admin` adds the first)"
        width = max(len(u.name) for u in found)
        return "\n".join(
            f"{one_line(u.name):<{width}}  {u.role:<6}  added {u.added_at:%Y-%m-%d %H:%M} UTC"
            for u in found
        )

    return _audited(args, "users.list", {}, done)


def remove(args: argparse.Namespace) -> int:
    from ingest.club import accounts

    what = {"name": args.name}

    def done() -> str:
        gone = accounts.remove(_db(args), args.name)
        what.update(name=gone.name, role=gone.role)
        return f"squire: {gone.name} removed, and their open invites cancelled"

    return _audited(args, "users.remove", what, done)


def role(args: argparse.Namespace) -> int:
    from ingest.club import accounts

    what = {"name": args.name, "role": args.role}

    def done() -> str:
        account, changed = accounts.set_role(_db(args), args.name, args.role)
        what.update(name=account.name, changed=changed)
        if not changed:
            return f"squire: {account.name} is {_a(account.role)} already"
        return f"squire: {account.name} is now {_a(account.role)}, their open invites cancelled"

    return _audited(args, "users.role", what, done)


def invite(args: argparse.Namespace) -> int:
    from ingest.club import accounts
    from ingest.club.audit import cli_who

    what = {"name": args.name, "role": args.role, "expires": args.expires}

    def done() -> str:
        lasting = arg.duration(args.expires)
        made, token = accounts.invite(_db(args), args.name, args.role, lasting, cli_who())
        what.update(id=made.id, name=made.name, expires_at=made.expires_at.isoformat())
        link = f"http://{link_host(args.address)}:{args.port}/signin?invite={token}"
        return (
            f"{link}\n"
            f"squire: invite {made.id} signs {made.name} in as {_a(made.role)}, once, until "
            f"{made.expires_at:%Y-%m-%d %H:%M} UTC (`squire users cancel {made.id}` ends it)"
        )

    return _audited(args, "users.invite", what, done)


def invites(args: argparse.Namespace) -> int:
    from ingest.club import accounts

    def done() -> str:
        found = accounts.invites(_db(args))
        if args.json:
            return "\n".join(
                json_line(
                    {
                        "id": i.id,
                        "name": i.name,
                        "role": i.role,
                        "state": i.state,
                        "made_by": i.made_by,
                        "made_at": i.made_at.isoformat(),
                        "expires_at": i.expires_at.isoformat(),
                    }
                )
                for i in found
            )
        if not found:
            return "no invites (`squire users invite NAME --role member` makes one)"
        width = max(len(i.name) for i in found)
        return "\n".join(
            f"{i.id}  {one_line(i.name):<{width}}  {i.role:<6}  {i.state:<9}  "
            f"made {i.made_at:%Y-%m-%d %H:%M} by {one_line(i.made_by)}, "
            f"until {i.expires_at:%Y-%m-%d %H:%M} UTC"
            for i in found
        )

    return _audited(args, "users.invites", {}, done)


def cancel(args: argparse.Namespace) -> int:
    from ingest.club import accounts

    what = {"id": args.id}

    def done() -> str:
        ended = accounts.cancel(_db(args), args.id)
        what["name"] = ended.name
        return f"squire: invite {ended.id} for {ended.name} cancelled"

    return _audited(args, "users.cancel", what, done)


def link_host(address: str) -> str:
    """The host an invite's link names: the address served on, or, for one that means every
    address of this machine (0.0.0.0, ::), the one its network reaches it at."""
    host = address
    if address in ("", "0.0.0.0", "::"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
                probe.connect(("192.0.2.1", 9))  # a datagram socket sends nothing to connect
                host = probe.getsockname()[0]
        except OSError:  # no network: the machine's name is the best guess
            host = socket.gethostname()
    return f"[{host}]" if ":" in host else host


def _audited(
    args: argparse.Namespace, action: str, what: dict[str, Any], done: Callable[[], str]
) -> int:
    """`done()`'s report printed, or its refusal in one line (status 2), and either way a
    line of the audit log."""
    from ingest.club import Refused, audit

    try:
        report = done()
    except (Refused, ValueError) as refusal:
        message = one_line(str(refusal))
        audit.write(_db(args), audit.cli_who(), "cli", action, what, refused=message)
        print(f"squire users {args.job}: {message}", file=sys.stderr)
        return 2
    audit.write(_db(args), audit.cli_who(), "cli", action, what)
    if report:
        print(report)
    return 0


def _a(role: str) -> str:
    return f"an {role}" if role[0] in "aeiou" else f"a {role}"


def _password(from_stdin: bool) -> str:
    """The new account's password: a line of standard input, or typed twice at the terminal,
    unseen."""
    if from_stdin:
        return sys.stdin.readline().removesuffix("\n").removesuffix("\r")
    first = getpass.getpass("password: ")
    if getpass.getpass("the same again: ") != first:
        raise ValueError("the two passwords differ")
    return first


def _db(args: argparse.Namespace) -> Any:
    from ingest.warehouse.warehouse import DEFAULT_DB

    return args.db or DEFAULT_DB
