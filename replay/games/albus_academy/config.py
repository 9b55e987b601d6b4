"""The Albus Academy ruleset `albus-academy/standard` (rules/albus-academy.md): every number
a designer may vary. Component numbers live in the catalogue."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from replay.ranges import Count, Players, Points, Positive

# Rows or columns of a board: at least two, for its four corners.
Side = Annotated[int, msgspec.Meta(ge=2, le=12)]


class Config(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    min_players: Players = 2  # AA-44
    max_players: Players = 4
    board_rows: Side = 3  # AA-24
    board_cols: Side = 4
    start_will: Count = 3  # AA-33
    start_shards: Count = 3
    private_homework: Count = 3
    will_max: Positive = 9  # AA-10
    shards_per_collect: Positive = 1  # AA-9
    will_per_gain: Positive = 1  # AA-10
    public_tiles: Positive = 4  # AA-22
    public_homework: Positive = 4
    end_homework: Positive = 8  # AA-23
    class_dismissed_prestige: Points = 2  # AA-42
    final_turns: Literal["complete_round", "one_each"] = "complete_round"  # AA-41
    tie_break: Literal["homework", "shared"] = "homework"  # AA-43

    def __post_init__(self) -> None:
        if self.min_players > self.max_players:
            raise ValueError("min_players exceeds max_players")


STANDARD = Config()
