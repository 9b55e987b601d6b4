"""The club's accounts and the invites that make them, kept beside the warehouse as the one
document `club/accounts.json` (ingest.club.document: written whole, never half).

An account is a name, a role and an argon2id hash of its password (argon2-cffi); the
password itself is kept nowhere. An account whose hash is missing or not argon2id's does not
exist: nothing reads it, nothing signs in as it. Each account has a generation, drawn from a
counter of the document that only grows: a session signed for an account names its
generation, and removing the account or changing its role gives it a new one (or none), so
every session signed before ends (`current`).

An invite is a one-time link that signs someone in, for a new account or an existing one. Its
token is random and kept only as its SHA-256 (the token is 256 random bits, so a fast hash
hides it as well as a slow one would): the document gives no one the link. An invite expires,
is used once, and can be cancelled.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Literal, TypeVar

import msgspec
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ingest.club import FOLDER, Refused, document
from ingest.club.names import ROLES, Role, checked_name, checked_role, key
from ingest.warehouse.location import Place, place
from replay.errors import one_line

ACCOUNTS = "accounts.json"
SHORTEST_PASSWORD = 8  # characters
LONGEST_PASSWORD = 1024  # characters: argon2 hashes any length, no form need send a book
SHORTEST_INVITE = timedelta(minutes=1)
LONGEST_INVITE = timedelta(days=30)
OPEN_INVITES = 100  # at once: the document stays small however many are made
KEPT_INVITES = timedelta(days=30)  # a used, cancelled or expired invite is listed this long
# argon2id at RFC 9106's second recommended settings (3 passes over 64 MiB, 4 lanes): about
# 0.1 s of a core a hash, so a guessed password costs a guesser as much.
HASHER = PasswordHasher()
_HASHED = "$argon2id$"

T = TypeVar("T")
InviteState = Literal["open", "used", "cancelled", "expired"]
Why = Literal["unknown", "expired", "used", "cancelled", "changed"]


@dataclass(frozen=True)
class User:
    name: str
    role: Role
    generation: int  # what a session signed for this account names
    added_at: datetime


@dataclass(frozen=True)
class Invite:
    id: str  # what `squire users cancel` takes
    name: str
    role: Role
    made_by: str
    made_at: datetime
    expires_at: datetime
    state: InviteState
    used_at: datetime | None
    cancelled_at: datetime | None


class InviteRefused(Refused):
    """An invite that cannot sign anyone in, and why: one the server never made (or a token
    mistyped), one expired, used or cancelled, or one whose account changed since."""

    def __init__(self, why: Why, message: str) -> None:
        super().__init__(message)
        self.why = why


class _User(msgspec.Struct, forbid_unknown_fields=False):
    name: str
    role: str
    hash: str
    generation: int
    added_at: datetime


class _Invite(msgspec.Struct, forbid_unknown_fields=False):
    id: str
    token_sha256: str
    name: str
    role: str
    made_by: str
    made_at: datetime
    expires_at: datetime
    # the generation of the account it signs in; None: it makes the account
    account: int | None = None
    used_at: datetime | None = None
    cancelled_at: datetime | None = None


class _Accounts(msgspec.Struct):
    generation: int = 0  # the last generation given: the next account's is the one after
    users: list[_User] = msgspec.field(default_factory=list)
    invites: list[_Invite] = msgspec.field(default_factory=list)

    def find(self, name: str) -> _User | None:
        wanted = key(name)
        return next((u for u in self.users if key(u.name) == wanted), None)

    def next_generation(self) -> int:
        self.generation += 1
        return self.generation


def path(db: Place) -> Place:
    return place(db) / FOLDER / ACCOUNTS


def users(db: Place) -> list[User]:
    """Every account, by name."""
    return sorted((_public(u) for u in _read(db).users), key=lambda u: key(u.name))


def user(db: Place, name: str) -> User | None:
    found = _read(db).find(name)
    return None if found is None else _public(found)


def current(db: Place, name: str, generation: int) -> User | None:
    """The account a session signed for (`name`, `generation`) signs in, while it is still
    that account: None once it is removed or its role changed."""
    found = user(db, name)
    return found if found is not None and found.generation == generation else None


def verify(db: Place, name: str, password: str) -> User | None:
    """The account `name` if `password` is its password; None otherwise, taking as long for
    a name that is no account as for a wrong password (so the time tells no one which)."""
    found = _read(db).find(name) if len(password) <= LONGEST_PASSWORD else None
    try:
        HASHER.verify(found.hash if found is not None else _decoy(), password)
    except (VerificationError, InvalidHashError):
        return None
    return None if found is None else _public(found)


def add(db: Place, name: str, role: str, password: str) -> User:
    """A new account; Refused for a bad name, role or password, or a name already taken."""
    name, role = checked_name(name), checked_role(role)
    hashed = hashed_password(password)
    now = datetime.now(UTC)

    def added(accounts: _Accounts) -> User:
        taken = accounts.find(name)
        if taken is not None:
            raise Refused(f"{one_line(taken.name)} is an account already")
        made = _User(name, role, hashed, accounts.next_generation(), now)
        accounts.users.append(made)
        return _public(made)

    return _change(db, added)


def remove(db: Place, name: str) -> User:
    """The account `name`, removed (its sessions end, its open invites are cancelled)."""
    now = datetime.now(UTC)

    def removed(accounts: _Accounts) -> User:
        found = _known(accounts, name)
        accounts.users.remove(found)
        accounts.next_generation()  # the name added again is given a generation of its own
        _cancel_for(accounts, found.name, now)
        return _public(found)

    return _change(db, removed)


def set_role(db: Place, name: str, role: str) -> tuple[User, bool]:
    """The account `name` in `role`, and whether that changed it (its sessions end, and its
    open invites are cancelled, when it did)."""
    role = checked_role(role)
    now = datetime.now(UTC)

    def changed(accounts: _Accounts) -> tuple[User, bool]:
        found = _known(accounts, name)
        if found.role == role:
            return _public(found), False
        found.role = role
        found.generation = accounts.next_generation()
        _cancel_for(accounts, found.name, now)
        return _public(found), True

    return _change(db, changed)


def invite(
    db: Place,
    name: str,
    role: str,
    lasting: timedelta,
    made_by: str,
    now: datetime | None = None,
) -> tuple[Invite, str]:
    """A new invite for `name` in `role`, open for `lasting`, and its token (the only time it
    is seen). For an existing account the role must be its role: an invite signs it in and
    changes nothing else."""
    name, role = checked_name(name), checked_role(role)
    if not SHORTEST_INVITE <= lasting <= LONGEST_INVITE:
        raise Refused(f"an invite lasts from {SHORTEST_INVITE} to {LONGEST_INVITE.days} days")
    now = now or datetime.now(UTC)
    token = secrets.token_urlsafe(32)

    def made(accounts: _Accounts) -> Invite:
        found = accounts.find(name)
        if found is not None and found.role != role:
            raise Refused(
                f"{one_line(found.name)}'s role is {found.role}, not {role}: `squire users role` "
                "changes it first"
            )
        if sum(_state(i, now) == "open" for i in accounts.invites) >= OPEN_INVITES:
            raise Refused(f"{OPEN_INVITES} invites are open already: cancel some first")
        taken = {i.id for i in accounts.invites}
        ident = next(i for i in iter(lambda: secrets.token_hex(4), None) if i not in taken)
        made = _Invite(
            id=ident,
            token_sha256=_digest(token),
            name=found.name if found is not None else name,
            role=role,
            made_by=made_by,
            made_at=now,
            expires_at=now + lasting,
            account=found.generation if found is not None else None,
        )
        accounts.invites.append(made)
        return _invite(made, now)

    return _change(db, made, now), token


def invites(db: Place, now: datetime | None = None) -> list[Invite]:
    """The invites made in the last 30 days or still open, the latest first."""
    now = now or datetime.now(UTC)
    kept = _read(db).invites
    return sorted((_invite(i, now) for i in kept), key=lambda i: i.made_at, reverse=True)


def cancel(db: Place, ident: str) -> Invite:
    """The invite `ident`, cancelled: its link signs no one in any more."""
    now = datetime.now(UTC)

    def cancelled(accounts: _Accounts) -> Invite:
        found = next((i for i in accounts.invites if i.id == ident), None)
        if found is None:
            raise Refused(f"no invite {one_line(repr(ident))} (`squire users invites` lists them)")
        state = _state(found, now)
        if state in ("used", "cancelled"):
            raise Refused(f"invite {ident} was {state} already")
        found.cancelled_at = now
        return _invite(found, now)

    return _change(db, cancelled, now)


def redeem(db: Place, token: str, password: str | None = None, now: datetime | None = None) -> User:
    """The account the invite `token` signs in, the invite used. It makes the account it was
    made for; with a `password`, that is the account's password (an existing account's is
    replaced, and its other sessions end). An account made without one gets a random one
    that no one knows: the invite's session is how it signs in. InviteRefused says why an
    invite cannot be used; a refused password (Refused) leaves the invite unused."""
    hashed = None if password is None else hashed_password(password)
    digest = _digest(token)
    now = now or datetime.now(UTC)

    def used(accounts: _Accounts) -> User:
        found = next(
            (i for i in accounts.invites if hmac.compare_digest(i.token_sha256, digest)), None
        )
        if found is None:
            raise InviteRefused("unknown", "this invite link is not one this server made")
        state = _state(found, now)
        if state == "cancelled":
            raise InviteRefused("cancelled", "this invite was cancelled")
        if state == "used":
            raise InviteRefused("used", f"this invite was used already, {_when(found.used_at)}")
        if state == "expired":
            raise InviteRefused("expired", f"this invite expired {_when(found.expires_at)}")
        account = accounts.find(found.name)
        if found.account is None and account is not None:
            raise InviteRefused("changed", f"{one_line(found.name)} is an account already")
        if found.account is not None and (account is None or account.generation != found.account):
            raise InviteRefused("changed", f"{one_line(found.name)}'s account changed since")
        found.used_at = now
        if account is None:
            secret = hashed or HASHER.hash(secrets.token_urlsafe(32))
            account = _User(found.name, found.role, secret, accounts.next_generation(), now)
            accounts.users.append(account)
        elif hashed is not None:
            account.hash = hashed
            account.generation = accounts.next_generation()
        return _public(account)

    return _change(db, used, now)


def hashed_password(password: str) -> str:
    """`password`'s argon2id hash; Refused for one too short or too long."""
    if len(password) < SHORTEST_PASSWORD:
        raise Refused(f"a password has at least {SHORTEST_PASSWORD} characters")
    if len(password) > LONGEST_PASSWORD:
        raise Refused(f"a password has at most {LONGEST_PASSWORD} characters")
    return HASHER.hash(password)


def _read(db: Place) -> _Accounts:
    return _decoded(document.read(path(db)), path(db))


def _decoded(data: bytes | None, where: Place) -> _Accounts:
    if data is None:
        return _Accounts()
    try:
        accounts = msgspec.json.decode(data, type=_Accounts)
    except msgspec.DecodeError as error:
        raise Refused(f"{where} cannot be read: {one_line(str(error))}") from None
    # An account exists only with a name, a role and a password hash it could sign in with.
    accounts.users = [
        u
        for u in accounts.users
        if u.role in ROLES and u.hash.startswith(_HASHED) and _named(u.name)
    ]
    accounts.invites = [i for i in accounts.invites if i.role in ROLES and _named(i.name)]
    return accounts


def _change(db: Place, change: Callable[[_Accounts], T], now: datetime | None = None) -> T:
    """`change` made to the accounts as they are now, and what it returned; the document is
    written only if it returned (a Refused leaves it as it was)."""
    where = path(db)
    now = now or datetime.now(UTC)

    def changed(data: bytes | None) -> tuple[bytes, T]:
        accounts = _decoded(data, where)
        result = change(accounts)
        accounts.invites = [i for i in accounts.invites if not _forgotten(i, now)]
        return msgspec.json.format(msgspec.json.encode(accounts)) + b"\n", result

    return document.change(where, changed)


def _known(accounts: _Accounts, name: str) -> _User:
    found = accounts.find(name)
    if found is None:
        raise Refused(f"no account named {one_line(repr(name))} (`squire users list` lists them)")
    return found


def _cancel_for(accounts: _Accounts, name: str, now: datetime) -> None:
    for pending in accounts.invites:
        if key(pending.name) == key(name) and _state(pending, now) == "open":
            pending.cancelled_at = now


def _state(pending: _Invite, now: datetime) -> InviteState:
    if pending.used_at is not None:
        return "used"
    if pending.cancelled_at is not None:
        return "cancelled"
    return "expired" if now >= pending.expires_at else "open"


def _forgotten(pending: _Invite, now: datetime) -> bool:
    """Whether an invite is done with long enough to be dropped from the document."""
    ended = pending.used_at or pending.cancelled_at or pending.expires_at
    return now - ended > KEPT_INVITES


def _invite(pending: _Invite, now: datetime) -> Invite:
    return Invite(
        id=pending.id,
        name=pending.name,
        role=checked_role(pending.role),
        made_by=pending.made_by,
        made_at=pending.made_at,
        expires_at=pending.expires_at,
        state=_state(pending, now),
        used_at=pending.used_at,
        cancelled_at=pending.cancelled_at,
    )


def _public(account: _User) -> User:
    return User(account.name, checked_role(account.role), account.generation, account.added_at)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _when(at: datetime | None) -> str:
    return "" if at is None else f"{at:%Y-%m-%d %H:%M} UTC"


def _named(name: str) -> bool:
    try:
        return checked_name(name) == name
    except Refused:
        return False


@functools.cache
def _decoy() -> str:
    """A hash to check a password against when the name is no account's."""
    return HASHER.hash(secrets.token_urlsafe(16))
