"""Paladins of the West Kingdom (西国圣骑士): worker placement over seven rounds with six
worker colours, workshops, three attribute tracks and a catalogue of cards.
Rules: rules/paladins.md (PA-1 to PA-65); cards: a catalogue (catalogue.py)."""

from replay.catalogues import Uses
from replay.game import Game, Simulation

from . import catalogue
from .bots import BOTS, table, weighed_alike
from .config import STANDARD, Config
from .events import Event, Header
from .legal import chance_event, chance_outcomes, expecting, legal_events, to_move
from .rules import apply, is_over, new_game
from .scoring import SOURCES, result
from .state import State, clone
from .view import render, resample, snapshot, view

RULES: Game[Config, State, Event] = Game(
    name="paladins",
    title={"en": "Paladins of the West Kingdom", "zh": "西国圣骑士"},
    short="pa",
    order=3,
    header_type=Header,
    event_type=Event,
    config_type=Config,
    rulesets={"paladins/standard": STANDARD},
    standard_ruleset="paladins/standard",
    sources=SOURCES,
    scoring_only=frozenset(
        {"attribute_vp", "order_vp", "debt_unpaid_vp", "debt_paid_vp", "suspicion_vp"}
    ),
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
    engine_version="paladins/2",
    item_fields={
        "recruit": "card",
        "attack": "card",
        "convert": "card",
        "take_tavern": "card",
        "choose_paladin": "paladin",
        "draw_wall": "card",
        "commission": "square",
        "garrison": "square",
        "favour": "card",
    },
    simulation=Simulation(
        bots=BOTS,
        table=table,
        chance=chance_event,
        to_move=to_move,
        # a greedy playout costs ten random ones here; its pick first costs one a node
        guide="greedy",
        trust=1.0,
        # a recruit or a debt pays off rounds later: cut at the round's end, the analysis
        # flagged 5 of 8 planted blunders and 1 of 13 moves that lost nothing; through three
        # rounds' ends, all 8 and none (of 19 plants in five samples, 16; to the end, 17; with
        # more samples for an undecided loss, 18; docs/review.md)
        analysis_rounds=3,
        # a turn's sixty moves are some sixteen kinds, each action paid with other colours:
        # the quick pass plays one of each, and flags what it flagged playing every move
        alike=weighed_alike,
    ),
    catalogue=Uses(
        default=("squire-sample", "1"),
        rule="PA-42",
        pair=catalogue.declared,
        decoded=lambda data, where: catalogue.parse(data, None, where),
        checked=lambda data, where: catalogue.parse(data, STANDARD, where),
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
