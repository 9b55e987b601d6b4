"""Every game squire knows, by the id logs use in their header: each package under
`replay/games/` that holds a `RULES` record is one, found where it lies, so a new game is a new
package and nothing here changes."""

import importlib
import pkgutil
from typing import Any

from replay import games
from replay.game import Game


def _found() -> list[tuple[str, Game[Any, Any, Any]]]:
    found = []
    for module in pkgutil.iter_modules(games.__path__):
        rules = getattr(importlib.import_module(f"{games.__name__}.{module.name}"), "RULES", None)
        if isinstance(rules, Game):
            found.append((module.name, rules))
    return sorted(found, key=lambda pair: (pair[1].order, pair[1].name))


_FOUND = _found()
GAMES: dict[str, Game[Any, Any, Any]] = {game.name: game for _, game in _FOUND}
# The package of each game by its id: its engine is replay.games.<package>, and every other
# layer that has something of its own for a game finds it under the same name.
PACKAGES: dict[str, str] = {game.name: package for package, game in _FOUND}
