"""The drafts of the Record page as a club's server hands them out: each belongs to its
table, which is the member who started it (its scribe) and the accounts the scribe opened it
to. Only they, or an admin, open it, change it or save it; the secret entries show only to
their seat, as the Record page always did.

Who a draft belongs to is kept beside it (`drafts/<name>.table.json`), not in its log: the
log is what the warehouse stores once the match is saved, and a table is not part of a match.
A draft with no table (made before the server had accounts, or on a laptop) is an admin's to
open, and anyone's on a server where every visitor acts as an admin.
"""

from __future__ import annotations

import msgspec

from ingest.club import audit, serving
from ingest.club.access import Who, done, refuse, require
from ingest.club.names import checked_name, key
from ingest.warehouse import drafts
from ingest.warehouse.drafts import Draft
from ingest.warehouse.location import Place

SUFFIX = ".table.json"


class Table(msgspec.Struct):
    scribe: str | None = None  # the account that started the draft; None: no one signed in
    members: list[str] = []  # accounts it was opened to


def table(db: Place, name: str) -> Table | None:
    path = drafts.folder(db) / f"{_checked(name)}{SUFFIX}"
    try:
        return msgspec.json.decode(path.read_bytes(), type=Table)
    except (FileNotFoundError, msgspec.DecodeError):
        return None


def belongs(who: Who, found: Table | None) -> bool:
    """Whether the draft of table `found` is `who`'s to open."""
    if who.role == "admin":
        return True
    if found is None:
        return False
    if who.name is None:
        return found.scribe is None  # a draft started on an open server, by no one signed in
    return key(who.name) in {key(n) for n in [found.scribe or "", *found.members]}


def start(db: Place, name: str, log: bytes, who: Who) -> None:
    """A new draft, `who`'s table: refused unless `who` may record, and, short of an admin,
    has fewer than the server's `drafts` open."""
    require(db, who, "record.start", {"draft": name})
    most = serving.current().budgets.drafts
    if who.role != "admin":
        mine = [d for d in drafts.drafts(db) if _scribe(db, d.name) == (who.name and key(who.name))]
        if len(mine) >= most:
            said = f"{who.said} has {len(mine)} open drafts, the most a member may have"
            refuse(db, who, "record.start", "drafts", said, {"draft": name})
    _write(db, name, Table(scribe=who.name))
    drafts.save(db, name, log)


def load(db: Place, name: str, who: Who) -> bytes | None:
    """The draft `name`'s log, where `who` may open it (Denied, audited, otherwise); its
    opening is a line of the audit log when `who` is not its scribe."""
    require(db, who, "record.open", {"draft": name})
    data = drafts.load(db, name)
    if data is None:
        return None
    found = table(db, name)
    if not belongs(who, found):
        refuse(db, who, "record.open", "table", f"draft {name} is another table's", {"draft": name})
    if (
        found is None
        or found.scribe is None
        or who.name is None
        or key(found.scribe) != key(who.name)
    ):
        audit.write(db, who.said, who.address, "record.open", {"draft": name,
                    "scribe": found.scribe if found else None})  # fmt: skip
    return data


def save(db: Place, name: str, log: bytes, who: Who) -> None:
    """The draft kept as `log` after an entry, where it is `who`'s table's."""
    require(db, who, "record.enter", {"draft": name})
    _belonging(db, name, who, "record.enter")
    drafts.save(db, name, log)


def discard(db: Place, name: str, who: Who) -> None:
    require(db, who, "record.discard", {"draft": name})
    _belonging(db, name, who, "record.discard")
    done(db, who, "record.discard", {"draft": name})
    _forget(db, name)


def saved(db: Place, name: str, who: Who) -> None:
    """The draft let go once its match is stored (ingest_uploads checked who saved it)."""
    _belonging(db, name, who, "record.save")
    _forget(db, name)


def open_to(db: Place, name: str, members: list[str], who: Who) -> None:
    """The draft opened to `members` (accounts), by its scribe or an admin."""
    require(db, who, "record.invite", {"draft": name})
    found = table(db, name)
    scribe = found is not None and (
        found.scribe == who.name
        if found.scribe is None or who.name is None
        else key(found.scribe) == key(who.name)
    )
    if who.role != "admin" and not scribe:
        refuse(db, who, "record.invite", "table", f"only draft {name}'s scribe opens it to others",
               {"draft": name})  # fmt: skip
    members = [checked_name(m) for m in members]
    done(db, who, "record.invite", {"draft": name, "members": ", ".join(members)})
    _write(db, name, Table(scribe=found.scribe if found else None, members=members))


def listed(db: Place, who: Who) -> tuple[list[Draft], int]:
    """The drafts `who` may open, the last saved first, and how many others there are."""
    found = drafts.drafts(db)
    mine = [d for d in found if belongs(who, table(db, d.name))]
    return mine, len(found) - len(mine)


def _belonging(db: Place, name: str, who: Who, action: str) -> None:
    if not belongs(who, table(db, name)):
        refuse(db, who, action, "table", f"draft {name} is another table's", {"draft": name})


def _scribe(db: Place, name: str) -> str | None:
    found = table(db, name)
    return None if found is None or found.scribe is None else key(found.scribe)


def _write(db: Place, name: str, found: Table) -> None:
    path = drafts.folder(db) / f"{_checked(name)}{SUFFIX}"
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.partial")
    partial.write_bytes(msgspec.json.encode(found))
    partial.replace(path)


def _forget(db: Place, name: str) -> None:
    drafts.remove(db, name)
    (drafts.folder(db) / f"{_checked(name)}{SUFFIX}").unlink(missing_ok=True)


def _checked(name: str) -> str:
    return drafts.checked(name)  # a name no draft could have is refused before it is a path
