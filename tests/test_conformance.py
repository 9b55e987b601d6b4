"""What every engine in the registry must do, checked the same way for each (after
OpenSpiel's tests over every registered game): the contract of docs/engines.md."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any, get_args

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.errors import IllegalEvent
from replay.game import STOP, Game
from replay.log import Final
from replay.registry import GAMES

from .support import CATALOGUES

ROOT = Path(__file__).parents[1]
PLAYERS = {"knight-academy": 4, "heraldry": 3, "paladins": 2, "albus-academy": 3}
MATCHES = 3  # seeded playouts a game
TRIALS = 4  # refused events tried at each step


def fingerprint(state: Any) -> str:
    """Everything about a state, as text: equal text, equal states (sets and the keys of a
    table are written in sorted order, lists in theirs)."""
    return repr(_canonical(state))


def _canonical(value: Any) -> Any:
    if isinstance(value, msgspec.Struct):
        return (
            type(value).__name__,
            *(_canonical(getattr(value, f)) for f in value.__struct_fields__),
        )
    if isinstance(value, dict):
        return ("dict", sorted((repr(_canonical(k)), _canonical(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", sorted(repr(_canonical(v)) for v in value))
    if isinstance(value, (list, tuple)):
        return [_canonical(v) for v in value]
    return value


def begin(game: Game[Any, Any, Any], seed: int) -> tuple[Any, list[Any], random.Random]:
    """A new match of `game` as the simulator seats it, with its bots."""
    from ingest.simulate import Spec, _header, catalogue_for

    sim = game.simulation
    assert sim is not None
    spec = Spec(game=game.name, players=PLAYERS[game.name], bots=tuple(sim.bots), seed=seed)
    rng = random.Random(seed)
    header = _header(spec, seed, rng, spec.run_id)
    state = game.new_game(game.ruleset(header), header, catalogue_for(game.name))
    bots = [sim.bots[header.agents[p]]() if p in header.agents else None for p in header.players]
    return state, bots, rng


def recorded(game: Game[Any, Any, Any]) -> list[Any]:
    """The events of the game's worked examples and of some of its bundled samples."""
    from ingest.read import read_log
    from replay.log import decoder_for, numbered_lines

    decode = decoder_for(game.event_type).decode
    folder = game.name.replace("-", "_")
    logs = sorted(ROOT.glob(f"tests/{folder}/logs/*.jsonl"))
    logs += sorted(ROOT.glob(f"data/samples/{game.name}/*.jsonl*"))[:20]
    return [
        e
        for log in logs
        for _, line in numbered_lines(read_log(log))[1:]
        if type(e := decode(line)) is not Final
    ]


def kinds(game: Game[Any, Any, Any]) -> set[str]:
    return {t.__struct_config__.tag for t in get_args(game.event_type)}


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


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_refused_event_leaves_the_state_exactly_as_it_was(name):
    """Check, then mutate: for every kind of event, chance outcomes included."""
    game = GAMES[name]
    sim = game.simulation
    assert sim is not None
    refused: set[str] = set()
    elsewhere = recorded(game)
    for seed in range(MATCHES):
        state, bots, rng = begin(game, seed)
        pool: list[Any] = list(elsewhere)
        while not (sim.finished or game.is_over)(state) and len(pool) < len(elsewhere) + 1500:
            event = sim.chance(state, rng)
            if event is None:
                seat = sim.to_move(state)
                event = bots[seat].choose(
                    state, seat, (sim.options or game.legal_events)(state, seat), rng
                )
                if event is STOP:
                    assert sim.stop is not None
                    sim.stop(state)
                    continue
            pool.append(event)
            for trial in _mutants(event, pool, rng)[:TRIALS]:
                if trial == event:
                    continue
                probe = copy.deepcopy(state)
                before = fingerprint(probe)
                try:
                    game.apply(probe, trial)
                except IllegalEvent:
                    assert fingerprint(probe) == before, (
                        f"{name}: a refused {type(trial).__struct_config__.tag} changed the "
                        f"state: {trial!r}"
                    )
                    refused.add(type(trial).__struct_config__.tag)
            game.apply(state, event)
    assert kinds(game) - refused == set(), "every kind of event was tried and refused"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_name_a_game_exports_exists(name):
    module = __import__(f"replay.games.{name.replace('-', '_')}", fromlist=["__all__"])
    assert [n for n in module.__all__ if not hasattr(module, n)] == []
    assert module.RULES is GAMES[name]


@pytest.mark.parametrize("name", sorted(n for n, g in GAMES.items() if g.catalogue))
def test_a_game_that_reads_a_catalogue_is_handed_it_and_checks_its_hash(name):
    from ingest.simulate import Spec, _header
    from replay.replayer import open_log

    game = GAMES[name]
    assert game.catalogue is not None
    spec = Spec(game=name, players=PLAYERS[name], bots=("random",), seed=0)
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


@pytest.mark.parametrize("name", sorted(GAMES))
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


@pytest.mark.parametrize("name", sorted(GAMES))
def test_what_a_game_expects_names_every_event_it_accepts_by_its_kind(name):
    game = GAMES[name]
    sim = game.simulation
    assert sim is not None
    every = kinds(game)
    for seed in range(2):
        state, bots, rng = begin(game, seed)
        steps = 0
        while not (sim.finished or game.is_over)(state) and steps < 800:
            expect = game.expecting(state)
            accepted = set(expect.accepted)
            assert accepted <= every, f"{name}: {accepted - every} are not event kinds"
            assert not expect.kinds or expect.kind not in every  # a choice has its own name
            event = sim.chance(state, rng)
            if event is None:
                seat = sim.to_move(state)
                offered = {type(e).__struct_config__.tag for e in game.legal_events(state, seat)}
                assert offered <= accepted, f"{name}: offers {offered - accepted} unannounced"
                event = bots[seat].choose(
                    state, seat, (sim.options or game.legal_events)(state, seat), rng
                )
                if event is STOP:
                    assert sim.stop is not None
                    sim.stop(state)
                    continue
            assert type(event).__struct_config__.tag in accepted
            game.apply(state, event)
            steps += 1


# --- golden logs, determinism, clean refusals: the same for every game ---------------------

FOLDERS = {name: ROOT / "tests" / name.replace("-", "_") for name in GAMES}
EXAMPLE_LOGS = sorted(log for folder in FOLDERS.values() for log in folder.glob("logs/*.jsonl"))


@pytest.mark.parametrize("log", EXAMPLE_LOGS, ids=lambda p: p.stem)
def test_each_worked_example_ends_with_the_digests_result(log):
    from tests.golden import check_expected

    check_expected(log, log.parents[1] / "expected.jsonl")


@pytest.mark.parametrize("log", EXAMPLE_LOGS, ids=lambda p: p.stem)
def test_each_worked_example_replays_to_its_reviewed_golden_facts_and_end_state(log):
    from tests.golden import check

    check(log, log.parents[1] / "golden")


def test_every_game_has_worked_examples():
    assert {log.parents[1].name for log in EXAMPLE_LOGS} == {f.name for f in FOLDERS.values()}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_same_arguments_give_byte_identical_files_with_one_or_two_jobs(name, tmp_path):
    from ingest.cli import main

    from .support import files

    sim = GAMES[name].simulation
    assert sim is not None
    args = ["simulate", name, "-n", "8", "--players", str(PLAYERS[name]), "--bots",
            ",".join(sim.bots), "--seed", "7"]  # fmt: skip
    assert main([*args, "--jobs", "1", "--out", str(tmp_path / "one")]) == 0
    assert main([*args, "--jobs", "2", "--out", str(tmp_path / "two")]) == 0
    one, two = files(tmp_path / "one"), files(tmp_path / "two")
    assert len(one) == 8 and one == two
    assert main([*args[:-1], "8", "--jobs", "1", "--out", str(tmp_path / "other")]) == 0
    assert files(tmp_path / "other").keys().isdisjoint(one)  # another seed, other matches


def _header_of(name: str) -> bytes:
    """The first worked example's header line: a valid start for any bytes that follow."""
    first = sorted((FOLDERS[name] / "logs").glob("*.jsonl"))[0]
    return first.read_bytes().split(b"\n", 1)[0] + b"\n"


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=150, deadline=None)
@given(data=st.binary(max_size=300) | st.text(max_size=200).map(str.encode))
def test_arbitrary_bytes_either_replay_or_are_refused_cleanly(name, data):
    from replay.errors import ReplayError
    from replay.replayer import open_log, replay

    prefix = {"knight-academy": "KA-", "heraldry": "HE-", "paladins": "PA-", "albus-academy": "AA-"}
    head = _header_of(name)
    replay(open_log(head, "head.jsonl", catalogues=CATALOGUES))  # a valid, incomplete match
    for blob in (data, head + data):
        try:
            replay(open_log(blob, "fuzz.jsonl", catalogues=CATALOGUES))
        except ReplayError as err:
            assert err.rule.startswith(("LOG-", prefix[name])) and err.line >= 1
