"""Albus Academy (阿不思学院): tiles placed in four rotations on a 3 × 4 board, linked
neighbours triggered by a cast, will and shards, spells and items as homework.
Rules: rules/albus-academy.md (AA-1 to AA-45); components: a catalogue (catalogue.py)."""

from replay.catalogues import Uses
from replay.game import Game, Simulation

from . import catalogue
from .bots import BOTS, options, table
from .config import STANDARD, Config
from .events import Event, Header
from .legal import chance_event, chance_outcomes, expecting, legal_events, to_move
from .rules import apply, close, is_over, new_game
from .scoring import SOURCES, result
from .state import State, clone
from .view import render, resample, snapshot, view

RULES: Game[Config, State, Event] = Game(
    name="albus-academy",
    title={"en": "Albus Academy", "zh": "阿不思学院"},
    short="aa",
    order=4,
    header_type=Header,
    event_type=Event,
    config_type=Config,
    rulesets={"albus-academy/standard": STANDARD},
    standard_ruleset="albus-academy/standard",
    sources=SOURCES,
    scoring_only=frozenset({"class_dismissed_prestige", "tie_break"}),
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
    # 2: a log that ends in the last turn's cast closes it, with its end-of-game facts
    engine_version="albus-academy/3",
    close=close,
    item_fields={
        "take_tile": "tile",
        "complete_homework": "card",
        "use_item": "item",
        "place_tile": "tile",
    },
    simulation=Simulation(
        bots=BOTS,
        table=table,
        chance=chance_event,
        to_move=to_move,
        options=options,
        stop=close,
        finished=lambda state: state.phase == "over",
        playouts="greedy",  # random play rarely completes homework (docs/search.md)
        reward="margin",
        horizon=8,  # clear of greedy at 96 matches, where 3 was not at 400 (docs/search.md)
        trust=1.0,
        # Early in a match the estimate misses what a tile or a homework is worth: cut through
        # eight rounds' ends, the analysis flagged 15 of 20 blunders planted in the first
        # halves of six samples; to the end, 18 of 20 (and 31 of 34 in the second halves,
        # none of 109 alike decisions in either; docs/review.md)
        analysis_rounds=None,
    ),
    catalogue=Uses(
        default=("albus-sample", "1"),
        rule="AA-34",
        pair=catalogue.header_name,
        decoded=catalogue.parse,
        checked=catalogue.parse,
    ),
)

__all__ = [
    "RULES",
    "SOURCES",
    "STANDARD",
    "Config",
    "Event",
    "Header",
    "State",
    "apply",
    "new_game",
    "result",
    "snapshot",
]
