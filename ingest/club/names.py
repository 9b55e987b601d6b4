"""What may be an account's name and its role.

A name is shown on every page and in the audit log, so it holds nothing a page could read
as markup or a terminal as a command: letters and digits of any script, the marks that
belong to a letter, spaces, and `. _ -`. Two names that read alike are one account: names
are compared as Unicode's compatibility form, case folded (`ANN`, `ann` and a full-width
`Ａnn` are the same person).
"""

from __future__ import annotations

import unicodedata
from typing import Literal

from ingest.club import Refused
from replay.errors import one_line

Role = Literal["viewer", "member", "admin"]
ROLES: tuple[Role, ...] = ("viewer", "member", "admin")  # each may do what the one before may
LONGEST = 64  # characters of a name
_SIGNS = frozenset(" ._-")


def checked_name(text: str) -> str:
    """`text` as an account's name (its ends' spaces dropped, in Unicode's composed form), or
    Refused saying what it may hold."""
    name = unicodedata.normalize("NFC", text).strip(" ")
    if not name:
        raise Refused("a name cannot be empty")
    if len(name) > LONGEST:
        raise Refused(f"a name has at most {LONGEST} characters, not {len(name)}")
    if not (name[0].isalpha() or unicodedata.category(name[0]) == "Nd"):
        raise Refused(f"a name begins with a letter or a digit, not {one_line(repr(name[0]))}")
    for i, sign in enumerate(name):
        kind = unicodedata.category(sign)
        if kind[0] == "L" or kind == "Nd" or sign in _SIGNS:
            continue
        if kind[0] == "M" and i > 0 and unicodedata.category(name[i - 1])[0] in "LM":
            continue  # an accent or a vowel sign, on the letter before it
        raise Refused(
            f"{one_line(repr(sign))} cannot be in a name: letters, digits, spaces and . _ - only"
        )
    return name


def key(name: str) -> str:
    """What tells one account's name from another's."""
    return unicodedata.normalize("NFKC", name).casefold()


def checked_role(text: str) -> Role:
    if text not in ROLES:
        raise Refused(f"{one_line(repr(text))} is not a role: {', '.join(ROLES)}")
    return text
