"""Invites: a one-time link that signs someone in. It expires, is used once, can be
cancelled, and each of those, and a link the server never made, is refused apart; its token
is kept nowhere."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from ingest.club import Refused, accounts
from ingest.club.accounts import (
    InviteRefused,
    add,
    cancel,
    invite,
    invites,
    redeem,
    remove,
    set_role,
    user,
    verify,
)

DAY = timedelta(days=1)
NOW = datetime(2026, 12, 5, 14, 0, tzinfo=UTC)


def made(db, name="Ann", role="member", lasting=DAY):
    return invite(db, name, role, lasting, "cli:kai", now=NOW)


def refusal(db, token, **kwargs) -> str:
    with pytest.raises(InviteRefused) as refused:
        redeem(db, token, **kwargs)
    return refused.value.why


def test_an_invite_makes_its_account_in_its_role_and_signs_in_once(db):
    sent, token = made(db)
    assert sent.state == "open" and user(db, "Ann") is None
    ann = redeem(db, token, now=NOW + timedelta(hours=1))
    assert (ann.name, ann.role) == ("Ann", "member") and user(db, "Ann") == ann
    assert refusal(db, token, now=NOW + timedelta(hours=2)) == "used"
    assert [i.state for i in invites(db, now=NOW)] == ["used"]


def test_its_token_is_kept_nowhere(db):
    _, token = made(db)
    assert token not in accounts.path(db).read_text()
    assert len(token) >= 43  # 256 random bits


def test_expired_used_cancelled_and_unknown_invites_are_each_refused_for_their_reason(db):
    _, late = made(db, "Ann", lasting=timedelta(hours=1))
    _, used = made(db, "Bo")
    gone, cancelled = made(db, "Cid")
    redeem(db, used, now=NOW)
    cancel(db, gone.id)
    why = {
        "expired": refusal(db, late, now=NOW + timedelta(hours=1)),
        "used": refusal(db, used, now=NOW),
        "cancelled": refusal(db, cancelled, now=NOW),
        "unknown": refusal(db, late + "x", now=NOW),
    }
    assert why == {w: w for w in why}
    assert user(db, "Ann") is None and user(db, "Cid") is None


def test_an_invite_made_for_a_name_taken_since_signs_no_one_in(db):
    _, token = made(db)
    add(db, "ann", "admin", "correct horse")
    assert refusal(db, token, now=NOW) == "changed"
    assert user(db, "Ann").role == "admin"


def test_with_a_password_the_invited_account_signs_in_with_it(db):
    _, token = made(db)
    redeem(db, token, password="correct horse", now=NOW)
    assert verify(db, "Ann", "correct horse") is not None


def test_without_one_no_password_signs_the_invited_account_in(db):
    _, token = made(db)
    redeem(db, token, now=NOW)
    assert user(db, "Ann") is not None
    assert verify(db, "Ann", "") is None and verify(db, "Ann", "correct horse") is None


def test_a_refused_password_leaves_the_invite_to_use(db):
    _, token = made(db)
    with pytest.raises(Refused, match="at least 8 characters"):
        redeem(db, token, password="short", now=NOW)
    assert user(db, "Ann") is None
    assert redeem(db, token, password="long enough", now=NOW).name == "Ann"


def test_an_invite_for_an_existing_account_signs_it_in_and_changes_nothing_else(db):
    ann = add(db, "Ann", "member", "correct horse")
    with pytest.raises(Refused, match="Ann's role is member, not admin"):
        made(db, "ann", role="admin")
    _, token = made(db, "ann")
    assert redeem(db, token, now=NOW) == ann
    assert verify(db, "Ann", "correct horse") is not None


def test_a_new_password_by_invite_ends_the_accounts_other_sessions(db):
    ann = add(db, "Ann", "member", "correct horse")
    _, token = made(db)
    again = redeem(db, token, password="battery staple", now=NOW)
    assert again.generation > ann.generation
    assert verify(db, "Ann", "correct horse") is None


def test_removing_an_account_or_changing_its_role_cancels_its_open_invites(db):
    add(db, "Ann", "member", "correct horse")
    add(db, "Bo", "member", "correct horse")
    _, for_ann = invite(db, "Ann", "member", DAY, "cli:kai")
    _, for_bo = invite(db, "Bo", "member", DAY, "cli:kai")
    remove(db, "Ann")
    set_role(db, "Bo", "viewer")
    assert refusal(db, for_ann) == "cancelled"
    assert refusal(db, for_bo) == "cancelled"
    assert user(db, "Ann") is None


def test_an_invite_used_or_cancelled_cannot_be_cancelled_and_an_unknown_one_is_named(db):
    sent, token = made(db)
    redeem(db, token, now=NOW)
    with pytest.raises(Refused, match=f"invite {sent.id} was used already"):
        cancel(db, sent.id)
    with pytest.raises(Refused, match="no invite 'nothing'"):
        cancel(db, "nothing")


@pytest.mark.parametrize("lasting", [timedelta(seconds=30), timedelta(days=31)])
def test_an_invite_lasts_from_a_minute_to_a_month(db, lasting):
    with pytest.raises(Refused, match="an invite lasts from"):
        made(db, lasting=lasting)
    assert invites(db) == []


@pytest.mark.parametrize(("name", "role"), [("<img src=x>", "member"), ("Ann", "owner")])
def test_an_invite_for_a_bad_name_or_role_is_refused(db, name, role):
    with pytest.raises(Refused):
        made(db, name, role)
    assert invites(db) == []


def test_an_invite_done_with_for_a_month_is_forgotten(db):
    _, token = made(db)
    redeem(db, token, now=NOW)
    later = NOW + timedelta(days=31)
    invite(db, "Bo", "viewer", DAY, "cli:kai", now=later)
    assert [i.name for i in invites(db, now=later)] == ["Bo"]
