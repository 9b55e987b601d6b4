"""Paladins' move log in words: the displays and the king's cards revealed, the paladins
chosen and the tavern's workers taken, every action with the workers it took, and what each
brought each seat (silver, provisions, workers, tracks, VP, debts repaid, the abilities that
fired), then where a round ends who leads, and at the end the scores.

The engine's facts say the workers, tracks and VP; silver, provisions, debts repaid and
suspicion cards are no facts, so the match is replayed alongside and each seat's holdings
compared before and after each event.

What a seat saw (view.py): a paladin chosen lies face down until its player takes a tavern
card (PA-10, PA-11), and the two put back into the deck are its player's alone; told to
another seat, that is "a paladin". Everything else these sentences name lies face up."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dashboards.i18n import t
from dashboards.sentences import by_default, joined, listed, said
from replay.errors import ReplayError, RulesError
from replay.facts import ResourceChanged, TrackMoved, TrackRanked
from replay.games.paladins.catalogue import Catalogue
from replay.games.paladins.effects import reward as reward_of
from replay.log import Final
from replay.replayer import Match, Step, start
from replay.replayer import steps as replayed

from . import words

TRACKS = ("faith", "strength", "influence")
# The acts whose abilities fire as they are taken (PA-57); scheme and build_wall fire at their
# draw (PA-65).
ACTS = (
    "develop",
    "recruit",
    "hunt",
    "trade",
    "pray",
    "commission",
    "garrison",
    "absolve",
    "attack",
    "convert",
    "favour",
)
DRAWS = {"draw_suspicion": "scheme", "draw_wall": "build_wall"}
SAID_ALREADY = ("paladin", "tavern", "ability")  # worker gains the action's words say


@dataclass(frozen=True, slots=True)
class Holding:
    """What a seat holds that the facts do not say, and what decides its abilities."""

    silver: int
    provisions: int
    repaid: int
    suspicion: int
    team: tuple[str, ...]
    paladin: str | None


@dataclass(frozen=True, slots=True)
class Moment:
    seats: tuple[Holding, ...]
    pending_team: int  # the team's size when a scheme or a wall awaits its draw (PA-65)
    orders: int  # the king's orders revealed so far
    start_player: int
    scores: tuple[int, ...] | None  # once the game is over


def sentences(match: Match, steps: Sequence[Step], lang: str, seat: int | None) -> list[str]:
    players = list(match.header.players)
    # a seat past the last is the table, whose player is nobody's
    mine = None if seat is None else players[seat] if seat < len(players) else ""
    moments = _moments(match, steps)
    told = []
    for step in steps:
        event: Any = step.event
        kind = type(event).__struct_config__.tag
        pair = moments.get(step.index)
        text = None
        if pair is not None and not isinstance(event, Final):
            text = _told(match, step, kind, pair[0], pair[1], players, mine, lang)
        told.append(text if text is not None else by_default(match, step, lang))
    return told


def _moments(match: Match, steps: Sequence[Step]) -> dict[int, tuple[Moment, Moment]]:
    """Each step's moment before and after it, from a replay alongside: the steps' own events
    where they run from the first, else the log's events up to the last step asked for."""
    wanted = [s for s in steps if not isinstance(s.event, Final)]
    out: dict[int, tuple[Moment, Moment]] = {}
    if not wanted:
        return out
    try:
        state = start(match)
        before = _moment(match, state)
        if [s.index for s in wanted] == list(range(1, len(wanted) + 1)):
            for s in wanted:
                match.game.apply(state, s.event)
                after = _moment(match, state)
                out[s.index] = (before, after)
                before = after
            return out
        last = wanted[-1].index
        for s in replayed(match, state):
            after = _moment(match, state)
            out[s.index] = (before, after)
            before = after
            if s.index >= last:
                break
    except (RulesError, ReplayError):  # a log the replayer refused: the facts alone then
        pass
    return out


def _moment(match: Match, state: Any) -> Moment:
    over = state.phase == "over"
    return Moment(
        seats=tuple(
            Holding(
                me.silver,
                me.provisions,
                me.repaid,
                len(me.suspicion),
                tuple(me.team),
                me.paladin,
            )
            for me in state.board
        ),
        pending_team=state.pending_team,
        orders=len(state.orders),
        start_player=state.start_player,
        scores=tuple(match.game.result(state).scores) if over else None,
    )


def _told(
    match: Match,
    step: Step,
    kind: str,
    before: Moment,
    after: Moment,
    players: list[str],
    mine: str | None,
    lang: str,
) -> str | None:
    cat: Catalogue | None = match.catalogue
    event: Any = step.event
    action = _action(match, kind, event, before, after, mine, lang, setup=step.round == 0)
    if action is None:
        return None
    who = getattr(event, "player", None)
    seat = players.index(who) if who in players else None
    fired = _fired(cat, kind, seat, before, after)
    ended = any(isinstance(f, TrackRanked) for f in step.facts)
    if ended:  # the last pass: the round's clean-up fired the round_end abilities
        fired += _round_end(cat, before)
    reward = _reward(match, kind, event) if seat is not None else {}
    clauses = _clauses(step, players, seat, before, after, fired, reward, cat, lang)
    said_ = joined(action, clauses, lang)
    if ended:
        said_ += t("pa_then", lang) + _round_over(step, players, after, lang)
    return said_


def _action(
    match: Match,
    kind: str,
    event: Any,
    before: Moment,
    after: Moment,
    mine: str | None,
    lang: str,
    setup: bool,
) -> str | None:
    """What the event did, in words, before what it brought; `setup`: before round 1, when
    the displays are first filled (PA-42)."""
    cat: Catalogue | None = match.catalogue

    def named(card: str) -> str:
        return words.name(card, lang, cat)

    def cards(ids: Sequence[str]) -> str:
        return listed([named(c) for c in ids], lang)

    who: str = getattr(event, "player", "")
    crew = words.workers(getattr(event, "workers", ()) or (), lang)
    if kind in ("reveal_townsfolk", "reveal_outsiders"):
        display = kind.removeprefix("reveal_")
        key = f"pa_say_{display}_setup" if setup else f"pa_say_{display}"
        return said(key, lang, cards=cards(event.cards))
    if kind == "reveal_king":
        found = words.entry(event.card, cat)
        if found is not None and found[0] == "order":
            n = before.orders + 1
            scored = match.config.order_vp
            vp = scored[n - 1] if n <= len(scored) else None
            goal = words.effect(event.card, lang, cat, vp=vp)
            return said("pa_say_order", lang, n=n, card=named(event.card), goal=goal)
        detail = t("pa_semicolon", lang).join(
            p
            for p in (words.price(event.card, lang, cat), words.effect(event.card, lang, cat))
            if p
        )
        return said("pa_say_favour_card", lang, card=named(event.card), detail=detail)
    if kind == "reveal_tavern":
        offers = [named(c) for c in event.cards]
        return said("pa_say_tavern", lang, cards=t("pa_semicolon", lang).join(offers))
    if kind == "choose_paladin":
        if mine is not None and mine != who:
            return said("pa_say_choose_hidden", lang, who=who)
        return said(
            "pa_say_choose",
            lang,
            who=who,
            card=named(event.paladin),
            top=named(event.top),
            bottom=named(event.bottom),
        )
    if kind == "take_tavern":
        seat = list(match.header.players).index(who)
        paladin = after.seats[seat].paladin
        return said(
            "pa_say_take_tavern",
            lang,
            who=who,
            paladin=named(paladin) if paladin else "—",
            own=words.price(paladin, lang, cat) if paladin else "—",
            tavern=words.price(event.card, lang, cat),
        )
    if kind == "develop":
        return said(
            "pa_say_develop", lang, who=who, workers=crew, action=words.act(event.action, lang)
        )
    if kind == "recruit":
        key = "pa_say_quest" if len(event.workers) == 1 else "pa_say_recruit"
        text = said(key, lang, who=who, workers=crew, card=named(event.card))
        return text + (t("pa_say_on_debt", lang) if event.pay == "debt" else "")
    if kind in ("hunt", "trade", "scheme", "build_wall"):
        return said(f"pa_say_{kind}", lang, who=who, workers=crew)
    if kind == "pray":
        return said("pa_say_pray", lang, who=who, workers=crew, space=words.act(event.space, lang))
    if kind == "draw_suspicion":
        return said(
            "pa_say_draw_suspicion", lang, who=who, card=words.suspicion(event.card, lang, cat)
        )
    if kind in ("commission", "garrison"):
        return said(f"pa_say_{kind}", lang, who=who, workers=crew, square=named(event.square))
    if kind == "draw_wall":
        found = words.entry(event.card, cat)
        gives = (
            words.gives(found[1].entry("wall", event.card).reward, lang) if found else event.card
        )
        return said("pa_say_draw_wall", lang, who=who, gives=gives)
    if kind == "absolve":
        spots = match.config.jar_spots
        gives = words.gives(spots[event.spot - 1], lang) if 0 < event.spot <= len(spots) else ""
        return said("pa_say_absolve", lang, who=who, workers=crew, spot=event.spot, gives=gives)
    if kind in ("attack", "convert"):
        return said(f"pa_say_{kind}", lang, who=who, workers=crew, card=named(event.card))
    if kind == "favour":
        text = said("pa_say_favour", lang, who=who, workers=crew, card=named(event.card))
        if event.townsfolk:
            text += said("pa_say_favour_recruit", lang, card=named(event.townsfolk))
        if event.space:
            text += said("pa_say_favour_pray", lang, space=words.act(event.space, lang))
        return text
    if kind == "pass":
        if not event.keep:
            return said("pa_say_pass_empty", lang, who=who)
        return said("pa_say_pass", lang, who=who, workers=words.workers(event.keep, lang))
    return None


Fired = list[tuple[int, str, Mapping[str, int]]]  # seat, card, reward


def _reward(match: Match, kind: str, event: Any) -> Mapping[str, int]:
    """What the action's card, square, space or draw gives its actor, as printed (the cost
    paid is what the actor's holdings fell short of it)."""
    cat: Catalogue | None = match.catalogue
    config = match.config
    if kind in ("hunt", "trade"):
        table = config.hunt_provisions if kind == "hunt" else config.trade_silver
        count = len(event.workers)
        unit = "prov" if kind == "hunt" else "silver"
        return {unit: table[count - 1]} if 0 < count <= len(table) else {}
    if kind == "absolve":
        spots = config.jar_spots
        return reward_of(spots[event.spot - 1]) if 0 < event.spot <= len(spots) else {}
    if cat is None:
        return {}
    parsed = cat.parsed
    found: Any = {}
    if kind == "recruit":
        field = "quest" if len(event.workers) == 1 else "recruit"
        found = parsed["townsfolk"].get(event.card, {}).get(field, {})
    elif kind in ("commission", "garrison"):
        found = parsed["square"].get(event.square, {}).get("reward", {})
    elif kind == "draw_wall":
        found = parsed["wall"].get(event.card, {}).get("reward", {})
    elif kind in ("attack", "convert"):
        found = parsed["outsider"].get(event.card, {}).get(kind, {})
    elif kind == "draw_suspicion" and event.card in cat.entries["suspicion"]:
        found = {"silver": cat.entry("suspicion", event.card).tax}
    elif kind == "favour":
        found = parsed["favour"].get(event.card, {}).get("effect", {})
        if found == "recruit" and event.townsfolk:
            found = parsed["townsfolk"].get(event.townsfolk, {}).get("recruit", {})
    return found if isinstance(found, Mapping) else {}


def _abilities(
    cat: Catalogue, paladin: str | None, team: Sequence[str]
) -> Iterator[tuple[str, Any]]:
    """A seat's abilities in firing order (PA-57): its paladin, then its team as it joined."""
    if paladin is not None and paladin in cat.parsed["paladin"]:
        yield paladin, cat.parsed["paladin"][paladin]["ability"]
    for card in team:
        if card in cat.parsed["townsfolk"]:
            yield card, cat.parsed["townsfolk"][card]["ability"]


def _fired(
    cat: Catalogue | None, kind: str, seat: int | None, before: Moment, after: Moment
) -> Fired:
    """The abilities the event fired, with what each gave (PA-57, PA-59, PA-65)."""
    if cat is None or seat is None:
        return []
    me = before.seats[seat]
    if kind == "take_tavern":  # round_start, once the paladin shows
        return [
            (seat, card, a.reward)
            for card, a in _abilities(cat, after.seats[seat].paladin, me.team)
            if a.kind == "round_start"
        ]
    act = DRAWS.get(kind, kind)
    if act not in ACTS and kind not in DRAWS:
        return []
    team = me.team[: before.pending_team] if kind in DRAWS else me.team
    out: Fired = [
        (seat, card, a.reward)
        for card, a in _abilities(cat, me.paladin, team)
        if a.kind == "action" and a.act == act
    ]
    n = len(before.seats)
    for k in range(1, n):
        other = (seat + k) % n
        out += [
            (other, card, a.reward)
            for card, a in _abilities(cat, None, before.seats[other].team)
            if a.kind == "rival" and a.act == act
        ]
    return out


def _round_end(cat: Catalogue | None, before: Moment) -> Fired:
    """The round_end abilities of a clean-up, seats from the start player (PA-39, PA-59)."""
    if cat is None:
        return []
    n = len(before.seats)
    out: Fired = []
    for k in range(n):
        seat = (before.start_player + k) % n
        out += [
            (seat, card, a.reward)
            for card, a in _abilities(cat, None, before.seats[seat].team)
            if a.kind == "round_end"
        ]
    return out


def _signed(delta: int, unit: str, lang: str) -> str:
    return f"{'+' if delta > 0 else '−'}{words.amount(abs(delta), unit, lang)}"


def _clauses(
    step: Step,
    players: list[str],
    actor: int | None,
    before: Moment,
    after: Moment,
    fired: Fired,
    reward: Mapping[str, int],
    cat: Catalogue | None,
    lang: str,
) -> list[str]:
    """What each seat gained or gave up, the actor first: the silver and provisions the
    action cost, then those it gave (`reward`: what the action's card, square or space
    gives the actor; the abilities' own said with their cards), workers gained, tracks, VP,
    debts repaid, suspicion cards removed; then the abilities that fired and the
    inquisition's losses."""
    n = len(players)
    by_ability: dict[int, dict[str, int]] = {}
    for whose, _, gave in fired:
        held = by_ability.setdefault(whose, {})
        for unit, k in gave.items():
            held[unit] = held.get(unit, 0) + k
    order = ([actor] if actor is not None else []) + [s for s in range(n) if s != actor]
    out: list[str] = []
    for seat in order:
        mine: list[str] = []
        was, now = before.seats[seat], after.seats[seat]
        extra = by_ability.get(seat, {})
        paid, got = [], []
        for unit, delta in (
            ("silver", now.silver - was.silver - extra.get("silver", 0)),
            ("prov", now.provisions - was.provisions - extra.get("prov", 0)),
        ):
            if seat != actor:
                if delta:
                    got.append(_signed(delta, unit, lang))
                continue
            given = reward.get(unit, 0)
            if delta < given:  # the cost, paid before the reward came (PA-57)
                paid.append(words.amount(given - delta, unit, lang))
            if given or delta > given:
                got.append(_signed(max(given, delta), unit, lang))
        if paid:
            mine.append(said("pa_pays", lang, what=t("pa_comma", lang).join(paid)))
        mine += got
        gained: dict[str, int] = {}
        moved: dict[str, list[int]] = {}
        vp = 0
        lost_vp = 0
        for fact in step.facts:
            if getattr(fact, "seat", None) != seat:
                continue
            if isinstance(fact, ResourceChanged):
                if fact.delta > 0 and fact.cause not in SAID_ALREADY:
                    gained[fact.resource] = gained.get(fact.resource, 0) + fact.delta
            elif isinstance(fact, TrackMoved) and fact.cause != "ability":
                if fact.track in TRACKS:
                    span = moved.setdefault(fact.track, [fact.before, fact.after])
                    span[1] = fact.after
                elif fact.track == "vp" and fact.cause == "inquisition":
                    lost_vp += fact.after - fact.before
                elif fact.track == "vp":
                    vp += fact.after - fact.before
        mine += [_signed(k, colour, lang) for colour, k in gained.items()]
        mine += [
            said("pa_said_track", lang, track=t(f"pa_track_{track}", lang), before=b, after=a)
            for track, (b, a) in moved.items()
            if a != b
        ]
        if vp:
            mine.append(_signed(vp, "vp", lang))
        if now.repaid > was.repaid:
            mine.append(words.amount(now.repaid - was.repaid, "repay", lang))
        if now.suspicion < was.suspicion:
            mine.append(_signed(now.suspicion - was.suspicion, "suspicion", lang))
        for whose, card, gave in fired:
            if whose == seat and gave:
                what = t("pa_comma", lang).join(_signed(k, u, lang) for u, k in gave.items())
                name = words.name(card, lang, cat)
                mine.append(said("pa_said_by", lang, what=what, card=name))
        if lost_vp:
            what = _signed(lost_vp, "vp", lang)
            mine.append(said("pa_said_by", lang, what=what, card=t("inquisition", lang)))
        if seat != actor:
            mine = [said("pa_said_whose", lang, who=players[seat], what=m) for m in mine]
        out += mine
    return out


def _round_over(step: Step, players: list[str], after: Moment, lang: str) -> str:
    """The round's end: who leads each track, or at the last the scores (PA-61)."""
    ends = said("pa_said_round_ends", lang, n=step.round)
    if after.scores is not None:
        ranked = sorted(range(len(players)), key=lambda s: -after.scores[s])  # type: ignore[index]
        scores = listed(
            [said("pa_said_score", lang, who=players[s], points=after.scores[s]) for s in ranked],
            lang,
        )
        return said("pa_said_game_ends", lang, scores=scores)
    leaders = [
        said(
            "pa_said_leader",
            lang,
            track=t(f"pa_track_{fact.track}", lang),
            who=players[fact.seat],
            at=fact.progress,
        )
        for fact in step.facts
        if isinstance(fact, TrackRanked) and fact.leads and fact.track in (*TRACKS, "vp")
    ]
    if not leaders:
        return ends
    return said("pa_said_leading", lang, n=step.round, items=t("pa_comma", lang).join(leaders))
