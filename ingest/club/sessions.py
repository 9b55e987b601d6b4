"""A signed-in session: what the server's cookie holds, and whether it still signs anyone in.

The cookie names an account and the generation it was signed for, signed with the club's
session key (itsdangerous: an HMAC of the value and the time it was signed). A forged or
altered cookie fails the signature; an old one fails its age; one signed for an account since
removed, or whose role changed, fails the generation (`accounts.current`). Nothing about a
session is kept on the server, so every server on one warehouse (a folder, or S3) knows the
same sessions, and a restart signs no one out.

The key is made the first time it is needed, 256 random bits kept beside the accounts as
`club/session.key`, readable by the system user alone: whoever holds it can sign any
session, as whoever holds the accounts' document can read their hashes.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

import msgspec
from itsdangerous import BadSignature, URLSafeTimedSerializer

from ingest.club import FOLDER, accounts, document
from ingest.club.accounts import User
from ingest.warehouse.location import Place, place

COOKIE = "squire_session"
KEY = "session.key"
LASTS = timedelta(days=30)  # a phone signed in by an invite stays signed in this long
_SALT = "squire-session"


class _Signed(msgspec.Struct):
    n: str  # the account's name
    g: int  # its generation when signed


def sign(db: Place, user: User) -> str:
    """The cookie's value for a session of `user`."""
    return _serializer(db).dumps(msgspec.to_builtins(_Signed(user.name, user.generation)))


def signed_in(db: Place, cookie: str | None) -> User | None:
    """The account the cookie's session signs in, or None: no cookie, a forged or expired
    one, or one whose account was removed or changed since it was signed."""
    if not cookie or len(cookie) > 4096:
        return None
    try:
        value = _serializer(db).loads(cookie, max_age=int(LASTS.total_seconds()))
        signed = msgspec.convert(value, _Signed)
    except (BadSignature, msgspec.ValidationError):
        return None
    return accounts.current(db, signed.n, signed.g)


def _serializer(db: Place) -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(_key(db), salt=_SALT)


def _key(db: Place) -> bytes:
    where = place(db) / FOLDER / KEY
    found = document.read(where)
    if found:
        return found.strip()

    def made(before: bytes | None) -> tuple[bytes, bytes]:
        key = before.strip() if before else secrets.token_hex(32).encode()
        return key + b"\n", key  # another server's key, made first, is kept

    return document.change(where, made)
