"""Invariants over random legal matches (after OpenSpiel's random-playout tests)."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.errors import IllegalEvent
from replay.games import knight_academy as ka
from replay.replayer import open_log, replay
from tests.support import all_facts, log_data

from .support import header, random_log

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
tables = st.sampled_from([(3, "base"), (4, "base"), (5, "base"), (3, "gawain")])
rule_changes = st.fixed_dictionaries(
    {},
    optional={
        "quest_prizes": st.lists(st.integers(0, 30), min_size=1, max_size=3),
        "king_cap": st.integers(6, 30),
        "plays_per_round": st.integers(1, 5),
        "education_penalties": st.tuples(st.integers(-9, 0), st.integers(-9, 0)),
        "reset_rounds": st.sets(st.integers(1, 6)).map(sorted),
    },
)


@SETTINGS
@given(seed=st.integers(0, 2**32), table=tables, rules=rule_changes)
def test_random_legal_games_replay_complete_and_deterministically(seed, table, rules):
    players, variant = table
    data = log_data(random_log(seed, players, variant, rules))
    outcome = replay(open_log(data, "random.jsonl"))
    assert outcome.result.complete
    assert len(outcome.result.winners) >= 1
    assert all_facts(data) == all_facts(data)


def _cards_everywhere(state: ka.State) -> Counter[str]:
    seen: Counter[str] = Counter(state.deck)
    seen.update(state.discard)
    for cards in state.hands + state.picked:
        seen.update(cards)
    return +seen


@SETTINGS
@given(seed=st.integers(0, 2**32), table=tables)
def test_every_state_keeps_each_card_once_round_trips_and_accepts_what_it_offers(seed, table):
    players, variant = table
    rng = random.Random(seed)
    names = (
        "Ann Bob Gawain"
        if variant == "gawain"
        else " ".join(["Ann", "Bob", "Cid", "Dee", "Eve"][:players])
    )
    extra = {"neutral": "Gawain"} if variant == "gawain" else {}
    state = ka.new_game(ka.STANDARD, header(names, variant=variant, **extra))
    composition = +Counter(ka.STANDARD.deck)
    while not ka.is_over(state):
        assert _cards_everywhere(state) == composition
        copy = msgspec.json.decode(msgspec.json.encode(state), type=ka.State)
        assert copy == state
        if state.phase == "deal":
            ka.apply(state, ka.deal_at_random(state, rng))
            continue
        offered = ka.legal_events(state)
        assert offered, "a live game always has a legal event or a chance event"
        for event in rng.sample(offered, min(3, len(offered))):  # enumerate ⊆ accept
            trial = msgspec.json.decode(msgspec.json.encode(state), type=ka.State)
            ka.apply(trial, event)
        for event in _near_misses(state, rng):  # accept ⊆ enumerate, on a sample
            if _canonical(event) in offered:
                continue
            before = msgspec.json.encode(state)
            try:
                ka.apply(state, event)
            except IllegalEvent:
                assert msgspec.json.encode(state) == before, "a rejected event changed the state"
            else:
                raise AssertionError(f"accepted {event!r}, which legal_events did not offer")
        ka.apply(state, rng.choice(offered))
    assert ka.legal_events(state) == []


def _canonical(event: ka.Event) -> ka.Event:
    """A play may name its card's own track or leave it out: both are the same decision."""
    if isinstance(event, ka.Play) and event.track == event.card.rpartition("-")[0]:
        return ka.Play(player=event.player, card=event.card)
    return event


def _near_misses(state: ka.State, rng: random.Random) -> list[ka.Event]:
    """Events of the right shape by random seats with random cards and tracks."""
    cards = sorted(ka.STANDARD.deck)
    tracks = [None, *ka.TRACKS]
    out: list[ka.Event] = []
    for _ in range(4):
        player = rng.choice(state.players)
        card = rng.choice(cards)
        out.append(ka.Pick(player=player, card=card))
        out.append(ka.Play(player=player, card=card, track=rng.choice(tracks)))
        out.append(ka.Bonus(player=player, track=rng.choice(tracks)))
    return out
