"""A club's server in a real browser, as docs/club.md has it: an admin added, the server
started beyond loopback, an invite's link signing a phone in as a member who records a few
events, a second browser not signed in that reads but cannot open that draft, upload or
analyse, and the admin reading all of it on the Club page."""

from __future__ import annotations

import re
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright import sync_api

from ingest.club import accounts
from ingest.pipeline.pipeline import ingest_logs
from tests.support import free_port

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"


def _settled(page) -> None:
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=90_000
    )
    time.sleep(1.0)  # the elements of the run draw after its state says it is over


@pytest.fixture(scope="module")
def club(tmp_path_factory):
    db = tmp_path_factory.mktemp("club") / "warehouse"
    logs = sorted((ROOT / "data" / "samples" / "knight-academy").glob("*.jsonl.gz"))[:3]
    ingest_logs([str(p) for p in logs], db=db)
    accounts.add(db, "Kai", "admin", "kai's long password")
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ingest.cli",
            "dashboard",
            "--db",
            str(db),
            "--port",
            str(port),
            "--address",
            "0.0.0.0",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                break
        except OSError:
            assert time.monotonic() < deadline and proc.poll() is None, "it never answered"
            time.sleep(0.3)
    yield db, url, port
    proc.terminate()
    proc.wait(timeout=20)


def test_an_invited_phone_records_and_a_stranger_reads_but_cannot_touch_it(club):
    db, url, _ = club
    _, token = accounts.invite(db, "Ann", "member", accounts.SHORTEST_INVITE * 60, "cli:test")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        phone = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        phone.goto(f"{url}/signin?invite={token}")
        phone.click("button[type=submit]")
        _settled(phone)
        assert "Signed in as Ann · member" in phone.inner_text("body")
        cookie = next(c for c in phone.context.cookies() if c["name"] == "squire_session")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
        phone.goto(f"{url}/record")
        _settled(phone)
        phone.get_by_role("button", name="Begin").click()
        _settled(phone)
        phone.wait_for_url("**draft=**", timeout=30_000)  # the address names the new draft
        _settled(phone)
        draft = phone.url.split("draft=")[1].split("&")[0]
        for _ in range(6):  # Ann's hand dealt a card at a time (one entry), then Bob's begun
            phone.locator('[data-testid="stMain"] button[kind="secondary"]').first.click()
            _settled(phone)
        assert "0 entries" not in phone.inner_text('[data-testid="stMain"]')
        from ingest.warehouse import drafts

        assert drafts.drafts(db)[0].entries >= 1  # kept on the server after the entry

        stranger = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        stranger.goto(f"{url}/sources")
        _settled(stranger)
        assert not stranger.locator('[data-testid="stException"]').count()
        for path, said in (
            (f"record?draft={draft}", "Recording a match needs a member's account"),
            ("upload", "Uploading logs needs a member's account"),
            ("viewer", "Analysing the moves needs a member's account"),
        ):
            stranger.goto(f"{url}/{path}")
            _settled(stranger)
            assert said in stranger.inner_text('[data-testid="stMain"]')
        assert not stranger.get_by_role("button", name="Analyse the moves").count()

        admin = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        admin.goto(f"{url}/signin")
        admin.fill("input[name=name]", "Kai")
        admin.fill("input[name=password]", "a wrong password")
        admin.click("button[type=submit]")
        assert "The name or the password is wrong." in admin.inner_text("body")
        admin.fill("input[name=password]", "kai's long password")
        admin.click("button[type=submit]")
        _settled(admin)
        admin.goto(f"{url}/club")
        _settled(admin)
        shown = admin.inner_text('[data-testid="stMain"]')
        # the log's table draws on a canvas: its count of entries is the page's text
        counted = re.search(r"(\d+) entries", shown)
        assert "Audit log" in shown and counted and int(counted[1]) >= 3
        browser.close()
    # the audit log holds the invite's sign-in, the wrong password and the admin's sign-in
    from ingest.club import audit

    lines = [(e.who, e.action, bool(e.refused)) for e in audit.entries(db)]
    assert ("Ann", "signin", False) in lines and ("anonymous", "signin", True) in lines
    assert ("Kai", "signin", False) in lines


def test_a_request_naming_another_host_is_refused(club):
    _, url, port = club
    request = urllib.request.Request(f"{url}/", headers={"Host": f"rebound.example:{port}"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=10)
    assert refused.value.code == 421
