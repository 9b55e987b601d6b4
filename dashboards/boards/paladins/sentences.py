"""Paladins' move log in words: the displays and the king's cards revealed, the paladins
chosen and the tavern's workers taken, every action with the workers it took, and what each
brought (silver, provisions, workers, tracks, VP).

What a seat saw: a paladin chosen lies face down until it is revealed (PA-10, PA-11), and the
cards put back under the paladin deck with it; a suspicion or wall card drawn is its drawer's.
Told to another seat, those are "a paladin", "a card"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dashboards.i18n import t
from dashboards.sentences import by_default, clause, joined, listed, said
from replay.facts import ResourceChanged, TrackMoved
from replay.replayer import Match, Step

from . import words


def sentences(match: Match, steps: Sequence[Step], lang: str, seat: int | None) -> list[str]:
    players = list(match.header.players)
    mine = None if seat is None else players[seat]
    cat = match.catalogue
    told = []
    for step in steps:
        event: Any = step.event
        kind = type(event).__struct_config__.tag
        who = getattr(event, "player", None)
        sees = mine is None or who == mine

        def named(card: str) -> str:
            return words.name(card, lang, cat)

        action = _action(kind, event, who, sees, named, lang)
        if action is None:
            told.append(by_default(match, step, lang))
            continue
        spent = getattr(event, "workers", None) or ()
        told.append(joined(action, _clauses(step.facts, players, who, lang, spent), lang))
    return told


def _clauses(
    facts: Sequence[Any], players: list[str], who: str | None, lang: str, spent: Sequence[str]
) -> list[str]:
    """The facts in Paladins' words: what each seat gained or gave up, summed by kind (workers
    by colour), less the workers the action was said to take (`spent`); tracks without their
    effective values (the board shows those); the rest as every game says them."""
    out: list[str] = []
    net: dict[str, dict[str, int]] = {}
    for colour in spent:
        net.setdefault(who or "", {})[colour] = net.get(who or "", {}).get(colour, 0) + 1
    for fact in facts:
        if "effective_" in str(getattr(fact, "track", "")):
            continue
        if isinstance(fact, ResourceChanged):
            mine = net.setdefault(players[fact.seat], {})
            mine[fact.resource] = mine.get(fact.resource, 0) + fact.delta
            continue
        if isinstance(fact, TrackMoved):  # why it moved is the action's sentence itself
            whose = "" if players[fact.seat] == who else f"{players[fact.seat]} "
            out.append(f"{whose}{t(fact.track, lang)} {fact.before} → {fact.after}")
            continue
        out.append(clause(fact, players, who, lang))
    changes = []
    for seat, held in net.items():
        whose = "" if seat == who else f"{seat} "
        for resource, delta in held.items():
            if delta:
                sign = "+" if delta > 0 else "−"
                changes.append(f"{whose}{sign}{words.amount(abs(delta), resource, lang)}")
    return [c for c in (*changes, *out) if c]


def _action(
    kind: str, event: Any, who: str | None, sees: bool, named: Any, lang: str
) -> str | None:
    hands = words.workers(getattr(event, "workers", ()) or (), lang)
    if kind == "reveal_townsfolk":
        return said("pa_say_reveal_townsfolk", lang, cards=listed(map(named, event.cards), lang))
    if kind == "reveal_outsiders":
        return said("pa_say_reveal_outsiders", lang, cards=listed(map(named, event.cards), lang))
    if kind == "reveal_king":
        return said("pa_say_reveal_king", lang, card=named(event.card))
    if kind == "reveal_tavern":
        offers = [f"[{named(c)}]" for c in event.cards]
        return said("pa_say_reveal_tavern", lang, cards=listed(offers, lang))
    if kind == "choose_paladin":
        if sees:
            return said("pa_say_choose_paladin", lang, who=who, card=named(event.paladin))
        return said("pa_say_choose_paladin_hidden", lang, who=who)
    if kind == "take_tavern":
        return said("pa_say_take_tavern", lang, who=who, workers=named(event.card))
    if kind in ("draw_suspicion", "draw_wall"):
        if sees:
            return said(f"pa_say_{kind}", lang, who=who, card=named(event.card))
        return said(f"pa_say_{kind}_hidden", lang, who=who)
    if kind == "pass":
        return said("pa_say_pass", lang, who=who, workers=words.workers(event.keep, lang))
    fields: dict[str, object] = {"who": who, "workers": hands}
    if kind == "develop":
        fields["action"] = t(f"event_{event.action}", lang)
    elif kind in ("recruit", "attack", "convert") or kind == "favour":
        fields["card"] = named(event.card)
    elif kind in ("commission", "garrison"):
        fields["square"] = named(event.square)
    elif kind == "pray":
        fields["space"] = t(f"event_{event.space}", lang)
    elif kind == "absolve":
        fields["spot"] = event.spot
    elif kind not in ("hunt", "trade", "scheme", "build_wall"):
        return None
    text = said(f"pa_say_{kind}", lang, **fields)
    if kind == "recruit" and event.pay == "debt":
        text += t("pa_say_on_debt", lang)
    return text
