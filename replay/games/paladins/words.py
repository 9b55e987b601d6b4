"""The names Paladins logs, catalogues and rulesets share (PA-1 to PA-3)."""

from __future__ import annotations

from typing import Literal, get_args

Colour = Literal["white", "green", "blue", "red", "black", "purple"]
COLOURS: tuple[Colour, ...] = get_args(Colour)  # PA-1
Attribute = Literal["faith", "strength", "influence"]
ATTRIBUTES: tuple[Attribute, ...] = get_args(Attribute)  # PA-2
MAIN_ACTIONS = ("commission", "build_wall", "garrison", "absolve", "attack", "convert")  # PA-3
BOARD_SPACES = ("develop", "recruit", "hunt", "trade", "pray", "scheme")  # PA-3
