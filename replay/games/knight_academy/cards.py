"""Knight Academy's cards (KA-2, KA-6): a card's type and value, and the tracks it moves. Read
by the rules, the legal moves and the bots alike."""

from __future__ import annotations

from functools import cache

from .config import CARD_TRACKS, KNIGHTS, Config, Track


@cache
def card_type_value(card: str) -> tuple[str, int]:
    kind, _, value = card.rpartition("-")
    return kind, int(value)


def card_moves(card: str, config: Config) -> tuple[int, tuple[Track, ...]]:
    """KA-6: how far a card moves a disc, and the tracks it may move."""
    return moves_with(card, "knights" in config.boards)


@cache
def moves_with(card: str, knights: bool) -> tuple[int, tuple[Track, ...]]:
    """`card_moves` with or without the knights board (KA-22a), for the hot paths."""
    kind, value = card_type_value(card)
    return value, KNIGHTS if knights and kind == "sword" else CARD_TRACKS[kind]
