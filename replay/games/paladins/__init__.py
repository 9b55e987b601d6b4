"""Paladins of the West Kingdom (西国圣骑士): worker placement over seven rounds with six
worker colours, workshops, three attribute tracks and a catalogue of cards.
Rules: rules/paladins.md (PA-1 to PA-65); cards: a catalogue (catalogue.py)."""

from replay.catalogues import CatalogueError, named_in
from replay.errors import RulesError
from replay.game import Game, Simulation

from .bots import BOTS, table
from .catalogue import Catalogue, check
from .config import STANDARD, Config
from .events import Event, Header
from .legal import chance_event, legal_events, to_move
from .rules import apply, expecting, is_over
from .rules import new_game as _new_game
from .scoring import SOURCES, result
from .state import State
from .view import render, snapshot

DEFAULT_CATALOGUE = ("squire-sample", "1")


def catalogue_of(header: Header) -> Catalogue:
    """PA-42: the catalogue a header names."""
    found: Catalogue = named_in(header, "paladins", DEFAULT_CATALOGUE, "PA-42")
    return found


def new_game(config: Config, header: Header) -> State:
    catalogue = catalogue_of(header)
    try:
        check(catalogue, config)
    except CatalogueError as err:
        raise RulesError("PA-42", f"catalogue {catalogue.name} {catalogue.version}: {err}") \
            from None
    return _new_game(config, header, catalogue)




RULES: Game[Config, State, Event] = Game(
    name="paladins",
    title={"en": "Paladins of the West Kingdom", "zh": "西国圣骑士"},
    header_type=Header,
    event_type=Event,
    config_type=Config,
    rulesets={"paladins/standard": STANDARD},
    standard_ruleset="paladins/standard",
    sources=SOURCES,
    new_game=new_game,
    apply=apply,
    legal_events=legal_events,
    expecting=expecting,
    is_over=is_over,
    result=result,
    snapshot=snapshot,
    render=render,
    engine_version="paladins/1",
    item_fields={"recruit": "card", "attack": "card", "convert": "card", "take_tavern": "card",
                 "choose_paladin": "paladin", "draw_wall": "card", "commission": "square",
                 "garrison": "square", "favour": "card"},
    simulation=Simulation(bots=BOTS, table=table, chance=chance_event, to_move=to_move),
)

__all__ = ["RULES", "SOURCES", "STANDARD", "Config", "Event", "Header", "State", "apply",
           "catalogue_of", "new_game", "result", "snapshot"]
