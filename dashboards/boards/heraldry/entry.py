"""How a Heraldry match is entered at the table: a build's sites one by one, in the order
they are built (HE-18 takes them in any order), each site its hex and piece at once."""

from __future__ import annotations

from dashboards.record.menu import Shape

SHAPE = Shape(unordered=frozenset({"sites"}), whole=frozenset({"sites"}))
