"""Each game's part of the dashboards: a package per game under the name of its engine's
package (`replay.registry.PACKAGES`), found by the game's record, so that a new game adds its
package here and changes no shared file.

A game's package gives the match viewer `figure(view, players, event)` (the state drawn, the
current event's hexes or discs picked out), `tables(view, players, lang)` (the seats' panel as
titled tables, which the page and the HTML export both show) and `side(view, players)` (that
panel drawn), `sentences(match, steps, lang, seat)` (the move log: one sentence a step, told as
the seat could tell it; `dashboards.sentences` holds the words every game shares),
`caption(view)` and `anchors(events)` (where the jump list may go); its `labels` module holds
the game's words in every language (`LABELS`, as `dashboards.i18n`'s), `event_<kind>` for every
kind of event among them, and its `rulesets` module the names of its rule sets, settings and
catalogues (`dashboards.rulesets`). It may also give:

- `beneath(game_id, players, view, perspective)`: what the viewer shows of the match below the
  board (Knight Academy's draft);
- `balance(flt)`: Balance's section on the game's components, in place of the shared table of
  what seats took;
- `component(item, lang)`: a component's name for that shared table (a card by its catalogue
  name, a tile by what it does);
- `component_name(item, lang, catalogue)`: a component as the move log names it, or None for a
  word that is none, for a refusal told in the game's words (`dashboards.refusals`).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from replay.registry import PACKAGES


def board(game: str) -> ModuleType:
    """The dashboards' package of the game called `game`."""
    return importlib.import_module(f"{__name__}.{PACKAGES[game]}")


def labels(game: str) -> dict[str, dict[str, str]]:
    """The game's words, by key and language: its `labels`, and the names of its rule sets,
    settings and catalogues in its `rulesets` (`dashboards.rulesets`)."""
    found: dict[str, dict[str, str]] = {}
    for module in ("labels", "rulesets"):
        found.update(importlib.import_module(f"{__name__}.{PACKAGES[game]}.{module}").LABELS)
    return found
