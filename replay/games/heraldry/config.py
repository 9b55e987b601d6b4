"""The Heraldry ruleset: every number a designer may vary. The seed prints no token values or
title points; the defaults are the digest's `heraldry/standard` table."""

from __future__ import annotations

from typing import Annotated, Literal, get_args

import msgspec

from replay.ranges import LIST, Count, Name, Players, Points, Positive

Terrain = Literal["forest", "plains", "field", "mountain", "lake"]
TERRAINS: tuple[Terrain, ...] = get_args(Terrain)  # HE-2
Piece = Literal["knight", "village", "fortress", "city"]
PIECES: tuple[Piece, ...] = get_args(Piece)  # HE-1
TITLES = ("baron", "viscount", "count", "marquis", "duke")  # HE-13, lowest first

Table = Annotated[dict[Name, Count], LIST]  # piece or terrain → how many
Values = Annotated[dict[Name, Points], LIST]  # terrain or title → points


class Config(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Read by the engine, the bots and the map generator; never a literal in their code."""

    min_players: Players = 2  # HE-22
    max_players: Players = 4
    reserve: Table = msgspec.field(  # HE-1: each player's pieces
        default_factory=lambda: {"city": 5, "fortress": 2, "knight": 7, "village": 14}
    )
    tiles_per_player: Annotated[int, msgspec.Meta(ge=1, le=30)] = 9  # HE-3
    tile_size: Annotated[int, msgspec.Meta(ge=1, le=3)] = 3  # HE-3, HE-22: mutually adjacent hexes
    setup_cities: Positive = 3  # HE-4: each with one knight
    recruit_max: Positive = 2  # HE-6
    recruit_max_by_lake: Positive = 3  # HE-6: a city hex touching a lake
    move_max_knights: Positive = 2  # HE-7
    block_pieces: Positive = 2  # HE-8: one opponent's pieces on a hex that keep knights out
    expedition_knights: Positive = 2  # HE-12: all leave the reserve; one reaches the map
    city_points: Points = 10  # HE-11
    promotion_cost: Positive = 15  # HE-13
    token_promotion: Table = msgspec.field(  # HE-13 value of a token when paid
        default_factory=lambda: {"forest": 3, "plains": 4, "field": 5, "mountain": 6}
    )
    token_end: Values = msgspec.field(  # HE-16 value of a token still held at the end
        default_factory=lambda: {"forest": 1, "plains": 1, "field": 2, "mountain": 2}
    )
    title_points: Values = msgspec.field(  # HE-13 points for reaching each title
        default_factory=lambda: {"viscount": 4, "count": 6, "marquis": 8, "duke": 12}
    )
    # The simulator's maps (HE-3 leaves the tiles to the box): terrain → relative frequency.
    map_terrains: Table = msgspec.field(
        default_factory=lambda: {"forest": 5, "plains": 4, "field": 4, "mountain": 3, "lake": 2}
    )

    def __post_init__(self) -> None:
        if self.min_players > self.max_players:
            raise ValueError("min_players exceeds max_players")
        if set(self.reserve) != set(PIECES):
            raise ValueError(f"reserve needs a count for each of {', '.join(PIECES)}")
        if self.reserve["city"] < self.setup_cities or self.reserve["knight"] < self.setup_cities:
            raise ValueError("the reserve cannot place the setup cities and their knights")
        resources = set(TERRAINS) - {"lake"}
        for name, table in (
            ("token_promotion", self.token_promotion),
            ("token_end", self.token_end),
        ):
            if set(table) != resources:
                raise ValueError(f"{name} needs a value for each of {', '.join(sorted(resources))}")
        if set(self.title_points) != set(TITLES[1:]):
            raise ValueError(f"title_points needs points for each of {', '.join(TITLES[1:])}")
        unknown = set(self.map_terrains) - set(TERRAINS)
        if unknown or not any(self.map_terrains.values()):
            raise ValueError(f"map_terrains wants weights for {', '.join(TERRAINS)}")
        if self.recruit_max_by_lake < self.recruit_max:
            raise ValueError("recruit_max_by_lake is below recruit_max")

    @property
    def hexes_per_player(self) -> int:
        return self.tiles_per_player * self.tile_size


STANDARD = Config()
