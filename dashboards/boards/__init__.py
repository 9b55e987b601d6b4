"""Each game's board for the match viewer, by game name. A board module gives `figure(view,
players, event)` (the state drawn, the current event's hexes or discs picked out),
`side(view, players)` (the seats' panel), `caption(view)` and `anchors(events)` (where the
jump list may go)."""

from __future__ import annotations

from types import ModuleType

from dashboards.boards import albus_academy, heraldry, knight_academy, paladins

BOARDS: dict[str, ModuleType] = {
    "knight-academy": knight_academy,
    "heraldry": heraldry,
    "paladins": paladins,
    "albus-academy": albus_academy,
}
