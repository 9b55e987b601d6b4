"""The Paladins ruleset `paladins/standard` (rules/paladins.md): every number a designer may
vary. Lists give one value per piece from the left; their lengths are the piece counts."""

from __future__ import annotations

from typing import Annotated

import msgspec

from replay.ranges import LIST, Count, Name, Players, Points, Positive, Round, Text

from .effects import reward
from .words import Attribute, Colour

Values = Annotated[tuple[Points, ...], LIST]  # one per piece or position, from the left
Slots = Annotated[tuple[Name, ...], msgspec.Meta(max_length=8)]  # workers' colours, or any


def _seven(*values: int) -> tuple[int, ...]:
    return values


class Config(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Read by the engine, the catalogue checks and the bots; never a literal in their code."""

    rounds: Round = 7  # PA-4
    min_players: Players = 1  # PA-41
    max_players: Players = 4
    start_silver: Count = 5
    start_provisions: Count = 3
    start_faith: Count = 0
    start_strength: Count = 0
    start_influence: Count = 0
    attribute_max: Annotated[int, msgspec.Meta(ge=1, le=50)] = 15  # PA-44
    attribute_vp: Values = (0, 0, 1, 1, 2, 2, 3, 3, 5, 5, 7, 7, 9, 9, 12, 12)  # PA-61
    order_rounds: Annotated[tuple[Round, ...], LIST] = (1, 2, 3)  # PA-6
    favour_rounds: Annotated[tuple[Round, ...], LIST] = (3, 4, 5, 6, 7)
    order_vp: Values = (4, 6, 8)  # PA-7, PA-46
    favour_per_player: bool = False  # PA-47
    tavern_extra: Count = 1  # PA-9: revealed = players + this
    tavern_workers: Positive = 4  # PA-11
    paladin_workers: Positive = 2
    paladin_draw: Positive = 3  # PA-10
    keep_workers: Count = 3  # PA-14, PA-50
    townsfolk_slots: Positive = 5  # PA-42
    debt_slots: Count = 2  # PA-23, PA-52
    outsider_slots: Positive = 5
    develop_silver: Count = 4
    workshop_workers: Annotated[tuple[Colour, ...], LIST] = (  # PA-20: gained with workshop 1 … 8
        "white",
        "green",
        "blue",
        "white",
        "red",
        "black",
        "white",
        "purple",
    )
    workshops_per_action: Count = 2  # PA-19
    main_workers: Positive = 3  # PA-29
    main_slots: Annotated[dict[Name, Slots], LIST] = msgspec.field(  # PA-29: slots, left to right
        default_factory=lambda: {
            "commission": ("green", "any", "black"),
            "build_wall": ("blue", "any", "green"),
            "garrison": ("blue", "any", "red"),
            "absolve": ("black", "any", "blue"),
            "attack": ("green", "any", "red"),
            "convert": ("red", "any", "black"),
        }
    )
    # PA-20 to PA-28: the slots of the personal-board spaces, by the number of workers used.
    space_slots: Annotated[dict[Name, Annotated[tuple[Slots, ...], LIST]], LIST] = msgspec.field(
        default_factory=lambda: {
            "develop": (("any", "any"),),
            "recruit": (("any",), ("any", "red")),
            "hunt": (("any",), ("any", "green")),
            "trade": (("any",), ("any", "blue")),
            "pray": (("black",),),
            "scheme": (("any",),),
        }
    )
    hunt_provisions: tuple[Count, Count] = (1, 3)  # PA-24: with 1, 2 workers
    trade_silver: tuple[Count, Count] = (1, 3)  # PA-25
    pray_silver: Count = 2  # PA-27
    monk_provisions: Values = _seven(1, 1, 1, 2, 2, 3, 3)  # PA-30
    monk_reveals: Annotated[tuple[Attribute, ...], LIST] = (
        "faith",
        "influence",
        "faith",
        "strength",
        "faith",
        "influence",
        "faith",
    )
    outpost_provisions: Values = _seven(1, 1, 1, 2, 2, 3, 3)  # PA-33
    outpost_reveals: Annotated[tuple[Attribute, ...], LIST] = (
        "strength",
        "influence",
        "strength",
        "faith",
        "strength",
        "influence",
        "strength",
    )
    region_faith: Values = (0, 2, 4, 6, 8)  # PA-30, PA-45: one per region
    region_strength: Values = (1, 3, 5, 7, 9)  # PA-33
    square_players: Positive = 3  # PA-31
    wall_provisions: Values = _seven(1, 1, 1, 2, 2, 3, 3)  # PA-32
    wall_influence: Values = _seven(0, 1, 3, 4, 6, 7, 9)  # PA-45
    jar_silver: Values = _seven(1, 2, 2, 2, 3, 3, 3)  # PA-34
    jar_influence: Values = _seven(0, 2, 3, 5, 6, 8, 10)  # PA-45
    jar_spots: Annotated[
        tuple[Text, ...], LIST
    ] = (  # PA-34: the reward of spot 1 … 7, in the reward grammar
        "3vp",
        "1faith 1inf",
        "1str 2prov",
        "1black 1blue",
        "3silver",
        "1repay 2vp",
        "5vp",
    )
    absolve_faith: Count = 1  # PA-34
    absolve_pardons: Count = 1
    attack_strength_per_silver: Positive = 2  # PA-35, PA-53
    convert_silver: Values = _seven(0, 1, 2, 2, 2, 3, 3)  # PA-36
    debt_unpaid_vp: Points = -3  # PA-61
    debt_paid_vp: Points = 0
    suspicion_vp: Points = -2
    inquisition_min: Positive = 3  # PA-58
    inquisition_vp: Points = -2

    def __post_init__(self) -> None:
        if self.min_players > self.max_players:
            raise ValueError("min_players exceeds max_players")
        if len(self.attribute_vp) != self.attribute_max + 1:
            raise ValueError("attribute_vp needs one value per track position 0 … attribute_max")
        if len(self.order_vp) != len(self.order_rounds):
            raise ValueError("order_vp needs one value per order round")
        for name in ("order_rounds", "favour_rounds"):
            if any(not 1 <= r <= self.rounds for r in getattr(self, name)):
                raise ValueError(f"{name} names a round outside 1 … {self.rounds}")
        if len(self.region_faith) != len(self.region_strength):
            raise ValueError("region_faith and region_strength need one value per region")
        pairs = (
            ("monk_provisions", "monk_reveals"),
            ("outpost_provisions", "outpost_reveals"),
            ("wall_provisions", "wall_influence"),
            ("jar_silver", "jar_influence"),
            ("jar_silver", "jar_spots"),
        )
        for a, b in pairs:
            if len(getattr(self, a)) != len(getattr(self, b)):
                raise ValueError(f"{a} and {b} need one value per piece")
        if self.workshops_per_action >= self.main_workers:
            raise ValueError("workshops_per_action must leave a main action one worker")
        if self.debt_slots > self.townsfolk_slots:
            raise ValueError("debt_slots exceeds townsfolk_slots")
        for spot in self.jar_spots:  # written in the catalogue's reward grammar
            reward(spot)

    @property
    def regions(self) -> int:
        return len(self.region_faith)


STANDARD = Config()
