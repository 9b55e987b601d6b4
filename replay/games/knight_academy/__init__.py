"""Knight Academy (骑士学院, Medieval Academy): a card draft with hidden hands, seven race
tracks and round scoring. Rules: rules/knight-academy.md (KA-1 to KA-22). The advanced rules
(KA-21) are the ruleset knight-academy/advanced, or the header option `advanced` on any
ruleset; each variant board (KA-22) is a ruleset of its own name (knight-academy/knights, …),
all six together knight-academy/all-boards."""

from replay.game import Game, Simulation, switch

from .bots import BOTS, lancelot_table, table
from .config import ADVANCED, ALL_BOARDS, BOARDS, STANDARD, TRACKS, VARIANT_BOARDS, Config
from .events import (
    Assign,
    Bonus,
    Choose,
    Codex,
    Deal,
    Event,
    Header,
    Lift,
    Mercy,
    Pick,
    Play,
    Shield,
    Split,
    Wager,
)
from .legal import chance_event, chance_outcomes, deal_at_random, expecting, legal_events, to_move
from .rules import apply, is_over, new_game
from .scoring import SOURCES, result
from .state import State, clone
from .view import render, resample, snapshot, view

__all__ = [
    "ADVANCED",
    "ALL_BOARDS",
    "BOARDS",
    "RULES",
    "SOURCES",
    "STANDARD",
    "TRACKS",
    "VARIANT_BOARDS",
    "Assign",
    "Bonus",
    "Choose",
    "Codex",
    "Config",
    "Deal",
    "Event",
    "Header",
    "Lift",
    "Mercy",
    "Pick",
    "Play",
    "Shield",
    "Split",
    "State",
    "Wager",
    "apply",
    "deal_at_random",
    "expecting",
    "is_over",
    "legal_events",
    "new_game",
    "result",
    "snapshot",
]

RULES: Game[Config, State, Event] = Game(
    name="knight-academy",
    title={"en": "Knight Academy", "zh": "骑士学院"},
    short="ka",
    order=1,
    header_type=Header,
    event_type=Event,
    config_type=Config,
    rulesets={
        "knight-academy/standard": STANDARD,
        "knight-academy/advanced": ADVANCED,
        **{f"knight-academy/{board}": config for board, config in VARIANT_BOARDS.items()},
        "knight-academy/all-boards": ALL_BOARDS,
    },
    standard_ruleset="knight-academy/standard",
    options={"advanced": switch("KA-21", STANDARD, ADVANCED)},
    sources=SOURCES,
    scoring_only=frozenset(
        {
            *("joust_prizes", "tournament_prizes", "education_penalties", "king_awards"),
            *("charity_penalties", "quest_prizes", "winning_knight_prizes"),
            *("losing_knight_prizes", "quest_shield_rates", "quest_last_rate"),
        }
    ),
    sources_of=lambda config: config.sources,
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
    variants=("base", "gawain", "lancelot"),
    engine_version="knight-academy/2",
    item_fields={"pick": "card", "play": "card"},
    simulation=Simulation(
        bots=BOTS,
        table=table,
        chance=chance_event,
        to_move=to_move,
        variants={"lancelot": lancelot_table},
    ),
)
