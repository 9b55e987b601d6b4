"""What every engine in the registry must do, checked the same way for each (after
OpenSpiel's tests over every registered game): the contract of docs/engines.md. What the suite
needs to know of a game beyond its Game record is in tests/<game>/profile.py."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.errors import IllegalEvent
from replay.facts import ScoreChanged
from replay.registry import GAMES
from tests.support import CATALOGUES, snapshot

from .play import NAMES, PROFILES, begin, kind, kinds, recorded, walk

MATCHES = 3  # seeded playouts a game
TRIALS = 4  # refused events tried at each step


def _mutants(event: Any, pool: list[Any], rng: random.Random) -> list[Any]:
    """Events like `event` with one field taken from another event of the match (another
    player, card, hex, count), and events of the match from another moment."""
    by_kind: dict[type, list[Any]] = {}
    for e in pool:
        by_kind.setdefault(type(e), []).append(e)
    out = [rng.choice(by_kind[rng.choice(list(by_kind))]) for _ in range(2)]
    fields = [f for f in msgspec.structs.fields(event) if f.name != "kind"]
    donors = [e for e in pool if type(e) is type(event)]
    for _ in range(2):
        if fields and donors:
            name = rng.choice(fields).name
            out.append(msgspec.structs.replace(event, **{name: getattr(rng.choice(donors), name)}))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_a_refused_event_leaves_the_state_exactly_as_it_was(name):
    """Check, then mutate: for every kind of event, chance outcomes included."""
    game = GAMES[name]
    refused: set[str] = set()
    elsewhere = recorded(game)
    for seed in range(MATCHES):
        state, bots, rng = begin(game, seed)
        pool: list[Any] = list(elsewhere)
        for _, event in walk(game, state, bots, rng):
            pool.append(event)
            for trial in _mutants(event, pool, rng)[:TRIALS]:
                if trial == event:
                    continue
                probe = game.clone(state)  # as good a copy as deepcopy's, far cheaper
                before = snapshot(probe)
                try:
                    game.apply(probe, trial)
                except IllegalEvent:
                    assert snapshot(probe) == before, (
                        f"{name}: a refused {kind(trial)} changed the state: {trial!r}"
                    )
                    refused.add(kind(trial))
    assert kinds(game) - refused == set(), "every kind of event was tried and refused"


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_engine_accepts_exactly_what_it_offers_and_keeps_its_invariants(name, data):
    """Sampled both ways: what legal_events offers is accepted, and a near miss is refused
    (leaving the state as it was) unless it is one of the offered events after all."""
    game, profile = GAMES[name], PROFILES[name]
    players = data.draw(st.sampled_from(profile.all_tables), label="players")
    state, bots, rng = begin(game, data.draw(st.integers(0, 2**32), label="seed"), players)
    for _ in walk(game, state, bots, rng):
        profile.invariant(state)
        offered = game.legal_events(state, None)
        # game.clone: a copy as good as deepcopy's (test_knowledge holds it so), far cheaper
        for option in rng.sample(offered, min(3, len(offered))):  # enumerate ⊆ accept
            game.apply(game.clone(state), option)
        before = snapshot(state)
        for miss in profile.near_misses(state, rng, offered):  # accept ⊆ enumerate
            trial = game.clone(state)
            try:
                game.apply(trial, miss)
            except IllegalEvent:
                # the clone as it was, and the state it was cloned from untouched
                assert trial == state and snapshot(state) == before, (
                    f"a refused {kind(miss)} changed the state"
                )
                continue
            assert profile.among(state, miss, offered), f"accepted {miss!r}, never offered"
    profile.invariant(state)
    if game.is_over(state):
        assert game.legal_events(state, None) == []


@pytest.mark.parametrize("name", NAMES)
def test_the_bots_only_choose_among_the_legal_events(name):
    game, profile = GAMES[name], PROFILES[name]
    sim = game.simulation
    assert sim is not None
    for bot in sim.bots:
        for seed, players in enumerate(profile.all_tables):
            state, bots, rng = begin(game, seed, players, bots=(bot,))
            for seat, event in walk(game, state, bots, rng):
                if seat is not None:
                    offered = game.legal_events(state, seat)
                    assert profile.among(state, event, offered), f"{bot} chose {event!r}"
            assert (sim.finished or game.is_over)(state) or sim.max_events


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_legal_games_replay_deterministically_and_their_scores_add_up(name, data):
    """Under any rule changes a designer tries: the match ends (or is cut at the simulator's
    limit), has a winner, and each seat's final score is the sum of its score events."""
    from ingest.simulation.simulate import Spec, simulate_match
    from replay.replayer import open_log, replay
    from tests.support import all_facts

    game, profile = GAMES[name], PROFILES[name]
    sim = game.simulation
    assert sim is not None
    spec = Spec(
        game=name,
        **profile.seating(data.draw(st.sampled_from(profile.all_tables), label="players")),
        bots=(data.draw(st.sampled_from(sorted(sim.bots)), label="bots"),),
        seed=data.draw(st.integers(0, 2**32), label="seed"),
        ruleset=data.draw(st.sampled_from(sorted(game.rulesets)), label="ruleset"),
        rules=data.draw(profile.rules, label="rules"),
    )
    log = __import__("gzip").decompress(simulate_match(spec, 0).data)
    outcome = replay(open_log(log, "r.jsonl", catalogues=CATALOGUES))
    result = outcome.result
    if result.complete:
        assert result.winners and outcome.final_claim is not None
    else:  # a match without an end in sight (Heraldry without a duke) is cut short
        assert sim.max_events and len(outcome.steps) == sim.max_events
    assert sorted(set(result.ranks))[0] == 1 and len(result.ranks) == len(result.scores)
    assert [sum(by.values()) for by in result.sources] == result.scores
    if result.complete:  # before the end, a score may count what would score if it ended now
        points = [0] * len(result.scores)
        for step in outcome.steps:
            for fact in step.facts:
                if type(fact) is ScoreChanged:
                    points[fact.seat] += fact.points
        assert points == result.scores
    assert all_facts(log) == all_facts(log)


@pytest.mark.parametrize("name", NAMES)
def test_every_name_a_game_exports_exists(name):
    module = __import__(f"replay.games.{name.replace('-', '_')}", fromlist=["__all__"])
    assert [n for n in module.__all__ if not hasattr(module, n)] == []
    assert module.RULES is GAMES[name]


@pytest.mark.parametrize("name", sorted(n for n, g in GAMES.items() if g.catalogue))
def test_a_game_that_reads_a_catalogue_is_handed_it_and_checks_its_hash(name):
    from ingest.simulation.simulate import Spec, _header
    from replay.replayer import open_log

    game = GAMES[name]
    assert game.catalogue is not None
    spec = Spec(game=name, players=PROFILES[name].tables[1], bots=("random",), seed=0)
    header = _header(spec, 0, random.Random(0), spec.run_id)
    line = msgspec.json.encode(header) + b"\n"
    assert open_log(line, "x", catalogues=CATALOGUES).catalogue.sha256 == header.catalogue.sha256
    forged = msgspec.structs.replace(
        header, catalogue=msgspec.structs.replace(header.catalogue, sha256="0" * 64)
    )
    with pytest.raises(Exception, match=f"{game.catalogue.rule}: catalogue: .* not the 0000"):
        open_log(msgspec.json.encode(forged) + b"\n", "x", catalogues=CATALOGUES)
    with pytest.raises(Exception, match=f"{game.catalogue.rule}: catalogue: no {name} catalogue"):
        open_log(line, "x")  # none handed in


# Where each verb of the Game record is defined (or imported, for a game whose rule needs it
# elsewhere), in every game: docs/engines.md.
VERBS = {
    "rules": ("new_game", "apply", "is_over"),
    "legal": ("expecting", "legal_events"),
    "scoring": ("result",),
    "view": ("snapshot", "render"),
}
SIM_VERBS = {"legal": ("to_move", "chance"), "bots": ("table",)}


@pytest.mark.parametrize("name", NAMES)
def test_every_game_keeps_each_verb_in_the_same_module(name):
    import importlib

    game = GAMES[name]
    package = f"replay.games.{name.replace('-', '_')}"
    found = []
    for module, verbs in VERBS.items():
        source = importlib.import_module(f"{package}.{module}")
        found += [f"{module}.{v}" for v in verbs if getattr(source, v, None) is getattr(game, v)]
    sim = game.simulation
    assert sim is not None
    legal = importlib.import_module(f"{package}.legal")
    bots = importlib.import_module(f"{package}.bots")
    found += ["legal.to_move"] if legal.to_move is sim.to_move else []
    found += ["legal.chance"] if legal.chance_event is sim.chance else []
    found += ["bots.table"] if bots.table is sim.table else []
    wanted = [f"{m}.{v}" for m, vs in VERBS.items() for v in vs]
    wanted += [f"{m}.{v}" for m, vs in SIM_VERBS.items() for v in vs]
    assert sorted(found) == sorted(wanted)
    scoring = importlib.import_module(f"{package}.scoring")
    assert tuple(scoring.SOURCES) == tuple(game.sources)


@pytest.mark.parametrize("name", NAMES)
def test_what_a_game_expects_names_every_event_it_accepts_by_its_kind(name):
    game = GAMES[name]
    every = kinds(game)
    for seed in range(2):
        state, bots, rng = begin(game, seed)
        for seat, event in walk(game, state, bots, rng, limit=800):
            expect = game.expecting(state)
            accepted = set(expect.accepted)
            assert accepted <= every, f"{name}: {accepted - every} are not event kinds"
            assert not expect.kinds or expect.kind not in every  # a choice has its own name
            if seat is not None:
                offered = {kind(e) for e in game.legal_events(state, seat)}
                assert offered <= accepted, f"{name}: offers {offered - accepted} unannounced"
            assert kind(event) in accepted
