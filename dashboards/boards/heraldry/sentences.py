"""Heraldry's move log in words: cities placed and founded, knights recruited and moved (the
loot they take, the battles they win), villages and fortresses built, expeditions and
promotions to the next title. Heraldry hides nothing (`secrets` is False): every seat is told
the same."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dashboards.i18n import t
from dashboards.sentences import by_default, clause, joined, listed, said
from replay.facts import PiecesRemoved, ResourceChanged, ScoreChanged, TrackMoved, TrackRanked
from replay.games.heraldry import TITLES
from replay.replayer import Match, Step


def hex_(at: Any) -> str:
    """A hex by its axial coordinates, with true minus signs: "(−2, 0)"."""
    q, r = (at.q, at.r) if hasattr(at, "q") else (at[0], at[1])
    return f"({q}, {r})".replace("-", "−")


def sentences(match: Match, steps: Sequence[Step], lang: str, seat: int | None) -> list[str]:
    players = list(match.header.players)
    told = []
    for step in steps:
        event: Any = step.event
        kind = type(event).__struct_config__.tag
        who = getattr(event, "player", None)
        action = _action(kind, event, who, lang)
        if action is None:
            told.append(by_default(match, step, lang))
            continue
        told.append(joined(action, _clauses(step.facts, players, who, lang), lang))
    return told


def _clauses(facts: Sequence[Any], players: list[str], who: str | None, lang: str) -> list[str]:
    """The facts in Heraldry's words: a title by name, tokens by terrain, a battle's losses."""
    out: list[str] = []
    gained: dict[str, int] = {}
    paid: dict[str, int] = {}
    for fact in facts:
        if isinstance(fact, TrackMoved) and fact.track == "title":
            out.append(said("he_said_title", lang, title=t(TITLES[fact.after], lang)))
        elif isinstance(fact, TrackMoved) and fact.track in ("knights", "buildings", "score"):
            continue  # said by the action itself, or by the points it scored
        elif isinstance(fact, TrackRanked):
            continue  # a round here is one turn of each: its leaders are on the board
        elif isinstance(fact, ResourceChanged) and players[fact.seat] == who:
            side = gained if fact.delta > 0 else paid
            side[fact.resource] = side.get(fact.resource, 0) + abs(fact.delta)
        elif isinstance(fact, PiecesRemoved):
            out.append(
                said(
                    "he_said_removed",
                    lang,
                    victim=players[fact.victim],
                    count=fact.count,
                    piece=t(f"he_piece_{fact.piece}", lang),
                )
            )
        elif isinstance(fact, ScoreChanged):
            out.append(clause(fact, players, who, lang))
        else:
            out.append(clause(fact, players, who, lang))
    if gained:
        out.append(said("he_said_gains", lang, tokens=_tokens(gained, lang)))
    if paid:
        out.append(said("he_said_pays", lang, tokens=_tokens(paid, lang)))
    return [c for c in out if c]


def _tokens(counts: dict[str, int], lang: str) -> str:
    return listed([f"{n} {t(terrain, lang)}" for terrain, n in counts.items()], lang)


def _action(kind: str, event: Any, who: str | None, lang: str) -> str | None:
    if kind == "place_city":
        return said("he_say_place_city", lang, who=who, at=hex_(event.hex))
    if kind == "recruit":
        return said("he_say_recruit", lang, who=who, n=event.knights, at=hex_(event.city))
    if kind == "move":
        legs = [f"{hex_(s.from_)} → {hex_(s.to)}" for s in event.steps]
        text = said("he_say_move", lang, who=who, legs=listed(legs, lang))
        loot = [t(terrain, lang) for s in event.steps for terrain in s.loot]
        if loot:
            text += said("he_say_loot", lang, loot=listed(loot, lang))
        return text
    if kind == "build":
        sites = [
            said("he_site", lang, piece=t(f"he_piece_{s.piece}", lang), at=hex_(s.hex))
            for s in event.sites
        ]
        return said("he_say_build", lang, who=who, sites=listed(sites, lang))
    if kind == "found_city":
        return said("he_say_found_city", lang, who=who, at=hex_(event.hex))
    if kind == "expedition":
        return said("he_say_expedition", lang, who=who, at=hex_(event.hex))
    if kind == "promote":
        return said("he_say_promote", lang, who=who)
    if kind == "pass":
        return said("he_say_pass", lang, who=who)
    return None
