"""How an Albus Academy match is entered at the table: homework drawn to a player, hidden at
the table (AA-33, AA-36), is that player's entry."""

from __future__ import annotations

from dashboards.record.menu import Shape

SHAPE = Shape(owners=("player", "to"))
