"""Every game squire knows, by the id logs use in their header."""

from typing import Any

from replay.game import Game
from replay.games import albus_academy, heraldry, knight_academy, paladins

_ALL: list[Game[Any, Any, Any]] = [
    knight_academy.RULES,
    heraldry.RULES,
    paladins.RULES,
    albus_academy.RULES,
]
GAMES: dict[str, Game[Any, Any, Any]] = {game.name: game for game in _ALL}
