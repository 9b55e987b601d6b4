"""A session's cookie, the sign-in throttle, the Host check and the refusal to serve beyond
loopback with no account."""

from __future__ import annotations

import argparse
import asyncio

import pytest

from dashboards.guard import HostGuard
from dashboards.signin import LONGEST_WAIT, TRIES, Throttle
from ingest.cli import dashboard
from ingest.club import accounts, audit, sessions
from ingest.club.serving import LOOPBACK_NAMES, host_of, hosts_for, is_loopback
from tests.support import free_port


def test_a_session_signs_its_account_in_until_the_account_changes(db):
    ann = accounts.add(db, "Ann", "member", "a long password")
    cookie = sessions.sign(db, ann)
    assert sessions.signed_in(db, cookie) == ann
    assert sessions.signed_in(db, None) is None
    # a forged or altered cookie fails its signature
    _, _, rest = cookie.partition(".")
    assert sessions.signed_in(db, "eyJuIjoiS2FpIiwiZyI6MX0." + rest) is None
    assert sessions.signed_in(db, cookie[:-2] + ("AA" if cookie[-2:] != "AA" else "BB")) is None
    # a role changed ends it; the account removed and added again does not take it back
    accounts.set_role(db, "Ann", "viewer")
    assert sessions.signed_in(db, cookie) is None
    viewer = accounts.user(db, "Ann")
    again = sessions.sign(db, viewer)
    accounts.remove(db, "Ann")
    accounts.add(db, "Ann", "viewer", "a long password")
    assert sessions.signed_in(db, again) is None


def test_an_old_session_ends(db, monkeypatch):
    ann = accounts.add(db, "Ann", "member", "a long password")
    cookie = sessions.sign(db, ann)
    monkeypatch.setattr(sessions, "LASTS", sessions.LASTS * 0 - sessions.LASTS)
    assert sessions.signed_in(db, cookie) is None


def test_the_session_key_is_made_once_and_kept(db):
    ann = accounts.add(db, "Ann", "member", "a long password")
    cookie = sessions.sign(db, ann)
    assert sessions.signed_in(db, cookie) == ann  # read again from the file, not made anew
    assert (db / "club" / sessions.KEY).stat().st_mode & 0o077 == 0


def test_past_ten_failures_each_try_waits_twice_as_long_up_to_25_s():
    throttle = Throttle()
    waits = []
    for _ in range(TRIES + 6):
        waits.append(throttle.wait("10.0.0.1"))
        throttle.failed("10.0.0.1")
    assert waits[:TRIES] == [0.0] * TRIES
    assert waits[TRIES:] == [2.0, 4.0, 8.0, 16.0, LONGEST_WAIT, LONGEST_WAIT]
    assert throttle.wait("10.0.0.2") == 0.0  # another address is not held back
    throttle.passed("10.0.0.1")
    assert throttle.wait("10.0.0.1") == 0.0


def _asked(guard: HostGuard, kind: str, host: bytes | None) -> tuple[bool, list[dict]]:
    reached, sent = [], []

    async def app(scope, receive, send):
        reached.append(scope)

    async def send(message):
        sent.append(message)

    headers = [(b"host", host)] if host is not None else []
    scope = {"type": kind, "headers": headers, "client": ("10.0.0.9", 5000)}
    guard.app = app
    asyncio.run(guard(scope, None, send))  # type: ignore[arg-type]
    return bool(reached), sent


def test_a_request_for_another_host_is_refused_and_written_down(db, monkeypatch):
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(db))
    guard = HostGuard(None, LOOPBACK_NAMES)  # type: ignore[arg-type]
    reached, _ = _asked(guard, "http", b"127.0.0.1:8501")
    assert reached
    for kind, host, status in (
        ("http", b"evil.example:8501", 421),
        ("http", None, 400),
        ("websocket", b"rebound.example", None),
    ):
        reached, sent = _asked(guard, kind, host)
        assert not reached
        if status is None:
            assert sent[-1] == {"type": "websocket.close", "code": 1008}
        else:
            assert sent[-2]["status"] == status
    refused = [e.what["host"] for e in audit.entries(db) if e.action == "request"]
    assert refused == ["evil.example:8501", "", "rebound.example"]


def test_the_hosts_a_server_answers_to():
    assert host_of("[::1]:8501") == "::1" and host_of("Localhost:8501") == "localhost"
    assert is_loopback("127.0.0.1") and is_loopback("::1") and not is_loopback("0.0.0.0")
    assert hosts_for("127.0.0.1") == LOOPBACK_NAMES
    assert "squire.club.lan" in hosts_for("0.0.0.0", ("squire.club.lan",))
    assert "192.168.1.20" in hosts_for("192.168.1.20")


def _args(db, address: str, open_: bool = False) -> argparse.Namespace:
    return argparse.Namespace(command="up", db=db, address=address, port=free_port(), open=open_)


def test_serving_beyond_loopback_needs_an_account_or_open(db, capsys):
    assert dashboard._unservable(_args(db, "0.0.0.0")).startswith(
        "0.0.0.0 is reachable from other machines and this warehouse has no accounts"
    )
    assert dashboard.cannot_serve(_args(db, "0.0.0.0"))
    assert "squire users add NAME --role admin" in capsys.readouterr().err
    for args in (_args(db, "0.0.0.0", open_=True), _args(db, "127.0.0.1")):
        refusal = dashboard._unservable(args)
        assert refusal is None
    accounts.add(db, "Kai", "admin", "a long password")
    assert dashboard._unservable(_args(db, "0.0.0.0")) is None


@pytest.mark.parametrize("name", ["<b>Ann</b>", "Ann&Bob", 'Ann"'])
def test_a_name_with_markup_is_no_account(db, name):
    with pytest.raises(accounts.Refused):
        accounts.add(db, name, "member", "a long password")
    assert accounts.users(db) == []
