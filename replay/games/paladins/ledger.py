"""A Paladins seat's ledger (PA-11 to PA-19, PA-44, PA-45, PA-57): its effective attributes
and abilities, the slots its workers fit, what it can pay and what it gains or spends, and
the lookups the actions and the legal moves share."""

from __future__ import annotations

import math
from collections.abc import Sequence

from replay.facts import Fact, ResourceChanged, ScoreChanged, TrackMoved

from .effects import Ability, Amounts
from .state import State

TRACK = {"faith": "faith", "str": "strength", "inf": "influence"}  # catalogue unit → track


UNIT = {track: unit for unit, track in TRACK.items()}  # track → catalogue unit


def effective(state: State, seat: int, track: str) -> int:
    """PA-44: track + this round's paladin bonus + the team's `bonus` abilities. (Asked for
    several times an action: it reads the catalogue's parsed fields directly.)"""
    me = state.board[seat]
    unit = UNIT[track]
    value = me.tracks[track]
    parsed = state.catalogue.parsed
    if me.paladin is not None:
        value += parsed["paladin"][me.paladin]["bonus"].get(unit, 0)
    townsfolk = parsed["townsfolk"]
    for card in me.team:
        ability: Ability = townsfolk[card]["ability"]
        if ability.kind == "bonus":
            value += ability.attrs.get(unit, 0)
    return value


def abilities(state: State, seat: int) -> list[tuple[str, Ability]]:
    """The seat's abilities in firing order (PA-57): its paladin, then its team as it joined."""
    me = state.board[seat]
    cat = state.catalogue
    out = []
    if me.paladin is not None:  # PA-13: the round's paladin adds its ability
        out.append((me.paladin, cat.field("paladin", me.paladin, "ability")))
    out.extend((card, cat.field("townsfolk", card, "ability")) for card in me.team)
    return out


def discount(state: State, seat: int, act: str, resource: str) -> int:
    """PA-59, PA-63: what the seat's discounts take off `act`'s `resource` cost. (Asked for
    every cost the legal moves and the greedy bot's trials price: it reads the parsed
    abilities directly, as `abilities` lists them.)"""
    me = state.board[seat]
    parsed = state.catalogue.parsed
    off = 0
    if me.paladin is not None:
        ability: Ability = parsed["paladin"][me.paladin]["ability"]
        if ability.kind == "discount" and ability.act == act:
            off += ability.cost.get(resource, 0)
    townsfolk = parsed["townsfolk"]
    for card in me.team:
        ability = townsfolk[card]["ability"]
        if ability.kind == "discount" and ability.act == act:
            off += ability.cost.get(resource, 0)
    return off


def slots_for(
    state: State, seat: int, space: str, count: int | None = None
) -> tuple[str, ...] | None:
    """The uncovered slots of a space (PA-29, PA-43), or for a left-side space those of the
    mode with `count` workers; None when no mode has that many."""
    config = state.config
    if space in config.main_slots:
        return config.main_slots[space][state.board[seat].workshops[space] :]
    for slots in config.space_slots[space]:
        if count is None or len(slots) == count:
            return slots
    return None


def fits(slots: Sequence[str], workers: Sequence[str]) -> bool:
    """PA-16: a colourless slot takes any worker, a coloured its colour, a criminal any."""
    if len(slots) != len(workers):
        return False
    for slot, worker in zip(slots, workers):
        if slot != "any" and slot != worker and worker != "purple":
            return False
    return True


def has_workers(supply: dict[str, int], workers: Sequence[str]) -> bool:
    # one to three workers: counting each is cheapest, and a loop cheaper than a generator
    for w in workers:  # noqa: SIM110
        if supply.get(w, 0) < workers.count(w):
            return False
    return True


def can_pay(state: State, seat: int, cost: Amounts) -> bool:
    me = state.board[seat]
    return me.silver >= cost.get("silver", 0) and me.provisions >= cost.get("prov", 0)


def gain(state: State, seat: int, reward: Amounts, cause: str, facts: list[Fact]) -> None:
    """Every unit of a reward (§3): resources, attributes (capped, PA-44), VP, repaid debts,
    workers of a colour."""
    me = state.board[seat]
    rnd = state.round
    for unit, count in reward.items():
        if unit == "silver":
            me.silver += count
        elif unit == "prov":
            me.provisions += count
        elif unit in TRACK:
            track = TRACK[unit]
            before = me.tracks[track]
            after = min(state.config.attribute_max, before + count)
            if after != before:
                me.tracks[track] = after
                facts.append(
                    TrackMoved(
                        round=rnd, seat=seat, track=track, before=before, after=after, cause=cause
                    )
                )
                now = effective(state, seat, track)
                facts.append(
                    TrackMoved(
                        round=rnd,
                        seat=seat,
                        track=f"effective_{track}",
                        before=now - (after - before),
                        after=now,
                        cause=cause,
                    )
                )
        elif unit == "vp":
            add_vp(state, seat, count, cause, facts)
        elif unit == "repay":
            paid = min(count, me.debts)
            me.debts -= paid
            me.repaid += paid
        else:  # a worker colour
            me.supply[unit] = me.supply.get(unit, 0) + count
            facts.append(
                ResourceChanged(round=rnd, seat=seat, resource=unit, delta=count, cause=cause)
            )


def bonus_changed(
    state: State, seat: int, before: dict[str, int], cause: str, facts: list[Fact]
) -> None:
    """Effective attributes moved by a bonus arriving or leaving (PA-12, PA-44), not a track."""
    for track, old in before.items():
        new = effective(state, seat, track)
        if new != old:
            facts.append(
                TrackMoved(
                    round=state.round,
                    seat=seat,
                    track=f"effective_{track}",
                    before=old,
                    after=new,
                    cause=cause,
                )
            )


def paladin_bonus(state: State, seat: int, track: str) -> int:
    paladin = state.board[seat].paladin
    unit = {"faith": "faith", "strength": "str", "influence": "inf"}[track]
    return state.catalogue.field("paladin", paladin, "bonus").get(unit, 0) if paladin else 0


def effective_all(state: State, seat: int) -> dict[str, int]:
    return {track: effective(state, seat, track) for track in state.board[seat].tracks}


def add_vp(state: State, seat: int, points: int, cause: str, facts: list[Fact]) -> None:
    me = state.board[seat]
    before = me.vp
    me.vp += points
    facts.append(ScoreChanged(round=state.round, seat=seat, source="vp", points=points))
    facts.append(
        TrackMoved(
            round=state.round, seat=seat, track="vp", before=before, after=me.vp, cause=cause
        )
    )


def pay(state: State, seat: int, cost: Amounts) -> None:
    me = state.board[seat]
    me.silver -= cost.get("silver", 0)
    me.provisions -= cost.get("prov", 0)


def spend_workers(
    state: State, seat: int, workers: Sequence[str], cause: str, facts: list[Fact]
) -> None:
    supply = state.board[seat].supply
    for w in workers:
        supply[w] -= 1
        facts.append(
            ResourceChanged(round=state.round, seat=seat, resource=w, delta=-1, cause=cause)
        )


def fire(state: State, seat: int, act: str, facts: list[Fact], team_before: int) -> None:
    """PA-57: the actor's `action` abilities for `act` (paladin, then the team members that
    had joined before the action), then the others' `rival` abilities, clockwise. (After
    every action the greedy bot weighs: it reads the parsed abilities directly.)"""
    me = state.board[seat]
    parsed = state.catalogue.parsed
    townsfolk = parsed["townsfolk"]
    if me.paladin is not None:
        ability: Ability = parsed["paladin"][me.paladin]["ability"]
        if ability.kind == "action" and ability.act == act:
            gain(state, seat, ability.reward, "ability", facts)
    for card in me.team[:team_before]:
        ability = townsfolk[card]["ability"]
        if ability.kind == "action" and ability.act == act:
            gain(state, seat, ability.reward, "ability", facts)
    n = len(state.players)
    for step in range(1, n):
        other = (seat + step) % n
        for card in state.board[other].team:
            ability = townsfolk[card]["ability"]
            if ability.kind == "rival" and ability.act == act:
                gain(state, other, ability.reward, "ability", facts)


def discounted(state: State, seat: int, act: str, cost: Amounts) -> Amounts:
    return {unit: max(0, value - discount(state, seat, act, unit)) for unit, value in cost.items()}


def attack_silver(state: State, seat: int, card: str) -> int:
    """PA-35, PA-53: 1 silver per 2 missing strength (rounded up), less discounts."""
    need: int = state.catalogue.entry("outsider", card).strength
    missing = max(0, need - effective(state, seat, "strength"))
    due = math.ceil(missing / state.config.attack_strength_per_silver)
    return max(0, due - discount(state, seat, "attack", "silver"))


def favour_open(state: State, seat: int, card: str) -> bool:
    """PA-8, PA-47: revealed and not yet used this round (by anyone, or by this player)."""
    if card not in state.favours:
        return False
    used = state.favour_workers.get(card, [])
    if state.config.favour_per_player:
        return all(s != seat for s, _ in used)
    return not used


def refill_due(state: State, townsfolk: bool) -> int:
    display = state.townsfolk if townsfolk else state.outsiders
    deck = state.townsfolk_deck if townsfolk else state.outsider_deck
    return min(display.count(None), len(deck))
