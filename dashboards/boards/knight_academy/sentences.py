"""Knight Academy's move log in words: the deal, the draft, the plays and the round's scoring,
the lancelot rounds (KA-20) and the variant boards (KA-22).

What a seat saw: a card kept in the draft lies face down until it is played (KA-5), a hand
dealt is its holder's, lancelot's piles and the cards laid under the colours lie face down
(KA-20), the codex's shields and the codex points a seat keeps are its own (KA-22c). Told to
another seat, those are "a card", "two piles", "a shield"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dashboards.i18n import t
from dashboards.sentences import by_default, clause, joined, listed, said
from replay.facts import ScoreChanged, TrackMoved
from replay.games.knight_academy.cards import card_type_value
from replay.replayer import Match, Step, start


def card(name: str, lang: str) -> str:
    """ "Sword 4" / "剑 4": a card by its type and value."""
    kind, value = card_type_value(name)
    return f"{t(f'ka_card_{kind}', lang)} {value}"


def cards(names: Sequence[str], lang: str) -> str:
    return listed([card(c, lang) for c in names], lang)


def sentences(match: Match, steps: Sequence[Step], lang: str, seat: int | None) -> list[str]:
    players = list(match.header.players)
    state = start(match)
    # The seats a player plays (itself, or its colours in lancelot): what it may be told.
    everyone = seat is None
    mine: set[str] = set()
    if seat is not None:
        mine = {players[seat]} | {
            state.players[s] for s, owner in enumerate(state.owners) if owner == seat
        }
    names = list(state.players)  # the facts' seats: the players, or lancelot's colours
    at: dict[tuple[str, str], int] = {}  # where each seat's disc stands on each track
    told = []
    for step in steps:
        event: Any = step.event
        kind = type(event).__struct_config__.tag
        who = getattr(event, "player", None)
        sees = everyone or who in mine
        action = _action(kind, event, who, sees, lang)
        clauses = []
        for fact in step.facts:
            owner = names[fact.seat] if hasattr(fact, "seat") and fact.seat < len(names) else ""
            if (
                isinstance(fact, ScoreChanged)
                and fact.source == "codex"
                and not (everyone or owner in mine)
            ):
                continue  # KA-22c: the codex points a seat keeps are its own
            clauses.append(clause(fact, names, who, lang))
            if isinstance(fact, TrackMoved):
                passed = [
                    other
                    for (other, track), square in at.items()
                    if track == fact.track
                    and other != owner
                    and fact.before <= square < fact.after
                    and fact.cause != "reset"
                ]
                if passed and kind == "play":
                    clauses.append(said("ka_said_passes", lang, whom=listed(passed, lang)))
                at[owner, fact.track] = fact.after
        if action is None:
            told.append(by_default(match, step, lang))
        else:
            told.append(joined(action, [c for c in clauses if c], lang))
    return told


def _action(kind: str, event: Any, who: str | None, sees: bool, lang: str) -> str | None:
    """What the event did, before its facts; None for an event with no words of its own."""
    if kind == "deal":
        if sees:
            return said("ka_say_deal", lang, who=who, cards=cards(event.cards, lang))
        return said("ka_say_deal_hidden", lang, who=who, n=len(event.cards))
    if kind == "pick":
        if sees:
            return said("ka_say_pick", lang, who=who, card=card(event.card, lang))
        return said("ka_say_pick_hidden", lang, who=who)
    if kind == "play":
        kind_of, _ = card_type_value(event.card)
        shown = card(event.card, lang)
        if event.track is None or event.track == kind_of:
            text = said("ka_say_play", lang, who=who, card=shown)
        else:
            text = said("ka_say_play_on", lang, who=who, card=shown, track=t(event.track, lang))
        if event.peek is not None:
            text += said("ka_say_peek", lang, slot=event.peek)
        if event.scrolls:
            text += said("ka_say_scrolls", lang, squares=listed(map(str, event.scrolls), lang))
        return text
    if kind in ("bonus", "lift"):
        if event.track is None:
            return said(f"ka_say_{kind}_none", lang, who=who)
        return said(f"ka_say_{kind}", lang, who=who, track=t(event.track, lang))
    if kind == "wager":
        return said("ka_say_wager", lang, who=who, track=t(event.track, lang))
    if kind == "codex":
        return said("ka_say_codex", lang, n=len(event.shields))
    if kind == "shield":
        return said("ka_say_shield", lang, who=who, slot=event.slot)
    if kind == "mercy":
        gives = t("ka_nothing", lang) if event.give is None else f"{event.give:+d}"
        takes = listed([f"{v:+d}" for v in event.take], lang) or t("ka_nothing", lang)
        return said("ka_say_mercy", lang, who=who, other=event.other, give=gives, take=takes)
    if kind == "split":
        if sees:
            piles = " | ".join(cards(pile, lang) for pile in event.piles)
            return said("ka_say_split", lang, who=who, piles=piles)
        return said("ka_say_split_hidden", lang, who=who)
    if kind == "choose":
        return said("ka_say_choose", lang, who=who, pile=event.pile)
    if kind == "assign":
        if sees:
            laid = "; ".join(
                f"{t(f'ka_colour_{colour}', lang)}: {cards(under, lang)}"
                for colour, under in event.colours.items()
            )
            return said("ka_say_assign", lang, who=who, laid=laid)
        return said("ka_say_assign_hidden", lang, who=who)
    return None
