"""A club's server: who may use it and what they did. The accounts and their invites
(`accounts`, kept as one document: `document`), what may be a name or a role (`names`), and
the audit log (`audit`), all beside the warehouse (docs/club.md says why there)."""

from __future__ import annotations

FOLDER = "club"  # in the warehouse, beside its tables


class Refused(ValueError):
    """What was asked cannot be done, said in one line that names why."""
