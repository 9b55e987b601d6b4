"""Who may do what on a club's server, checked by the functions that do it.

Every action that writes, deletes or spends more than a page's normal work names itself here
with the least role that may do it (docs/club.md has the table, and tests/club walks it). A
function that does such work takes the visitor (`Who`) and calls `require` first: a page
that hides a button protects nothing, since a visitor's browser can send any click.

A visitor who has not signed in acts in the role the server gives the anonymous
(`anonymous_role`): on a server no one can reach but this machine, or one started `--open`,
with no accounts, that is every role's work, as squire has always been on a laptop; once the
club has accounts, it is a viewer's, or a member's on a server started `--open`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ingest.club import Refused, audit
from ingest.club.names import ROLES, Role
from ingest.warehouse.location import Place

ANONYMOUS = "anonymous"  # who an unsigned visitor is in the audit log

# Each action, the least role that may do it, and whether doing it is a line of the audit
# log (a refusal always is).
ACTIONS: dict[str, tuple[Role, bool]] = {
    "read": ("viewer", False),  # the statistics pages, the viewer, the player pages
    "upload": ("member", True),
    "upload.resume": ("member", True),  # ingest again what a stopped upload left
    "upload.let_go": ("admin", True),  # an unprocessed upload's folder deleted
    "record.start": ("member", False),
    "record.open": ("member", False),  # a draft of the visitor's own table, or an admin's
    "record.enter": ("member", False),  # an entry added, changed or cut
    "record.save": ("member", True),  # the recorded match stored
    "record.discard": ("member", True),
    "record.invite": ("member", True),  # a table's draft opened to another account
    "analysis": ("member", True),
    "rescore": ("member", True),
    "experiment": ("member", True),
    "users.invite": ("admin", True),
    "users.cancel": ("admin", True),
    "audit.read": ("admin", False),
}
HEAVY = ("analysis", "rescore", "experiment")  # one at a time on the server, in a queue


@dataclass(frozen=True)
class Who:
    """A visitor: the account signed in (None: no one), the role it acts in, and where from
    (an address, or `local` for this machine)."""

    name: str | None
    role: Role
    address: str

    @property
    def said(self) -> str:
        """How the audit log names the visitor."""
        return self.name or ANONYMOUS

    @property
    def key(self) -> str:
        """Whose quota an action counts in: the account's, or the address's."""
        return f"account:{self.name}" if self.name else f"address:{self.address}"


class Denied(Refused):
    """The visitor's role may not do the action; `why` names what would (`role`, `table`,
    `quota`)."""

    def __init__(self, why: str, message: str) -> None:
        super().__init__(message)
        self.why = why


def may(who: Who, action: str) -> bool:
    least, _ = ACTIONS[action]
    return ROLES.index(who.role) >= ROLES.index(least)


def require(db: Place, who: Who, action: str, what: dict[str, Any] | None = None) -> None:
    """Nothing, where `who` may do `action`; Denied otherwise, written to the audit log."""
    if not may(who, action):
        least, _ = ACTIONS[action]
        refuse(
            db,
            who,
            action,
            "role",
            f"{action} needs a {least}'s role; {who.said} is a {who.role}",
            what,
        )


def refuse(
    db: Place, who: Who, action: str, why: str, message: str, what: dict[str, Any] | None = None
) -> None:
    """Write the refusal to the audit log, then raise it."""
    audit.write(db, who.said, who.address, action, what, refused=message)
    raise Denied(why, message)


def done(db: Place, who: Who, action: str, what: dict[str, Any] | None = None) -> None:
    """The audit log's line for an action done, where the action is one it records."""
    if ACTIONS[action][1]:
        audit.write(db, who.said, who.address, action, what)


def anonymous_role(has_accounts: bool, loopback: bool, open_: bool) -> Role:
    """The role of a visitor who has not signed in."""
    if not has_accounts:
        return "admin" if loopback or open_ else "viewer"
    return "member" if open_ else "viewer"
