"""The gate each costly action passes on the server: the visitor's role, its quota for the
hour, and for the heavy jobs the one slot they share, each refusal and each start a line of
the audit log. An admin is held to no quota (a laptop's squire, whose visitor acts as one,
is not either); the slot holds everyone's job in turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ingest.club import budgets, serving
from ingest.club.access import HEAVY, Who, done, refuse, require
from ingest.warehouse.location import Place


def quota(db: Place, who: Who, action: str, kind: str, most: int, what: dict[str, Any]) -> None:
    """One of `kind` counted against `who`'s hour; Denied where its `most` are used."""
    if who.role == "admin":
        return
    wait = budgets.QUOTAS.take(who.key, kind, most)
    if wait is not None:
        minutes = -(-wait // 60)
        said = (
            f"{who.said} did {most} of this hour's {kind} work; the next is free in {minutes} min"
        )
        refuse(db, who, action, "quota", said, what)


@contextmanager
def heavy(
    db: Place,
    who: Who,
    action: str,
    what: dict[str, Any],
    waiting: Callable[[int], None] | None = None,
) -> Iterator[None]:
    """Held while a heavy job (move analysis, rescore, experiment) runs: refused unless
    `who` may run it and has it left in the hour's quota, then queued for the slot (`waiting`
    told how many are ahead)."""
    assert action in HEAVY
    require(db, who, action, what)
    quota(db, who, action, "heavy", serving.current().budgets.heavy_per_hour, what)
    with budgets.HEAVY.held(who.said, waiting):
        done(db, who, action, what)
        yield


def upload(db: Place, who: Who, action: str, what: dict[str, Any]) -> None:
    """Refused unless `who` may upload and has an upload left in the hour's quota."""
    require(db, who, action, what)
    quota(db, who, action, "upload", serving.current().budgets.uploads_per_hour, what)
    done(db, who, action, what)


def recording(db: Place, who: Who, what: dict[str, Any]) -> None:
    """Refused unless `who` may store a match recorded at the table."""
    require(db, who, "record.save", what)
    done(db, who, "record.save", what)
