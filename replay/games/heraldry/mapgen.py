"""Random maps for simulated matches (HE-3): three-hex tiles joined edge to edge into one
connected map, terrains drawn with the ruleset's `map_terrains` weights."""

from __future__ import annotations

import random

from .board import DIRECTIONS, Hex
from .config import Config
from .events import MapHex

# The two ways three hexes can be mutually adjacent, as offsets from one of them, turned
# through the six directions: each pair of neighbouring directions closes a triangle.
TRIANGLES: tuple[tuple[Hex, Hex, Hex], ...] = tuple(
    ((0, 0), DIRECTIONS[i], DIRECTIONS[(i + 1) % 6]) for i in range(6)
)


def random_map(players: int, config: Config, rng: random.Random) -> list[MapHex]:
    """A legal map for `players` (HE-22) that leaves room for every setup city (HE-5)."""
    while True:
        hexes = _attempt(players, config, rng)
        if _city_room(hexes) >= 2 * config.setup_cities * players:
            return hexes


def _attempt(players: int, config: Config, rng: random.Random) -> list[MapHex]:
    terrains = [t for t, w in config.map_terrains.items() if w]
    weights = [config.map_terrains[t] for t in terrains]
    taken: dict[Hex, int] = {}
    frontier: list[Hex] = [(0, 0)]
    around: set[Hex] = set()
    for tile in range(1, config.tiles_per_player * players + 1):
        while True:
            q, r = rng.choice(frontier)
            # A tile of one, two or three hexes is a corner of a triangle: all mutually adjacent.
            shapes = [[(q + a, r + b) for a, b in tri[: config.tile_size]] for tri in TRIANGLES]
            shapes = [cells for cells in shapes if not any(c in taken for c in cells)]
            if shapes:
                break
        for cell in rng.choice(shapes):
            taken[cell] = tile
            around.update((cell[0] + dq, cell[1] + dr) for dq, dr in DIRECTIONS)
        frontier = sorted(around.difference(taken))
    drawn = rng.choices(terrains, weights, k=len(taken))
    return [
        MapHex(q=q, r=r, terrain=terrain, tile=tile)
        for ((q, r), tile), terrain in zip(taken.items(), drawn)
    ]


def _city_room(hexes: list[MapHex]) -> int:
    """Hexes a city may stand on (HE-5), before any city."""
    return sum(h.terrain not in ("forest", "lake") for h in hexes)
