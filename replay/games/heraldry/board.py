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
# The six neighbours' offsets, in the order `neighbours` lists them (build_board spells
# them out in this order).
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


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
    coords = tuple([(h.q, h.r) for h in hexes])
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
    get = index.get  # spelled out: the map is built for every replay of a log
    neighbours = tuple(
        [
            tuple(
                [
                    n
                    for n in (
                        get((q + 1, r)),
                        get((q + 1, r - 1)),
                        get((q, r - 1)),
                        get((q - 1, r)),
                        get((q - 1, r + 1)),
                        get((q, r + 1)),
                    )
                    if n is not None
                ]
            )
            for q, r in coords
        ]
    )
    terrain = tuple([h.terrain for h in hexes])
    _check_tiles(hexes, config, neighbours)
    _check_connected(coords, neighbours)
    return Board(
        coords=coords,
        index=index,
        terrain=terrain,
        tile=tuple([h.tile for h in hexes]),
        neighbours=neighbours,
        edge=tuple([len(n) < len(DIRECTIONS) for n in neighbours]),
        by_lake=tuple(["lake" in [terrain[n] for n in ns] for ns in neighbours]),
    )


def _check_tiles(
    hexes: Sequence[MapHex], config: Config, neighbours: Sequence[tuple[int, ...]]
) -> None:
    """HE-22: tile ids on every hex or on none; each tile a set of mutually adjacent hexes."""
    tile = [h.tile for h in hexes]
    untagged = tile.count(None)
    if untagged == len(tile):
        return
    if untagged:
        raise RulesError(
            "HE-22", f"tile ids are on {len(tile) - untagged} of {len(hexes)} hexes: all or none"
        )
    tiles: dict[int | None, list[int]] = {}
    for i, t in enumerate(tile):
        if t in tiles:
            tiles[t].append(i)
        else:
            tiles[t] = [i]
    size = config.tile_size
    for t, members in tiles.items():
        if len(members) != size:
            raise RulesError("HE-22", f"tile {t} has {len(members)} hexes, not {size}")
        for k, i in enumerate(members):
            near = neighbours[i]
            for j in members[k + 1 :]:
                if j not in near:
                    a, b = hexes[i], hexes[j]
                    raise RulesError(
                        "HE-22",
                        f"tile {t}: hexes [{a.q}, {a.r}] and [{b.q}, {b.r}] are not adjacent",
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
