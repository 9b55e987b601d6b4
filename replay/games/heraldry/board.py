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
    terrain = tuple([h.terrain for h in hexes])
    index: dict[Hex, int] = dict(zip(coords, range(len(coords))))
    if len(index) != len(coords) or not _KNOWN.issuperset(terrain):
        _refuse_first_bad_hex(hexes)
    neighbours = _neighbours(coords)
    _check_tiles(hexes, config, neighbours)
    _check_connected(coords, neighbours)
    return Board(
        coords=coords,
        index=index,
        terrain=terrain,
        tile=tuple([h.tile for h in hexes]),
        neighbours=neighbours,
        edge=tuple([len(n) < len(DIRECTIONS) for n in neighbours]),
        by_lake=_by_lake(terrain, neighbours),
    )


_KNOWN = frozenset(TERRAINS)


def _scattered_neighbours(coords: Sequence[Hex]) -> tuple[tuple[int, ...], ...]:
    """Each hex's neighbours, looked up by coordinates: for a map spread wider than it has
    hexes (which HE-22 then refuses as not connected)."""
    index = {at: i for i, at in enumerate(coords)}
    return tuple(
        tuple([n for dq, dr in DIRECTIONS if (n := index.get((q + dq, r + dr))) is not None])
        for q, r in coords
    )


def _neighbours(coords: Sequence[Hex]) -> tuple[tuple[int, ...], ...]:
    """Each hex's neighbours on the map, in DIRECTIONS order. A map is built for every replay
    of a log, so the hexes are laid on a padded grid where a neighbour is a list index away
    (q, r → (q - q0) * width + r - r0; the six offsets follow from it), and a hex with all six
    neighbours keeps its tuple as it is."""
    qs = [q for q, _ in coords]
    rs = [r for _, r in coords]
    if not coords or max(qs) - min(qs) >= len(coords) or max(rs) - min(rs) >= len(coords):
        return _scattered_neighbours(coords)  # never connected: no grid of that size
    q0, r0 = min(qs) - 1, min(rs) - 1
    width = max(rs) - r0 + 2
    grid: list[int | None] = [None] * ((max(qs) - q0 + 2) * width)
    keys = [(q - q0) * width + r - r0 for q, r in coords]
    for i, k in enumerate(keys):
        grid[k] = i
    up, up_left = width, width - 1  # q + 1 (and r - 1): one row of the grid on
    around: list[tuple[int, ...]] = []
    for k in keys:
        ns = (grid[k + up], grid[k + up_left], grid[k - 1], grid[k - up], grid[k - up_left],
              grid[k + 1])  # fmt: skip
        around.append(
            tuple([n for n in ns if n is not None]) if None in ns else ns  # type: ignore[arg-type]
        )
    return tuple(around)


def _by_lake(terrain: Sequence[str], neighbours: Sequence[Sequence[int]]) -> tuple[bool, ...]:
    """HE-6: the hexes touching a lake, found from the lakes (neighbours are mutual)."""
    near = [False] * len(terrain)
    for h, kind in enumerate(terrain):
        if kind == "lake":
            for n in neighbours[h]:
                near[n] = True
    return tuple(near)


def _refuse_first_bad_hex(hexes: Sequence[MapHex]) -> None:
    """HE-3, HE-2: the first hex that repeats another or has an unknown terrain."""
    seen: set[Hex] = set()
    for h in hexes:
        if (h.q, h.r) in seen:
            raise RulesError("HE-3", f"hex [{h.q}, {h.r}] appears twice in the map")
        if h.terrain not in TERRAINS:
            raise RulesError(
                "HE-2",
                f"hex [{h.q}, {h.r}] has unknown terrain {h.terrain!r}; "
                f"known: {', '.join(TERRAINS)}",
            )
        seen.add((h.q, h.r))


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
