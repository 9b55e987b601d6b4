"""A refusal told to a person in the game's words. An engine's `RulesError` names components
by their ids ("KA-5: Bob picks sword-3 but holds king-2, charity-3"), which the command line
keeps (`PATH:LINE: RULE: message`); a page says "Bob picks Sword 3 but holds King 2, Charity 3",
each component named as the move log names it, in the page's language where its catalogue
gives that language a name.

Each game's package beside its board names its components through `component_name(item,
lang, catalogue)`: the name, or None for a word that is none of its components. A game without
it (Heraldry, whose messages name hexes and pieces in words already) keeps its messages as the
engine wrote them."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from replay.registry import GAMES

# A word of a message that may be a component's id: "sword-3", "pal-01", "S05".
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9_]*(?:-[A-Za-z0-9_]+)*")


def component_name(game: str, item: str, lang: str, catalogue: Any = None) -> str | None:
    """`item` as the game's move log names it, or None where it is no component of the game
    (of `catalogue`, where the match named one; else of the first catalogue found that holds
    it)."""
    if game not in GAMES:
        return None
    from dashboards.boards import board  # the boards import the pages' shared helpers

    named = getattr(board(game), "component_name", None)
    if named is None:
        return None
    found: str | None = named(item, lang, catalogue)
    return found


def game_of_rule(rule: str) -> str | None:
    """The game whose rules a rule id is of ("KA-5": Knight Academy); None for the log
    format's own (LOG-3)."""
    prefix = rule.partition("-")[0].lower()
    for name, game in GAMES.items():
        if game.short == prefix:
            return name
    return None


def in_game_words(
    message: str,
    game: str | None,
    lang: str,
    catalogue: Any = None,
    players: Collection[str] = (),
) -> str:
    """The engine's message with every component id in it named as the move log names it.
    A word of a player's name is left as it is, even where it reads like an id."""
    if game is None:
        return message
    keep = {word for player in players for word in _WORD.findall(player)}

    def named(found: re.Match[str]) -> str:
        word = found.group(0)
        if word in keep:
            return word
        return component_name(game, word, lang, catalogue) or word

    return _WORD.sub(named, message)
