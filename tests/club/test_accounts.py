"""The club's accounts: kept only as argon2id hashes, one name an account however it is
written, every bad name and role refused in one line, a change whole or not at all, and a
generation that ends every session signed before a removal or a change of role."""

from __future__ import annotations

import re
import threading

import msgspec
import pytest
from argon2 import Type

from ingest.club import Refused, accounts
from ingest.club.accounts import add, current, remove, set_role, user, users, verify
from tests.club.conftest import REAL_HASHER

PASSWORD = "correct horse"


def test_a_password_is_kept_only_as_its_argon2id_hash_at_rfc_9106s_settings(db):
    assert (REAL_HASHER.type, REAL_HASHER.memory_cost, REAL_HASHER.time_cost) == (
        Type.ID,
        65536,
        3,
    )
    add(db, "Ann", "member", PASSWORD)
    kept = accounts.path(db).read_text()
    assert PASSWORD not in kept
    assert msgspec.json.decode(kept)["users"][0]["hash"].startswith("$argon2id$")
    assert accounts.path(db).stat().st_mode & 0o077 == 0  # no other system user reads it


def test_the_right_password_signs_in_and_any_other_does_not(db):
    add(db, "Ann", "member", PASSWORD)
    assert verify(db, "Ann", PASSWORD) == user(db, "Ann")
    assert verify(db, "ann", PASSWORD) is not None  # the name as typed on a phone
    assert verify(db, "Ann", PASSWORD + "!") is None
    assert verify(db, "Bo", PASSWORD) is None
    assert verify(db, "Ann", "x" * 2000) is None


@pytest.mark.parametrize("again", ["ann", "ANN", " Ann ", "Ａnn"])
def test_a_name_is_one_account_however_it_is_written(db, again):
    add(db, "Ann", "member", PASSWORD)
    with pytest.raises(Refused, match="Ann is an account already"):
        add(db, again, "admin", PASSWORD)
    assert [u.name for u in users(db)] == ["Ann"]


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("", "cannot be empty"),
        ("   ", "cannot be empty"),
        ("<b>Ann</b>", "begins with a letter or a digit, not '<'"),
        ("Ann<script>", "'<' cannot be in a name"),
        ("Ann\nBo", r"'\n' cannot be in a name"),
        ("Ann\x1b[31m", r"'\x1b' cannot be in a name"),
        ("../admin", "begins with a letter or a digit"),
        ("Ann/Bo", "'/' cannot be in a name"),
        ('Ann"', "cannot be in a name"),
        ("Ann&amp;", "'&' cannot be in a name"),
        ("Ann\u202e", "cannot be in a name"),  # a right-to-left override
        ("🎲 Ann", "begins with a letter"),
        ("A" * 65, "at most 64 characters"),
    ],
)
def test_a_name_with_markup_or_anything_but_letters_digits_and_signs_is_refused(db, name, says):
    with pytest.raises(Refused, match=re.escape(says)) as refusal:
        add(db, name, "member", PASSWORD)
    assert "\n" not in str(refusal.value)
    assert not accounts.path(db).exists()


@pytest.mark.parametrize(
    "name", ["李雷", "José", "Ann-Marie O.", "Zoë_2", "हिन्दी", "Ｋai", "7th Seat"]
)
def test_a_name_in_any_script_is_an_account(db, name):
    assert add(db, name, "viewer", PASSWORD).name == name
    assert verify(db, name, PASSWORD) is not None


@pytest.mark.parametrize("role", ["king", "Admin", "", "admin "])
def test_an_unknown_role_is_refused(db, role):
    with pytest.raises(Refused, match="is not a role: viewer, member, admin"):
        add(db, "Ann", role, PASSWORD)
    add(db, "Ann", "admin", PASSWORD)
    with pytest.raises(Refused, match="is not a role"):
        set_role(db, "Ann", role)
    assert user(db, "Ann").role == "admin"


@pytest.mark.parametrize("password", ["", "short", "x" * 1025])
def test_a_password_too_short_or_too_long_makes_no_account(db, password):
    with pytest.raises(Refused, match="a password has at"):
        add(db, "Ann", "member", password)
    assert users(db) == []


@pytest.mark.parametrize(
    "hashed", ["", "plain text", "$argon2i$v=19$m=8,t=1,p=1$c2FsdHNhbHQ$aGFzaA"]
)
def test_an_account_without_an_argon2id_hash_does_not_exist(db, hashed):
    accounts.path(db).parent.mkdir(parents=True)
    found = {"name": "Ann", "role": "admin", "hash": hashed, "generation": 1,
             "added_at": "2026-12-01T10:00:00Z"}  # fmt: skip
    accounts.path(db).write_bytes(msgspec.json.encode({"generation": 1, "users": [found]}))
    assert users(db) == [] and user(db, "Ann") is None
    assert verify(db, "Ann", "") is None and verify(db, "Ann", hashed) is None
    assert add(db, "Ann", "member", PASSWORD).generation == 2


def test_a_refused_change_leaves_the_accounts_as_they_were(db):
    add(db, "Ann", "member", PASSWORD)
    before = accounts.path(db).read_bytes()
    for refused in (
        lambda: add(db, "ANN", "member", PASSWORD),
        lambda: remove(db, "Bo"),
        lambda: set_role(db, "Bo", "admin"),
    ):
        with pytest.raises(Refused):
            refused()
    assert accounts.path(db).read_bytes() == before


def test_a_role_change_or_a_removal_ends_the_sessions_signed_before(db):
    ann = add(db, "Ann", "member", PASSWORD)
    assert current(db, "Ann", ann.generation) == ann
    promoted, changed = set_role(db, "Ann", "admin")
    assert changed and promoted.generation > ann.generation
    assert current(db, "Ann", ann.generation) is None
    assert current(db, "Ann", promoted.generation) == promoted
    same, changed = set_role(db, "ann", "admin")
    assert not changed and same == promoted  # no change, so no session ends
    remove(db, "Ann")
    assert current(db, "Ann", promoted.generation) is None
    again = add(db, "Ann", "admin", PASSWORD)  # a new account of the same name and role
    assert again.generation > promoted.generation
    assert current(db, "Ann", promoted.generation) is None


def test_two_writers_at_once_lose_neither_change(db):
    names = [f"Player {i}" for i in range(12)]
    adding = [threading.Thread(target=add, args=(db, n, "member", PASSWORD)) for n in names]
    for thread in adding:
        thread.start()
    for thread in adding:
        thread.join()
    found = users(db)
    assert sorted(u.name for u in found) == sorted(names)
    assert len({u.generation for u in found}) == len(names)


def test_a_reader_never_sees_the_accounts_half_written(db):
    add(db, "Ann", "member", PASSWORD)
    stop = threading.Event()
    seen: list[int] = []

    def read() -> None:
        while not stop.is_set():
            seen.append(len(users(db)))  # a half-written file would not decode

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for i in range(20):
            add(db, f"Bo {i}", "viewer", PASSWORD)
    finally:
        stop.set()
        reader.join()
    assert seen and seen == sorted(seen) and seen[0] >= 1 and seen[-1] <= 21
