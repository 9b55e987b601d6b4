"""Invariants over random legal Paladins matches (after OpenSpiel's random-playout tests)."""

from __future__ import annotations

import random

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.errors import IllegalEvent
from replay.games import paladins as pa
from replay.games.paladins.legal import canonical, legal_events
from replay.replayer import open_log, replay
from tests.support import CATALOGUES, all_facts, catalogue, log_data

from .support import clone, fingerprint, random_log

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
rule_changes = st.fixed_dictionaries(
    {},
    optional={
        "start_silver": st.integers(0, 12),
        "keep_workers": st.integers(0, 5),
        "develop_silver": st.integers(0, 8),
        "favour_per_player": st.booleans(),
        "attack_strength_per_silver": st.integers(1, 4),
    },
)


@SETTINGS
@given(seed=st.integers(0, 2**32), players=st.integers(1, 4), rules=rule_changes)
def test_random_legal_games_replay_complete_and_deterministically(seed, players, rules):
    data = log_data(random_log(seed, players, rules))
    outcome = replay(open_log(data, "r.jsonl", catalogues=CATALOGUES))
    assert outcome.result.complete and outcome.result.winners
    assert outcome.state.round == 7
    assert all_facts(data) == all_facts(data)


def _near_misses(state: pa.State, rng: random.Random, offered: list[pa.Event]) -> list[pa.Event]:
    """Offered events with one field changed: another card, square, spot, worker or space."""
    cat = state.catalogue
    pools = {
        "card": [
            *cat.ids("townsfolk"),
            *cat.ids("outsider"),
            *cat.ids("favour"),
            *cat.ids("tavern"),
        ],
        "square": cat.ids("square"),
        "spot": list(range(9)),
        "space": [*state.config.space_slots, *state.config.main_slots],
        "action": list(state.config.main_slots),
        "pay": ["silver", "debt"],
    }
    out: list[pa.Event] = []
    for event in rng.sample(offered, min(4, len(offered))):
        fields = msgspec.structs.asdict(event)
        for name in [f for f in fields if f in pools]:
            out.append(msgspec.structs.replace(event, **{name: rng.choice(pools[name])}))
        if "workers" in fields:
            workers = list(fields["workers"])
            if workers:
                workers[rng.randrange(len(workers))] = rng.choice(
                    ["white", "green", "blue", "red", "black", "purple"]
                )
                out.append(msgspec.structs.replace(event, workers=workers))
                out.append(msgspec.structs.replace(event, workers=workers[:-1]))
        if "keep" in fields:
            out.append(msgspec.structs.replace(event, keep=[*fields["keep"], "white"]))
    return out


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 3))
def test_the_engine_accepts_exactly_what_it_offers_sampled_both_ways(seed, players):
    rng = random.Random(seed)
    lines = random_log(seed, players)
    head = msgspec.json.decode(lines[0], type=pa.Header)
    state = pa.new_game(pa.RULES.ruleset(head), head, catalogue("paladins"))
    for line in lines[1:]:
        offered = legal_events(state)
        for option in rng.sample(offered, min(3, len(offered))):  # enumerate ⊆ accept
            pa.apply(clone(state), option)
        for miss in _near_misses(state, rng, offered):  # accept ⊆ enumerate
            trial = clone(state)
            before = fingerprint(trial)
            try:
                pa.apply(trial, miss)
            except IllegalEvent:
                assert fingerprint(trial) == before, "a rejected event changed the state"
                continue
            assert canonical(miss) in offered, miss
        pa.apply(state, msgspec.json.decode(line, type=pa.Event))
    assert pa.is_over(state) and legal_events(state) == []
