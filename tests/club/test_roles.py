"""Every action of docs/club.md's table, tried by every role (and by a visitor not signed in,
on each kind of server), through the function that does the work, and on the page: allowed
or refused as the table says, each refusal a line of the audit log."""

from __future__ import annotations

import gzip
import io
import re
from pathlib import Path

import msgspec
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.record.scribe import enter_log
from ingest.club import accounts, audit, gate, sessions, tables
from ingest.club.access import ACTIONS, Denied, Who, anonymous_role
from ingest.club.names import ROLES
from ingest.files.catalogues import Library
from ingest.pipeline import upload
from ingest.warehouse import drafts
from ingest.warehouse.origin import RECORDING

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "club.md"
APP = ROOT / "dashboards" / "app.py"
# a stored match of the samples, as a table's recorder would have entered it
LOG = gzip.decompress(
    sorted((ROOT / "data" / "samples" / "knight-academy").glob("*.jsonl.gz"))[0].read_bytes()
)


def _table() -> dict[str, tuple[str, bool]]:
    """docs/club.md's table of actions: each one's least role and whether it is audited."""
    found = {}
    for line in DOC.read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        named = re.match(r"`([a-z._]+)`", cells[0]) if len(cells) == 3 else None
        if named and named[1] in ACTIONS:
            role = cells[1].split(",")[0]
            found[named[1]] = (role, cells[2] != "no")
    return found


def test_the_docs_table_is_the_table_the_code_checks():
    assert {a: role for a, (role, _) in _table().items()} == {
        a: role for a, (role, _) in ACTIONS.items()
    }
    # "when not its scribe" is audited, apart from the table's other rows
    assert {a for a, (_, said) in _table().items() if said} == {
        a for a, (_, audited) in ACTIONS.items() if audited
    } | {"record.open"}


@pytest.mark.parametrize(
    ("accounts_", "loopback", "open_", "role"),
    [
        (False, True, False, "admin"),
        (True, True, False, "viewer"),
        (False, False, False, "viewer"),
        (True, False, False, "viewer"),
        (False, False, True, "admin"),
        (True, False, True, "member"),
    ],
)
def test_a_visitor_not_signed_in_acts_as_the_docs_say(accounts_, loopback, open_, role):
    assert anonymous_role(accounts_, loopback, open_) == role


# Who tries each action: each role, and the visitor not signed in on a club's server (a viewer)
# and on an open one with accounts (a member).
VISITORS = {
    "viewer": Who("Vic", "viewer", "10.0.0.5"),
    "member": Who("Ann", "member", "10.0.0.6"),
    "admin": Who("Kai", "admin", "10.0.0.7"),
    "anonymous": Who(None, anonymous_role(True, False, False), "10.0.0.8"),
    "anonymous-open": Who(None, anonymous_role(True, False, True), "10.0.0.9"),
}


def _stopped(db: Path) -> upload.Stopped:
    folder = upload.spool(db) / upload.UPLOADS / "0-stopped"
    folder.mkdir(parents=True)
    (folder / "0000.jsonl").write_bytes(LOG)
    manifest = upload.Manifest("2026-12-07T12:00:00+00:00", [upload.Entry("0000.jsonl", "a.jsonl")])
    (folder / upload.MANIFEST).write_bytes(msgspec.json.encode(manifest))
    (found,) = upload.stopped(db)
    return found


def _draft(db: Path, scribe: Who) -> tuple[str, bytes]:
    """A draft of a match entered whole, its table `scribe`'s (as if begun by them, whatever
    their role is now)."""
    entry = enter_log(LOG, Library()).entry
    name = "ka-20261207-1200-abcd"
    drafts.save(db, name, entry.draft())
    table = drafts.folder(db) / f"{name}{tables.SUFFIX}"
    table.write_bytes(msgspec.json.encode(tables.Table(scribe=scribe.name)))
    return name, entry.draft()


def _attempt(action: str, who: Who, db: Path) -> None:
    """Do `action` as `who` through the function that does it; Denied where refused."""
    scribe = who  # a member's own table: the role is what is tried here, not the table
    if action == "read":
        return None  # no function of its own: reading is what every role's page does
    if action == "upload":
        upload.ingest_uploads([("a.jsonl", io.BytesIO(LOG))], db, who)
    elif action == "upload.resume":
        upload.resume(_stopped(db), db, who)
    elif action == "upload.let_go":
        upload.discard(_stopped(db), db, who)
    elif action == "record.start":
        tables.start(db, "ka-20261207-1300-abcd", LOG.splitlines()[0], who)
    elif action in (
        "record.open",
        "record.enter",
        "record.save",
        "record.discard",
        "record.invite",
    ):
        name, draft = _draft(db, scribe)
        if action == "record.open":
            tables.load(db, name, who)
        elif action == "record.enter":
            tables.save(db, name, draft, who)
        elif action == "record.save":
            upload.ingest_uploads([(f"{name}.jsonl", io.BytesIO(LOG))], db, who,
                                  RECORDING)  # fmt: skip
            tables.saved(db, name, who)
        elif action == "record.discard":
            tables.discard(db, name, who)
        else:
            tables.open_to(db, name, ["Bea"], who)
    elif action in ("analysis", "rescore", "experiment"):
        with gate.heavy(db, who, action, {"test": True}):
            pass
    else:  # the Club page's own actions: its require, as the page calls it
        from ingest.club.access import require

        require(db, who, action)


@pytest.mark.parametrize("action", sorted(ACTIONS))
@pytest.mark.parametrize("visitor", sorted(VISITORS))
def test_every_action_by_every_role_is_allowed_or_refused_as_the_table_says(
    tmp_path, action, visitor
):
    db = tmp_path / "wh"
    who = VISITORS[visitor]
    least = ACTIONS[action][0]
    allowed = ROLES.index(who.role) >= ROLES.index(least)
    before = len(list(audit.entries(db)))
    if allowed:
        _attempt(action, who, db)
        return
    with pytest.raises(Denied) as refused:
        _attempt(action, who, db)
    assert refused.value.why == "role"
    lines = list(audit.entries(db))[before:]
    assert [(e.who, e.action) for e in lines if e.refused] == [(who.said, action)]


def test_a_draft_is_opened_only_by_its_table_or_an_admin(tmp_path):
    db = tmp_path / "wh"
    ann, bea, kai = VISITORS["member"], Who("Bea", "member", "10.0.0.10"), VISITORS["admin"]
    name, draft = _draft(db, ann)
    assert tables.load(db, name, ann) is not None
    for attempt in (
        lambda: tables.load(db, name, bea),
        lambda: tables.save(db, name, draft, bea),
        lambda: tables.discard(db, name, bea),
        lambda: tables.open_to(db, name, ["Bea"], bea),
    ):
        with pytest.raises(Denied) as refused:
            attempt()
        assert refused.value.why == "table"
    assert tables.listed(db, bea) == ([], 1)
    # the scribe opens it to Bea: she opens it and enters in it, and it is written down
    tables.open_to(db, name, ["Bea"], ann)
    assert tables.load(db, name, bea) is not None
    tables.save(db, name, draft, bea)
    assert [d.name for d in tables.listed(db, bea)[0]] == [name]
    # an admin opens any table's draft; a draft opened by someone not its scribe is audited
    assert tables.load(db, name, kai) is not None
    opened = [
        (e.who, e.what.get("draft"))
        for e in audit.entries(db)
        if e.action == "record.open" and not e.refused
    ]
    assert opened == [("Bea", name), ("Kai", name)]


def test_a_member_may_have_at_most_the_servers_drafts_open(tmp_path, monkeypatch):
    from ingest.club import serving

    db = tmp_path / "wh"
    monkeypatch.setattr(
        serving, "current", lambda: serving.Serving(budgets=serving.Budgets(drafts=2))
    )
    ann = VISITORS["member"]
    for minute in ("00", "01"):
        tables.start(db, f"ka-20261207-12{minute}-abcd", b"{}\n", ann)
    with pytest.raises(Denied) as refused:
        tables.start(db, "ka-20261207-1202-abcd", b"{}\n", ann)
    assert refused.value.why == "drafts"
    tables.start(db, "ka-20261207-1203-abcd", b"{}\n", VISITORS["admin"])  # an admin: no cap


def test_a_member_has_the_hours_heavy_jobs_and_uploads_and_no_more(tmp_path, monkeypatch):
    from ingest.club import budgets, serving

    db = tmp_path / "wh"
    monkeypatch.setattr(budgets, "QUOTAS", budgets.Quotas())
    settings = serving.Serving(budgets=serving.Budgets(heavy_per_hour=2, uploads_per_hour=1))
    monkeypatch.setattr(serving, "current", lambda: settings)
    ann, kai = VISITORS["member"], VISITORS["admin"]
    for _ in range(2):
        with gate.heavy(db, ann, "analysis", {}):
            pass
    with pytest.raises(Denied) as refused, gate.heavy(db, ann, "rescore", {}):
        pass
    assert refused.value.why == "quota" and "next is free in 60 min" in str(refused.value)
    for _ in range(3):  # an admin counts in no quota
        with gate.heavy(db, kai, "experiment", {}):
            pass
    gate.upload(db, ann, "upload", {})
    with pytest.raises(Denied):
        gate.upload(db, ann, "upload.resume", {})
    started = [e.action for e in audit.entries(db) if not e.refused]
    assert started == ["analysis", "analysis", *["experiment"] * 3, "upload"]


# The pages, as each role sees them: the session cookie of a signed-in account, as its
# browser would send it.


@pytest.fixture
def club(tmp_path, monkeypatch):
    db = tmp_path / "wh"
    for name, role in (("Vic", "viewer"), ("Ann", "member"), ("Kai", "admin")):
        accounts.add(db, name, role, "a long password")
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(db))

    def page(visitor: str, path: str, alone: bool = False) -> AppTest:
        import dashboards.visitor

        user = accounts.user(db, VISITORS[visitor].name or "")
        signed = sessions.sign(db, user) if user is not None else None
        monkeypatch.setattr(dashboards.visitor, "cookie", lambda: signed)
        if alone:  # the page's script itself, as a browser that names it would run it
            at = AppTest.from_file(
                ROOT / "dashboards" / "app_pages" / f"{path}.py", default_timeout=60
            )
            at.run()
        else:
            at = AppTest.from_file(APP, default_timeout=60)
            at.run()
            at.switch_page(f"app_pages/{path}.py")
            at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    return page


def _said(at: AppTest) -> str:
    return " ".join(str(e.value) for e in [*at.info, *at.error, *at.caption, *at.markdown])


@pytest.mark.parametrize("visitor", ["anonymous", "viewer", "member", "admin"])
def test_the_pages_offer_each_role_its_own_actions_and_say_why_not_the_others(club, visitor):
    role = VISITORS[visitor].role
    member = role in ("member", "admin")
    at = club(visitor, "upload")
    assert bool(at.get("file_uploader")) == member
    assert ("Uploading logs needs a member's account" in _said(at)) != member
    at = club(visitor, "record")
    assert bool([b for b in at.button if b.label == "Begin"]) == member
    assert ("Recording a match needs a member's account" in _said(at)) != member
    signed = "Signed in as" in _said(at)
    assert signed == (VISITORS[visitor].name is not None)
    # the Club page is in an admin's sidebar alone, and refuses anyone else who reaches it
    if role == "admin":
        at = club(visitor, "club")
        assert [d for d in at.dataframe if "action" in d.value.columns]
    else:
        with pytest.raises(ValueError, match="Could not find a navigation page"):
            club(visitor, "club")
    alone = club(visitor, "club", alone=True)
    assert ("Reading the audit log needs an admin's account" in _said(alone)) != (role == "admin")
    assert bool([d for d in alone.dataframe if "action" in d.value.columns]) == (role == "admin")
