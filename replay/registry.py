"""Every game squire knows, by the id logs use in their header."""

from typing import Any

from replay.game import Game
from replay.games import knight_academy

GAMES: dict[str, Game[Any, Any, Any]] = {game.name: game for game in [knight_academy.RULES]}
