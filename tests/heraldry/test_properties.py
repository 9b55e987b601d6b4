"""Invariants over random legal matches (after OpenSpiel's random-playout tests)."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.errors import IllegalEvent
from replay.games import heraldry as he
from replay.games.heraldry.legal import canonical
from replay.replayer import open_log, replay
from tests.support import all_facts, log_data

from .support import clone, fingerprint, random_log

SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
rule_changes = st.fixed_dictionaries(
    {},
    optional={
        "promotion_cost": st.integers(8, 25),
        "recruit_max": st.integers(1, 3),
        "city_points": st.integers(0, 20),
        "block_pieces": st.integers(1, 3),
        "reserve": st.fixed_dictionaries(
            {
                "city": st.integers(3, 6),
                "fortress": st.integers(0, 3),
                "knight": st.integers(4, 9),
                "village": st.integers(6, 15),
            }
        ),
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
    outcome = replay(open_log(data, "r.jsonl"))
    assert sorted(outcome.result.ranks) == list(range(1, players + 1))
    if outcome.result.complete:
        assert len(outcome.result.winners) == 1
    else:  # bots that can no longer earn tokens never make a duke: cut short (MAX_EVENTS)
        assert len(outcome.steps) == he.MAX_EVENTS
    assert all_facts(data) == all_facts(data)


def _pieces_conserved(state: he.State) -> None:
    """HE-1: every piece is in its owner's reserve, on the map, or (knights) gone for good."""
    for seat in range(len(state.players)):
        on_map = Counter(piece for piece in state.built[seat].values())
        on_map["knight"] = sum(state.posts[seat].values())
        for piece, count in state.config.reserve.items():
            gone = state.lost[seat] if piece == "knight" else 0
            assert state.reserve[seat][piece] + on_map[piece] + gone == count, (seat, piece)
        assert all(state.knights[h][seat] == n for h, n in state.posts[seat].items())
        assert all(state.building[h] == (seat, p) for h, p in state.built[seat].items())


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), players=st.integers(2, 3))
def test_every_state_conserves_pieces_and_the_engine_accepts_exactly_what_it_offers(seed, players):
    rng = random.Random(seed)
    lines = random_log(seed, players)
    head = msgspec.json.decode(lines[0], type=he.Header)
    state = he.new_game(he.RULES.ruleset(head), head)
    events = [msgspec.json.decode(line, type=he.Event) for line in lines[1:]]
    for event in events:
        _pieces_conserved(state)
        offered = he.legal_events(state)
        assert offered, "a live game always has a legal event, if only a pass"
        for option in rng.sample(offered, min(3, len(offered))):  # enumerate ⊆ accept
            he.apply(clone(state), option)
        for miss in _near_misses(state, rng):  # accept ⊆ enumerate, on a sample
            trial = clone(state)
            before = fingerprint(trial)
            try:
                he.apply(trial, miss)
            except IllegalEvent:
                assert fingerprint(trial) == before, "a rejected event changed the state"
                continue
            assert canonical(state, miss) in offered or _overpays(state, miss, offered), miss
        he.apply(state, event)
    assert he.is_over(state) and he.legal_events(state) == []


def _overpays(state: he.State, event: he.Event, offered: list[he.Event]) -> bool:
    """HE-18: a promotion with needless tokens pays some offered payment and more."""
    if not isinstance(event, he.Promote):
        return False
    paid = Counter(event.pay)
    return any(isinstance(o, he.Promote) and not Counter(o.pay) - paid for o in offered)


def _near_misses(state: he.State, rng: random.Random) -> list[he.Event]:
    """Events of the right shape, mostly about the acting seat's own pieces and tokens."""
    board = state.board
    coords = board.coords
    player = state.players[state.turn] if rng.random() < 0.8 else rng.choice(state.players)
    seat = state.seats[player]
    mine = list(state.posts[seat]) or [rng.randrange(len(board))]

    def anywhere() -> int:
        return rng.randrange(len(board))

    def near(h: int) -> int:
        return rng.choice(board.neighbours[h]) if board.neighbours[h] else h

    held = [t for t, c in state.tokens[seat].items() for _ in range(c)]
    out: list[he.Event] = []
    for _ in range(3):
        a = rng.choice(mine)
        b = near(a)
        loot = [rng.choice(he.TERRAINS[:4])] if rng.random() < 0.3 else []
        first = he.Step(from_=coords[a], to=coords[b], loot=loot)
        c = rng.choice([b, *mine])
        second = he.Step(from_=coords[c], to=coords[near(c)])
        out.append(he.Move(player=player, steps=[first, second][: rng.choice((1, 2, 2))]))
        sites = rng.sample(mine, rng.randint(1, len(mine)))
        out.append(
            he.Build(
                player=player,
                sites=[
                    he.Site(hex=coords[h], piece=rng.choice(("village", "fortress"))) for h in sites
                ],
            )
        )
        out.append(
            he.Recruit(
                player=player,
                city=coords[rng.choice([*state.built[seat], a])],
                knights=rng.randint(0, 4),
            )
        )
        out.append(he.FoundCity(player=player, hex=coords[rng.choice([*state.built[seat], a])]))
        out.append(he.Expedition(player=player, hex=coords[anywhere()]))
        out.append(he.Promote(player=player, pay=rng.sample(held, rng.randint(0, len(held)))))
        out.append(he.PlaceCity(player=player, hex=coords[anywhere()]))
    out.append(he.Pass(player=player))
    return out
