"""Small tools for building Heraldry situations by hand.

Maps are drawn as rows of terrain letters: row r, column q is the hex [q, r] (axial
coordinates, so [q, r] touches [q±1, r], [q, r±1], [q+1, r-1] and [q-1, r+1]).
f forest, p plains, d field, m mountain, l lake.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from replay.games import heraldry as he
from replay.games.heraldry.movement import add_knights
from replay.games.heraldry.state import State
from tests.support import refused

LOGS = Path(__file__).parent / "logs"
LETTERS = {"f": "forest", "p": "plains", "d": "field", "m": "mountain", "l": "lake"}

# A 6 × 5 map: 30 hexes, so 15 one-hex "tiles" per player for two players.
MAP = (
    "ppdmlf",
    "pdpmpp",
    "fpddpm",
    "plppfd",
    "dpmppp",
)


def grid(rows: tuple[str, ...] = MAP) -> list[he.MapHex]:
    """The hexes of a drawn map; `.` is a hole."""
    return [
        he.MapHex(q=q, r=r, terrain=LETTERS.get(letter, letter))
        for r, row in enumerate(rows)
        for q, letter in enumerate(row)
        if letter != "."
    ]


def rules_for(rows: tuple[str, ...], players: int, **rules: Any) -> dict[str, Any]:
    """Overrides that let a small hand-drawn map pass HE-22's hex count."""
    hexes = sum(len(row) - row.count(".") for row in rows)
    assert hexes % players == 0
    return {"tile_size": 1, "tiles_per_player": hexes // players, **rules}


def header(players: str = "Ann Bob", rows: tuple[str, ...] = MAP, **fields: Any) -> he.Header:
    names = players.split()
    fields.setdefault("game_id", "t")
    fields.setdefault("map", grid(rows))
    fields["rules"] = {**rules_for(rows, len(names)), **fields.get("rules", {})}
    return he.Header(format="squire-log/1", game="heraldry", players=names, **fields)


def new(players: str = "Ann Bob", rows: tuple[str, ...] = MAP, **fields: Any) -> State:
    """A match still in setup."""
    head = header(players, rows, **fields)
    return he.new_game(he.RULES.ruleset(head), head)


def table(players: str = "Ann Bob", rows: tuple[str, ...] = MAP, **fields: Any) -> State:
    """A match past setup with nothing on the map: the start player to act, round 1."""
    state = new(players, rows, **fields)
    state.setup_order.clear()
    state.phase = "play"
    state.turn = state.start_player
    state.round = 1
    return state


def at(state: State, q: int, r: int) -> int:
    return state.board.index[q, r]


def put(
    state: State, player: str, q: int, r: int, knights: int = 0, building: str | None = None
) -> None:
    """Take pieces from `player`'s reserve onto hex [q, r]."""
    seat = state.seats[player]
    h = at(state, q, r)
    if knights:
        add_knights(state, seat, h, knights)
        state.reserve[seat]["knight"] -= knights
    if building:
        assert state.building[h] is None
        state.building[h] = (seat, building)
        state.built[seat][h] = building
        state.reserve[seat][building] -= 1


def give(state: State, player: str, *terrains: str) -> None:
    tokens = state.tokens[state.seats[player]]
    for terrain in terrains:
        tokens[terrain] = tokens.get(terrain, 0) + 1


def _hex(text: str) -> tuple[int, int]:
    q, r = text.split(",")
    return int(q), int(r)


def ev(text: str) -> he.Event:
    """Compact events:
    'Ann city 1,1' · 'Ann recruit 1,1 2' · 'Ann move 1,1>2,1 2,1>3,1:field' ·
    'Ann build 1,1=village 2,2=fortress' · 'Ann found 1,1' · 'Ann expedition 0,4' ·
    'Ann promote forest field' · 'Ann pass'."""
    player, kind, *rest = text.split()
    if kind == "city":
        return he.PlaceCity(player=player, hex=_hex(rest[0]))
    if kind == "recruit":
        return he.Recruit(player=player, city=_hex(rest[0]), knights=int(rest[1]))
    if kind == "move":
        steps = []
        for step in rest:
            path, _, loot = step.partition(":")
            a, b = path.split(">")
            steps.append(he.Step(from_=_hex(a), to=_hex(b), loot=loot.split("+") if loot else []))
        return he.Move(player=player, steps=steps)
    if kind == "build":
        sites = [
            he.Site(hex=_hex(site.split("=")[0]), piece=site.split("=")[1])  # type: ignore[arg-type]
            for site in rest
        ]
        return he.Build(player=player, sites=sites)
    if kind == "found":
        return he.FoundCity(player=player, hex=_hex(rest[0]))
    if kind == "expedition":
        return he.Expedition(player=player, hex=_hex(rest[0]))
    if kind == "promote":
        return he.Promote(player=player, pay=list(rest))  # type: ignore[arg-type]
    if kind == "pass":
        return he.Pass(player=player)
    raise ValueError(text)


def turn(state: State, player: str) -> State:
    """Make it `player`'s turn (hand-built situations skip the turns in between)."""
    state.turn = state.seats[player]
    return state


def rejects(state: State, text: str, rule: str) -> str:
    """Assert `text` is refused under `rule` and leaves the state as it was; the message."""
    return refused(he.apply, state, ev(text), rule)


def run(state: State, *texts: str) -> list[Any]:
    """Apply compact events in order; return every fact they established."""
    facts: list[Any] = []
    for text in texts:
        facts.extend(he.apply(state, ev(text)))
    return facts
