"""Invariants over random legal Albus Academy matches."""

from __future__ import annotations

import random

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.errors import IllegalEvent
from replay.games import albus_academy as aa
from replay.games.albus_academy.legal import legal_events
from replay.games.albus_academy.rules import close
from replay.replayer import open_log, replay
from tests.support import CATALOGUES, all_facts, catalogue, log_data

from .support import clone, fingerprint, random_log

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
rule_changes = st.fixed_dictionaries(
    {},
    optional={
        "start_will": st.integers(0, 9),
        "start_shards": st.integers(0, 9),
        "end_homework": st.integers(2, 10),
        "final_turns": st.sampled_from(["complete_round", "one_each"]),
        "tie_break": st.sampled_from(["homework", "shared"]),
    },
)


@SETTINGS
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    rules=rule_changes,
    bots=st.sampled_from(["random", "greedy"]),
)
def test_random_legal_games_replay_complete_and_deterministically(seed, players, rules, bots):
    data = log_data(random_log(seed, players, rules, bots))
    outcome = replay(open_log(data, "r.jsonl", catalogues=CATALOGUES))
    assert outcome.result.complete and outcome.result.winners
    assert all_facts(data) == all_facts(data)


def _near_misses(state: aa.State, rng: random.Random, offered: list[aa.Event]) -> list[aa.Event]:
    """Offered events with one field changed (position, tile, card, rotation, choices)."""
    cat = state.catalogue
    cells = [(r, c) for r in range(-1, 4) for c in range(-1, 5)]
    pools = {
        "at": cells,
        "tile": sorted(cat.tiles),
        "card": sorted(cat.homework),
        "item": sorted(cat.homework),
        "rotation": list(range(-1, 5)),
        "swap": sorted(cat.homework),
    }
    out: list[aa.Event] = []
    for event in rng.sample(offered, min(4, len(offered))):
        fields = msgspec.structs.asdict(event)
        for name in [f for f in fields if f in pools]:
            out.append(msgspec.structs.replace(event, **{name: rng.choice(pools[name])}))
        if "ready" in fields:
            out.append(msgspec.structs.replace(event, ready=[rng.choice(cells)]))
        if "tiles" in fields:
            out.append(msgspec.structs.replace(event, tiles=[rng.choice(sorted(cat.tiles))]))
    player = state.players[state.turn]
    out += [
        aa.events.CollectShard(player=player),
        aa.events.GainWill(player=player),
        aa.events.Rest(player=player),
    ]
    return out


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 3))
def test_the_engine_accepts_exactly_what_it_offers_sampled_both_ways(seed, players):
    rng = random.Random(seed)
    lines = random_log(seed, players)
    head = msgspec.json.decode(lines[0], type=aa.Header)
    state = aa.new_game(aa.RULES.ruleset(head), head, catalogue("albus-academy"))
    for line in lines[1:]:
        offered = legal_events(state)
        after_cast: list[aa.Event] = []
        if state.phase == "casting":  # what may follow the cast's end
            ended = clone(state)
            close(ended)
            after_cast = legal_events(ended)
        for option in rng.sample(offered, min(3, len(offered))):  # enumerate ⊆ accept
            aa.apply(clone(state), option)
        for miss in _near_misses(state, rng, offered):  # accept ⊆ enumerate
            trial = clone(state)
            before = fingerprint(trial)
            try:
                aa.apply(trial, miss)
            except IllegalEvent:
                assert fingerprint(trial) == before, "a rejected event changed the state"
                continue
            assert miss in offered or miss in after_cast, miss
        aa.apply(state, msgspec.json.decode(line, type=aa.Event))
