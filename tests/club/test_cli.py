"""`squire users` and `squire audit`: every command, done or refused, is one line of the
audit log; a refusal is one line and status 2; an invite's link signs its account in."""

from __future__ import annotations

import io
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from ingest.cli import main
from ingest.cli.users import link_host
from ingest.club import accounts, audit
from ingest.warehouse.warehouse import open_reader


def squire(capsys, *argv: str, stdin: str | None = None, monkeypatch=None) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    try:
        status = main(list(argv))
    except SystemExit as stop:
        status = int(stop.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def run(capsys, monkeypatch, db):
    def run(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
        return squire(capsys, *argv, "--db", str(db), stdin=stdin, monkeypatch=monkeypatch)

    return run


def test_every_users_command_done_or_refused_writes_one_audit_line(run, db):
    commands = [
        (("users", "add", "Kai", "--role", "admin", "--password-stdin"), "correct horse\n", 0),
        (("users", "add", "kai", "--role", "member", "--password-stdin"), "correct horse\n", 2),
        (("users", "add", "Bo<b>", "--role", "member", "--password-stdin"), "correct horse\n", 2),
        (("users", "add", "Bo", "--role", "owner", "--password-stdin"), "correct horse\n", 2),
        (("users", "add", "Bo", "--role", "member", "--password-stdin"), "short\n", 2),
        (("users", "list"), None, 0),
        (("users", "role", "Kai", "member"), None, 0),
        (("users", "role", "Kai", "boss"), None, 2),
        (("users", "invite", "Ann", "--role", "viewer"), None, 0),
        (("users", "invite", "Ann", "--role", "viewer", "--expires", "forever"), None, 2),
        (("users", "invites"), None, 0),
        (("users", "cancel", "nothing"), None, 2),
        (("users", "remove", "Kai"), None, 0),
        (("users", "remove", "Kai"), None, 2),
    ]
    for argv, stdin, expected in commands:
        status, out, err = run(*argv, stdin=stdin)
        assert status == expected, (argv, out, err)
        if expected:
            assert len(err.splitlines()) == 1 and err.startswith(f"squire users {argv[1]}: ")
    logged = list(audit.entries(db))
    assert [e.action for e in logged] == [f"users.{argv[1]}" for argv, _, _ in commands]
    assert [e.refused is not None for e in logged] == [bool(x) for _, _, x in commands]
    assert {(e.who, e.where) for e in logged} == {(audit.cli_who(), "cli")}
    assert logged[2].what["name"] == "Bo<b>" and "'<'" in logged[2].refused
    assert accounts.users(db) == []


def test_users_add_reads_the_password_twice_from_the_terminal(run, db, monkeypatch):
    typed = iter(["correct horse", "correct horse", "correct horse", "correct hoarse"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(typed))
    assert run("users", "add", "Ann", "--role", "member")[0] == 0
    assert accounts.verify(db, "Ann", "correct horse") is not None
    status, _, err = run("users", "add", "Bo", "--role", "member")
    assert status == 2 and "the two passwords differ" in err
    assert accounts.user(db, "Bo") is None


def test_a_name_is_refused_before_a_password_is_typed_for_it(run, monkeypatch):
    monkeypatch.setattr("getpass.getpass", pytest.fail)
    assert run("users", "add", "<script>", "--role", "member")[0] == 2
    assert run("users", "add", "Ann", "--role", "king")[0] == 2


def test_users_list_names_each_account_and_its_role(run):
    run("users", "add", "李雷", "--role", "admin", "--password-stdin", stdin="correct horse\n")
    run("users", "add", "Ann", "--role", "viewer", "--password-stdin", stdin="correct horse\n")
    status, out, _ = run("users", "list", "--json")
    assert status == 0
    listed = [json.loads(line) for line in out.splitlines()]
    assert [(u["name"], u["role"]) for u in listed] == [("Ann", "viewer"), ("李雷", "admin")]
    assert all("hash" not in u for u in listed)
    status, out, _ = run("users", "list")
    assert re.search(r"李雷 +admin", out) and "hash" not in out and "$argon2" not in out


def test_an_invites_link_names_the_server_and_signs_its_account_in_once(run, db):
    status, out, _ = run("users", "invite", "Ann", "--role", "member", "--port", "8616",
                         "--address", "192.168.1.5", "--expires", "2h")  # fmt: skip
    assert status == 0
    link = urlsplit(out.splitlines()[0])
    assert (link.scheme, link.netloc, link.path) == ("http", "192.168.1.5:8616", "/signin")
    token = parse_qs(link.query)["invite"][0]
    assert accounts.redeem(db, token).role == "member"
    (made,) = accounts.invites(db)
    assert made.state == "used" and f"invite {made.id} signs Ann in as a member" in out
    assert token not in "".join(e.what.__repr__() for e in audit.entries(db))


def test_an_invite_is_listed_and_cancelled_by_its_id(run, db):
    run("users", "invite", "Ann", "--role", "member")
    (made,) = accounts.invites(db)
    assert made.id in run("users", "invites")[1]
    assert run("users", "cancel", made.id)[0] == 0
    status, out, _ = run("users", "invites", "--json")
    assert json.loads(out)["state"] == "cancelled"
    status, _, err = run("users", "cancel", made.id)
    assert status == 2 and "cancelled already" in err


@pytest.mark.parametrize("wildcard", ["0.0.0.0", "::"])
def test_an_invite_for_a_server_on_every_address_names_one_a_phone_can_reach(wildcard):
    host = link_host(wildcard)
    assert host and host not in ("0.0.0.0", "[::]")


def test_squire_audit_reads_what_was_done_and_since_when(run, capsys):
    run("users", "add", "Ann", "--role", "member", "--password-stdin", stdin="correct horse\n")
    run("users", "remove", "Bo")
    status, out, _ = run("audit")
    assert status == 0
    first, second = out.splitlines()
    assert "users.add  name=Ann  role=member" in first and "REFUSED" not in first
    assert "users.remove  name=Bo  REFUSED: no account named 'Bo'" in second
    status, out, _ = run("audit", "--json", "--since", "1h")
    assert [json.loads(line)["action"] for line in out.splitlines()] == [
        "users.add", "users.remove"
    ]  # fmt: skip
    assert (
        run("audit", "--since", "2999-01-01")[1] == "squire audit: nothing recorded in that time\n"
    )
    status, _, err = run("audit", "--since", "yesterday")
    assert status == 2 and len(err.splitlines()) == 1


def test_a_name_with_terminal_codes_prints_as_text(run, db):
    audit.write(db, "anonymous", "10.0.0.9", "signin", {"name": "Ann\x1b[2J"}, refused="no\nsuch")
    out = run("audit")[1]
    assert "\x1b" not in out and len(out.splitlines()) == 1


def test_accounts_made_before_the_first_ingest_leave_the_warehouse_readable(run, db):
    assert run("users", "add", "Kai", "--role", "admin", "--password-stdin",
               stdin="correct horse\n")[0] == 0  # fmt: skip
    assert sorted(p.name for p in db.iterdir()) == ["club"]
    assert open_reader(db).execute("SELECT count(*) FROM games").fetchone() == (0,)
