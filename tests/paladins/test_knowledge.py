"""What a Paladins seat knows (docs/engines.md): `view`, `resample` and `chance_outcomes` on
hand-built situations with the sample catalogue `squire-sample` v1."""

from __future__ import annotations

import gzip
import math
import random
from pathlib import Path

import msgspec
import pytest

from replay.game import HIDDEN
from replay.games import paladins as pa
from replay.games.paladins.bots import GreedyBot, weighed_alike
from replay.games.paladins.events import Pass
from replay.games.paladins.ledger import abilities
from replay.games.paladins.legal import canonical, chance_event, chance_outcomes
from replay.games.paladins.rules import apply_legal
from replay.games.paladins.scoring import result, score
from replay.log import Final
from tests.support import CATALOGUES

from .support import OUTSIDERS, PALADINS, TOWNSFOLK, give, new, run, seat, table_in

ROOT = Path(__file__).resolve().parents[2]
DECKS = ("townsfolk_deck", "outsider_deck", "wall_deck", "suspicion_deck", "order_deck")
DECKS += ("favour_deck", "tavern_deck")


def _chosen() -> pa.State:
    """Round 1 with both paladins chosen face down (PA-10), none revealed yet (PA-11)."""
    state = new(paladin_decks={"Ann": PALADINS, "Bob": PALADINS[4:] + PALADINS[:4]})
    run(
        state,
        "reveal_townsfolk " + " ".join(TOWNSFOLK),
        "reveal_outsiders " + " ".join(OUTSIDERS),
        "reveal_king ord-1",
        "reveal_tavern tav-01 tav-02 tav-03",
        "Ann choose_paladin pal-01 pal-02 pal-03",
        "Bob choose_paladin pal-05 pal-06 pal-07",
    )
    return state


def test_pa10_a_chosen_paladin_is_hidden_from_the_others_until_its_reveal():
    state = _chosen()
    ann = pa.RULES.view(state, 0)
    assert seat(ann, "Ann").paladin == "pal-01"  # its own, known
    assert seat(ann, "Bob").paladin == HIDDEN and not seat(ann, "Bob").revealed
    assert seat(pa.RULES.view(state, 1), "Ann").paladin == HIDDEN
    assert seat(pa.RULES.view(state, None), "Bob").paladin == "pal-05"  # the analysis board
    # PA-11: Ann's paladin shows from her take_tavern on, Bob's is still face down.
    run(state, "Ann take_tavern tav-01")
    assert seat(pa.RULES.view(state, 1), "Ann").paladin == "pal-01"
    assert seat(pa.RULES.view(state, 0), "Bob").paladin == HIDDEN
    run(state, "Bob take_tavern tav-02")
    assert seat(pa.RULES.view(state, 0), "Bob").paladin == "pal-05"


def test_pa10_pa42_every_deck_is_backs_of_its_length_its_own_paladin_deck_too():
    state = _chosen()
    ann = pa.RULES.view(state, 0)
    for me in ann.board:  # PA-10: 12 paladins less the one kept, face down
        assert me.deck == [HIDDEN] * 11
    for deck in DECKS:
        assert getattr(ann, deck) == [HIDDEN] * len(getattr(state, deck)), deck
    assert ann.townsfolk == state.townsfolk and ann.tavern == state.tavern  # face up
    assert pa.RULES.view(ann, 0) == ann
    shown = pa.snapshot(ann)["seats"]
    assert shown["Bob"]["private"] == {"paladin": HIDDEN, "deck": [HIDDEN] * 11}
    assert shown["Bob"]["effective"] == dict.fromkeys(("faith", "strength", "influence"), HIDDEN)
    assert shown["Ann"]["effective"]["strength"] == 2  # PA-12: Aldric's 2str, her own


def test_pa10_a_seat_choosing_its_paladin_sees_the_three_it_drew_and_no_one_else_does():
    """Before its choice the three top paladins of its deck are in its hand: it sees them
    (and chooses among them), the others see backs; a state dealt again keeps them."""
    state = new(paladin_decks={"Ann": PALADINS, "Bob": PALADINS[4:] + PALADINS[:4]})
    run(
        state,
        "reveal_townsfolk " + " ".join(TOWNSFOLK),
        "reveal_outsiders " + " ".join(OUTSIDERS),
        "reveal_king ord-1",
        "reveal_tavern tav-01 tav-02 tav-03",
    )
    ann = pa.RULES.view(state, 0)
    assert seat(ann, "Ann").deck == [*PALADINS[:3], *[HIDDEN] * 9]
    assert seat(ann, "Bob").deck == [HIDDEN] * 12
    assert seat(pa.RULES.view(state, 1), "Ann").deck == [HIDDEN] * 12
    dealt = pa.RULES.resample(state, 0, random.Random(4))
    assert seat(dealt, "Ann").deck[:3] == PALADINS[:3]
    assert sorted(seat(dealt, "Ann").deck) == sorted(PALADINS)
    assert pa.RULES.legal_events(dealt, 0) == pa.RULES.legal_events(state, 0)
    run(state, "Ann choose_paladin pal-01 pal-02 pal-03")  # chosen: the deck is backs again
    assert seat(pa.RULES.view(state, 0), "Ann").deck == [HIDDEN] * 11


def test_pa42_resample_deals_the_hidden_places_from_the_unseen_cards_only():
    state = _chosen()
    cat = state.catalogue
    rng = random.Random(3)
    ann = pa.RULES.view(state, 0)
    for given in (state, ann):  # from the state or from Ann's view alone, the same
        drawn = pa.RULES.resample(given, 0, rng)
        assert pa.RULES.view(drawn, 0) == ann
        # her own deck: every paladin but the one she kept; Bob's paladin and deck: all 12
        assert sorted(seat(drawn, "Ann").deck) == [p for p in PALADINS if p != "pal-01"]
        bob = seat(drawn, "Bob")
        assert sorted([bob.paladin, *bob.deck]) == PALADINS
        assert sorted(drawn.townsfolk_deck) == sorted(set(cat.ids("townsfolk")) - set(TOWNSFOLK))
        assert sorted(drawn.tavern_deck) == sorted(set(cat.ids("tavern")) - set(state.tavern))
        assert sorted(drawn.order_deck) == sorted(set(cat.ids("order")) - {"ord-1"})
    assert pa.RULES.resample(state, None, rng) == state
    shuffled = {tuple(pa.RULES.resample(state, 0, rng).townsfolk_deck) for _ in range(5)}
    assert len(shuffled) > 1  # dealt again, not kept


def test_pa35_pa36_attacked_outsiders_lie_face_down_converts_face_up():
    state = table_in()
    give(state, "Ann", green=1, white=1, red=1)
    run(state, "Ann attack out-04 green white red")
    for who in (0, 1):  # face down beside the board: a back to everyone, its attacker too
        assert seat(pa.RULES.view(state, who), "Ann").attacked == [HIDDEN]
    assert seat(pa.RULES.view(state, None), "Ann").attacked == ["out-04"]
    drawn = pa.RULES.resample(state, 1, random.Random(1))
    (card,) = seat(drawn, "Ann").attacked
    displayed = {c for c in state.outsiders if c is not None}
    assert card not in displayed and card not in drawn.outsider_deck
    assert sorted([card, *drawn.outsider_deck]) == sorted(
        set(state.catalogue.ids("outsider")) - displayed
    )


def test_pa9_pa54_chance_lists_each_reveal_once_with_its_probability():
    state = new()
    deck = len(state.townsfolk_deck)
    # PA-54: the display fills slot by slot, so each ordering of 5 cards is its own outcome
    first = next(chance_outcomes(state))
    assert first[1] == pytest.approx(1 / math.perm(deck, 5))
    run(
        state,
        "reveal_townsfolk " + " ".join(TOWNSFOLK),
        "reveal_outsiders " + " ".join(OUTSIDERS),
    )
    kings = list(chance_outcomes(state))
    assert {e.card for e, _ in kings} == set(state.order_deck)  # type: ignore[union-attr]
    assert sum(p for _, p in kings) == pytest.approx(1)  # type: ignore[misc]
    run(state, "reveal_king ord-1")
    # PA-9: the tavern's 3 cards are a set: each once, sorted, C(n, 3) of them
    tavern = list(chance_outcomes(state))
    assert len(tavern) == math.comb(len(state.tavern_deck), 3)
    assert sum(p for _, p in tavern) == pytest.approx(1)  # type: ignore[misc]
    drawn = chance_event(state, random.Random(2))
    assert drawn is not None and canonical(drawn) in [e for e, _ in tavern]
    run(state, "reveal_tavern tav-01 tav-02 tav-03")
    assert list(chance_outcomes(state)) == []  # the paladins are the players' choice


def test_pa48_a_short_tavern_deck_is_all_revealed_then_its_discard_drawn_from():
    state = new()
    run(
        state,
        "reveal_townsfolk " + " ".join(TOWNSFOLK),
        "reveal_outsiders " + " ".join(OUTSIDERS),
        "reveal_king ord-1",
    )
    state.tavern_discard = state.tavern_deck[2:]
    state.tavern_deck = state.tavern_deck[:2]
    outcomes = list(chance_outcomes(state))
    assert len(outcomes) == len(state.tavern_discard)  # 1 fresh card of the discard's
    for event, p in outcomes:
        assert set(state.tavern_deck) <= set(event.cards)  # type: ignore[union-attr]
        assert p == pytest.approx(1 / len(state.tavern_discard))
    pa.apply(pa.RULES.clone(state), outcomes[0][0])


def test_pa28_pa56_a_suspicion_draw_from_an_empty_deck_is_from_its_discard():
    state = table_in()
    state.suspicion_discard, state.suspicion_deck = state.suspicion_deck[:3], []
    state.phase = "draw_suspicion"
    outcomes = list(chance_outcomes(state))
    assert [e.card for e, _ in outcomes] == state.suspicion_discard  # type: ignore[union-attr]
    assert all(p == pytest.approx(1 / 3) for _, p in outcomes)


def _states_of_a_sample(every: int = 9) -> list[pa.State]:
    """Every `every`-th state of a bundled three-seat match, from setup to its end."""
    from replay.replayer import open_log, replay, start

    path = sorted((ROOT / "data" / "samples" / "paladins").glob("*.jsonl.gz"))[0]
    match = open_log(gzip.decompress(path.read_bytes()), str(path), catalogues=CATALOGUES)
    state, out = start(match), []
    for n, step in enumerate(replay(match).steps):
        if isinstance(step.event, Final):
            break
        if n % every == 0:
            out.append(pa.RULES.clone(state))
        pa.apply(state, step.event)
    return [*out, state]


def test_a_clone_is_equal_and_shares_nothing_the_rules_change():
    shared = {"config", "catalogue", "players", "seats"}  # frozen, or never changed
    for state in _states_of_a_sample():
        copy = pa.RULES.clone(state)
        assert copy == state
        for name in pa.State.__struct_fields__:
            value = getattr(state, name)
            if isinstance(value, (list, dict, set)) and name not in shared:
                assert getattr(copy, name) is not value, name
        for mine, theirs in zip(copy.board, state.board, strict=True):
            assert mine is not theirs
            for name in msgspec.structs.fields(mine):
                value = getattr(theirs, name.name)
                if isinstance(value, (list, dict, set)):
                    assert getattr(mine, name.name) is not value, name.name
            assert all(a is not b for a, b in zip(mine.spaces.values(), theirs.spaces.values()))
        assert all(
            a is not b for a, b in zip(copy.favour_workers.values(), state.favour_workers.values())
        )


def test_pa61_pa62_a_seats_score_is_its_banked_vp_and_every_end_source():
    """`score`, which the greedy bot asks for every option, sums what `result` shows, under
    the standard rules and with a repaid debt worth points (a designer's variation)."""
    states = _states_of_a_sample(every=5)
    for state in states[::4]:
        state.config = msgspec.structs.replace(state.config, debt_paid_vp=2)
        state.board[0].repaid, state.board[1].debts = 1, 2
    for state in states:
        shown = result(state)
        for who in range(len(state.players)):
            assert score(state, who) == sum(shown.sources[who].values()) == shown.scores[who]


class _WeighingEveryOption(GreedyBot):
    """The greedy bot as it chose before options alike were weighed once: every option cloned,
    applied and scored."""

    def choose(self, state, seat, options, rng):
        if len(options) == 1:
            return options[0]
        base = self.worth(state, seat)
        best = None
        for option in options:
            trial = pa.RULES.clone(state)
            pa.apply(trial, option)
            gain = self.worth(trial, seat) - base - (0.25 if isinstance(option, Pass) else 0)
            key = (gain, rng.random(), option)
            if best is None or key[:2] > best[:2]:
                best = key
        return best[2]


def test_pa16_options_that_differ_only_in_colours_are_worth_the_same_to_the_greedy_bot():
    """A worker's colour decides only which slot it fits (PA-16): options alike but for the
    colours they place or keep leave states the greedy bot values the same, so it weighs one
    of them for all; its choices, random tie-breaks included, are those of weighing each."""
    bot, compared, merged = GreedyBot(), 0, 0
    for state in _states_of_a_sample(every=3):
        for who in range(len(state.players)):
            options = list(pa.legal_events(state, who))
            if len(options) < 2:
                continue
            worth: dict[tuple, set[float]] = {}
            for option in options:
                trial = pa.RULES.clone(state)
                pa.apply(trial, option)
                worth.setdefault(weighed_alike(option), set()).add(bot.worth(trial, who))
            assert all(len(values) == 1 for values in worth.values())
            merged += len(options) - len(worth)
            compared += 1
    assert compared > 20 and merged > 100  # the sample's turns do offer colours to choose


def test_an_event_the_rules_list_changes_the_state_alike_with_its_checks_or_without():
    """`apply_legal`, the greedy bot's trial, leaves out only the checks a listed move
    passes: every legal move of every seat, at every other state of a sample, leaves the same
    state and the same facts as `apply`."""
    from replay.games.paladins.actions import ACTIONS

    tried: set[type] = set()
    discounted = 0
    for state in _states_of_a_sample(every=2):
        for who in range(len(state.players)):
            for option in pa.legal_events(state, who):
                checked, unchecked = pa.RULES.clone(state), pa.RULES.clone(state)
                assert list(apply_legal(unchecked, option)) == list(pa.apply(checked, option))
                assert unchecked == checked
                tried.add(type(option))
            discounted += any(a.kind == "discount" for _, a in abilities(state, who))
    # every action of the table tried, and prices cut by a seat's abilities
    assert set(ACTIONS) <= tried and discounted > 0


def test_the_greedy_bot_plays_the_matches_it_played_when_it_weighed_every_option(monkeypatch):
    """Its random tie-breaks included: simulated matches stay what they were."""
    from ingest.simulation.simulate import Spec, simulate_chunk

    spec = Spec(game="paladins", players=3, bots=("greedy",), seed=7)
    now = [w.data for w in simulate_chunk((spec, 0, 10))]
    monkeypatch.setitem(pa.RULES.simulation.bots, "greedy", _WeighingEveryOption)
    assert [w.data for w in simulate_chunk((spec, 0, 10))] == now
