"""What the conformance suite (tests/conformance/) needs to know of Knight Academy."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
from hypothesis import strategies as st

from replay.games import knight_academy as ka
from replay.games.knight_academy.scoring import ranked, stack_order
from tests.support import Greedy, Profile, Setting


def canonical(event: ka.Event) -> ka.Event:
    """A play may name its card's own track or leave it out: both are the same decision; a
    lancelot split or assignment lists its cards in any order (KA-20), mercy its shields taken
    (KA-22f)."""
    if isinstance(event, ka.Play) and event.track == event.card.rpartition("-")[0]:
        return msgspec.structs.replace(event, track=None)
    if isinstance(event, ka.Deal):  # a hand is the same whatever order its cards are named in
        return msgspec.structs.replace(event, cards=sorted(event.cards))
    if isinstance(event, ka.Split):
        return msgspec.structs.replace(event, piles=sorted(sorted(pile) for pile in event.piles))
    if isinstance(event, ka.Assign):
        return msgspec.structs.replace(
            event, colours={colour: sorted(cards) for colour, cards in event.colours.items()}
        )
    if isinstance(event, ka.Mercy):
        return msgspec.structs.replace(event, take=sorted(event.take))
    return event


def _near_misses(state: ka.State, rng: random.Random, offered: list[Any]) -> list[ka.Event]:
    """Events of the right shape by random seats with random cards and tracks."""
    cards = sorted(state.config.deck)
    tracks = [None, *ka.TRACKS, "white", "black"]
    out: list[ka.Event] = []
    for _ in range(4):
        player = rng.choice(state.players)
        card = rng.choice(cards)
        track = rng.choice(tracks)
        slots = rng.randint(0, 6)
        out.append(ka.Pick(player=player, card=card))
        out.append(ka.Play(player=player, card=card, track=track))
        out.append(ka.Bonus(player=player, track=track))
        out.append(ka.Wager(player=player, track=track or "courage"))
        out.append(ka.Shield(player=player, slot=slots))
        out.append(ka.Play(player=player, card=card, track=track, peek=slots))
        out.append(ka.Play(player=player, card=card, track=track, scrolls=[rng.choice((6, 12))]))
        out.append(
            ka.Mercy(
                player=player,
                other=rng.choice(state.players),
                give=rng.choice((None, -3, -1)),
                take=rng.sample((1, 2, 3, 3), rng.randint(0, 3)),
            )
        )
    out.append(ka.Codex(shields=[rng.choice((-3, -1, 0)) for _ in state.players]))
    # KA-20: lancelot's splits, choices and lays, by a player or a colour, of dealt-like cards
    names = [*state.persons, *state.players]
    for _ in range(2):
        player = rng.choice(names)
        hand = rng.sample(cards, 6)
        out.append(ka.Split(player=player, piles=[hand[:3], hand[3:]]))
        out.append(ka.Choose(player=player, pile=rng.randint(0, 3)))
        colours = rng.sample(state.players, 2)
        out.append(ka.Assign(player=player, colours={colours[0]: hand[:3], colours[1]: hand[3:]}))
    for held in state.held:  # a player's own hand, split or laid as it came
        if held:
            player = state.persons[state.held.index(held)]
            out.append(ka.Split(player=player, piles=[held[:3], held[3:]]))
            colours = [
                state.players[s]
                for s, owner in enumerate(state.owners)
                if owner == state.held.index(held)
            ]
            out.append(
                ka.Assign(player=player, colours={colours[0]: held[:3], colours[1]: held[3:]})
            )
    return out


def _cards_everywhere(state: ka.State) -> Counter[str]:
    seen: Counter[str] = Counter(state.deck)
    seen.update(state.discard)
    for cards in state.hands + state.picked + state.held:
        seen.update(cards)
    return +seen


def _invariant(state: ka.State) -> None:
    """KA-2: each card of the deck is in exactly one place; a state survives its own JSON."""
    assert _cards_everywhere(state) == +Counter(state.config.deck)
    assert msgspec.json.decode(msgspec.json.encode(state), type=ka.State) == state


def _quests_pay_the_new_prizes(outcomes: list[Any]) -> bool:
    quests = {sources["quest"] for o in outcomes for sources in o.result.sources}
    return 30 in quests and quests <= {0, 10, 20, 30}


def _broken(lines: list[str]) -> dict[str, tuple[int, str, str]]:
    seventh = msgspec.json.decode(lines[6])
    return {
        "stranger.jsonl": (7, msgspec.json.encode({**seventh, "player": "Zed"}).decode(), "KA-5"),
        "sword.jsonl": (7, msgspec.json.encode({**seventh, "card": "sword-9"}).decode(), "KA-2"),
        "twice.jsonl": (8, '{"kind": "pick", "player": "Ann", "card": "king-4"}', "KA-5"),
    }


def _standing(state: ka.State) -> dict[str, tuple[list[tuple[int, int]], int | None]]:
    """Each track's discs from the front as the view stacks them, each its player's (in
    lancelot a colour's, KA-20); the leader, the first disc KA-8 and KA-9 rank."""
    out: dict[str, tuple[list[tuple[int, int]], int | None]] = {}
    for track, row in state.progress.items():
        front = ranked(state, track)[:1]
        markers = [(state.owners[seat], row[seat]) for seat in stack_order(state, track)]
        out[track] = markers, (state.owners[front[0]] if front else None)
    return out


PROFILE = Profile(
    tables=(2, 3, 4, 5),  # two players sit with the neutral Gawain (KA-19)
    variants={"lancelot": 2},  # or play two colours each (KA-20)
    rules=st.fixed_dictionaries(
        {},
        optional={
            "quest_prizes": st.lists(st.integers(0, 30), min_size=1, max_size=3),
            "king_cap": st.integers(12, 30),  # the last scroll lies on 12 (KA-22d)
            "plays_per_round": st.integers(1, 5),
            "education_penalties": st.tuples(st.integers(-9, 0), st.integers(-9, 0)),
            "reset_rounds": st.sets(st.integers(1, 6)).map(sorted),
        },
    ),
    # A codex is a chance outcome: any order of its shields is one (KA-22c).
    among=lambda state, event, offered: isinstance(event, ka.Codex) or canonical(event) in offered,
    near_misses=_near_misses,
    invariant=_invariant,
    setting=Setting(
        {"quest_prizes": [30, 20, 10], "king_cap": 15}, _quests_pay_the_new_prizes, 4, matches=20
    ),
    greedy=Greedy(players=4, matches=200, share=0.6),
    samples=300,
    example="ka-example-4p.jsonl",
    broken=_broken,
    standing=_standing,
    ranks_in="_finish_round",  # the round's ranking, before its resets (KA-16, KA-21c, KA-22)
)
