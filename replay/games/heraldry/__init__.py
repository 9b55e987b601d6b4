"""Heraldry (骑士纹章): knights, villages, fortresses and cities on a hex map; battles,
resource tokens and titles. Rules: rules/heraldry.md (HE-1 to HE-22)."""

from replay.game import Game, Simulation

from .board import Board, build_board
from .bots import BOTS, table
from .config import STANDARD, TERRAINS, TITLES, Config
from .events import (
    Build,
    Event,
    Expedition,
    FoundCity,
    Header,
    MapHex,
    Move,
    Pass,
    PlaceCity,
    Promote,
    Recruit,
    Site,
    Step,
)
from .legal import chance_event, chance_outcomes, expecting, has_action, legal_events, menu, to_move
from .rules import apply, is_over, new_game
from .scoring import SOURCES, result
from .state import State, clone
from .view import render, resample, snapshot, view

__all__ = [
    "MAX_EVENTS",
    "RULES",
    "SOURCES",
    "STANDARD",
    "TERRAINS",
    "TITLES",
    "Board",
    "Build",
    "Config",
    "Event",
    "Expedition",
    "FoundCity",
    "Header",
    "MapHex",
    "Move",
    "Pass",
    "PlaceCity",
    "Promote",
    "Recruit",
    "Site",
    "State",
    "Step",
    "apply",
    "build_board",
    "expecting",
    "has_action",
    "is_over",
    "legal_events",
    "new_game",
    "render",
    "result",
    "snapshot",
]

# HE-15 ends a match only when someone becomes duke; bots that run out of ways to earn tokens
# would play on for ever. Simulated matches stop here, written as incomplete logs.
MAX_EVENTS = 3000

RULES: Game[Config, State, Event] = Game(
    name="heraldry",
    title={"en": "Heraldry", "zh": "骑士纹章"},
    short="he",
    order=2,
    secrets=False,
    header_type=Header,
    event_type=Event,
    config_type=Config,
    rulesets={"heraldry/standard": STANDARD},
    standard_ruleset="heraldry/standard",
    sources=SOURCES,
    scoring_only=frozenset({"city_points", "title_points", "token_end"}),
    new_game=new_game,
    apply=apply,
    legal_events=legal_events,
    expecting=expecting,
    is_over=is_over,
    result=result,
    snapshot=snapshot,
    render=render,
    view=view,
    chance_outcomes=chance_outcomes,
    resample=resample,
    clone=clone,
    engine_version="heraldry/2",
    item_fields={},
    simulation=Simulation(
        bots=BOTS,
        table=table,
        chance=chance_event,
        to_move=to_move,
        options=menu,
        max_events=MAX_EVENTS,
        # random play rarely builds or founds what scores: a search by it lost to greedy
        playouts="greedy",
        trust=1.0,
        analysis_rounds=5,
    ),
)
