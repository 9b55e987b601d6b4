"""The map of one match: hexes in axial coordinates, their terrain and who neighbours whom.

Built once from the header and never changed; the engine addresses hexes by their index
here, which keeps the per-event work to list lookups.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from replay.errors import RulesError

from .config import TERRAINS, Config
from .events import MapHex

Hex = tuple[int, int]
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def adjacent(a: Hex, b: Hex) -> bool:
    return (b[0] - a[0], b[1] - a[1]) in DIRECTIONS


@dataclass(frozen=True, eq=False)
class Board:
    coords: tuple[Hex, ...]
    index: dict[Hex, int]
    terrain: tuple[str, ...]
    tile: tuple[int | None, ...]
    neighbours: tuple[tuple[int, ...], ...]
    edge: tuple[bool, ...]  # HE-3, HE-22: fewer than six neighbours on the map
    by_lake: tuple[bool, ...]  # HE-6: touches a lake hex

    def __len__(self) -> int:
        return len(self.coords)

    def name(self, h: int) -> str:
        q, r = self.coords[h]
        return f"[{q}, {r}]"


def build_board(hexes: Sequence[MapHex], players: int, config: Config) -> Board:
    wanted = config.hexes_per_player * players
    if len(hexes) != wanted:
        raise RulesError(
            "HE-22",
            f"{players} players play on {wanted} hexes "
            f"({config.tiles_per_player} tiles each), not {len(hexes)}",
        )
    coords = tuple((h.q, h.r) for h in hexes)
    index: dict[Hex, int] = {}
    for i, (at, h) in enumerate(zip(coords, hexes)):
        if at in index:
            raise RulesError("HE-3", f"hex [{h.q}, {h.r}] appears twice in the map")
        if h.terrain not in TERRAINS:
            raise RulesError(
                "HE-2",
                f"hex [{h.q}, {h.r}] has unknown terrain {h.terrain!r}; "
                f"known: {', '.join(TERRAINS)}",
            )
        index[at] = i
    neighbours = tuple(
        tuple(index[n] for dq, dr in DIRECTIONS if (n := (q + dq, r + dr)) in index)
        for q, r in coords
    )
    terrain = tuple(h.terrain for h in hexes)
    _check_tiles(hexes, config)
    _check_connected(coords, neighbours)
    return Board(
        coords=coords,
        index=index,
        terrain=terrain,
        tile=tuple(h.tile for h in hexes),
        neighbours=neighbours,
        edge=tuple(len(n) < len(DIRECTIONS) for n in neighbours),
        by_lake=tuple(any(terrain[n] == "lake" for n in ns) for ns in neighbours),
    )


def _check_tiles(hexes: Sequence[MapHex], config: Config) -> None:
    """HE-22: tile ids on every hex or on none; each tile a set of mutually adjacent hexes."""
    tagged = [h for h in hexes if h.tile is not None]
    if not tagged:
        return
    if len(tagged) != len(hexes):
        raise RulesError(
            "HE-22", f"tile ids are on {len(tagged)} of {len(hexes)} hexes: all or none"
        )
    tiles: dict[int, list[Hex]] = {}
    for h in tagged:
        assert h.tile is not None
        tiles.setdefault(h.tile, []).append((h.q, h.r))
    for tile, members in tiles.items():
        if len(members) != config.tile_size:
            raise RulesError(
                "HE-22", f"tile {tile} has {len(members)} hexes, not {config.tile_size}"
            )
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                if not adjacent(a, b):
                    raise RulesError(
                        "HE-22",
                        f"tile {tile}: hexes [{a[0]}, {a[1]}] and [{b[0]}, {b[1]}] "
                        "are not adjacent",
                    )


def _check_connected(coords: Sequence[Hex], neighbours: Sequence[Sequence[int]]) -> None:
    """HE-3, HE-22: one connected map."""
    seen = {0}
    todo = [0]
    while todo:
        for n in neighbours[todo.pop()]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    if len(seen) != len(coords):
        apart = next(i for i in range(len(coords)) if i not in seen)
        q, r = coords[apart]
        raise RulesError(
            "HE-22",
            f"the map is not connected: hex [{q}, {r}] cannot be reached from "
            f"[{coords[0][0]}, {coords[0][1]}]",
        )
