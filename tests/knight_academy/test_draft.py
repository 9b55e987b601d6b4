"""The draft as the table saw it (KA-5): each pick's hand as the replayer holds it, the
hate-drafts by the greedy bot's measure, what a perspective may see, and the tallies."""

from __future__ import annotations

from collections import Counter

import polars as pl
import pytest

from dashboards.boards.knight_academy.draft import (
    VALUER,
    by_card,
    by_seat,
    drafts,
    grid,
    hate_drafts,
)
from replay.replayer import open_log, state_at

from .support import LOGS

PASSING = ["ka-example-3p", "ka-example-4p", "ka-example-5p", "ka-example-gawain",
           "ka-example-advanced-3p", "ka-example-boards-3p"]  # fmt: skip


def _match(name: str):
    path = LOGS / f"{name}.jsonl"
    return open_log(path.read_bytes(), str(path))


@pytest.mark.parametrize("name", PASSING)
def test_ka_5_every_pick_holds_the_hand_the_replayer_holds_and_passes_it_on(name):
    match = _match(name)
    rounds = drafts(match)
    n = len(match.header.players)
    assert [r.round for r in rounds] == list(range(1, len(rounds) + 1)) and rounds
    for rnd in rounds:
        picks = {(p.player, p.number): p for p in rnd.picks}
        for pick in rnd.picks:
            before = state_at(match, pick.index - 1)
            assert Counter(before.hands[before.seats[pick.player]]) == Counter(pick.hand)
            if pick.number == 1:
                assert pick.hand == rnd.dealt[pick.player]
            if pick.passed_to is not None:  # what it passed is what the next seat picks from
                assert Counter(picks[pick.passed_to, pick.number + 1].hand) == Counter(pick.passed)
            assert bool(pick.came_back) == (pick.number > n)  # its own packet, once round


def test_ka_5_a_hate_draft_worked_by_hand():
    # ka-example-4p, round 2, Bob's third pick, from sword-4, king-4, charity-5. Charity scores
    # in round 6 only, so the greedy bot counts its points at 0.7 (a later scoring). Charity
    # stands Bob 2, Cid 2 (Bob on top, arrived later), Ann 4, Fay 0; the last pays -10, the
    # second-last -5 (KA-14). charity-5 to Fay: from last (-10) to first, Cid last → 10 × 0.7
    # = 7. To Bob: Cid stays below him whether he moves or not → 0. Bob held a card worth more
    # to himself, so taking charity-5 denied Fay 7 points: a hate-draft.
    match = _match("ka-example-4p")
    [pick] = [
        p
        for r in drafts(match)
        for p in r.picks
        if r.round == 2 and p.player == "Bob" and p.number == 3
    ]
    assert (pick.card, pick.passed_to) == ("charity-5", "Fay")
    assert pick.worth == 0.0 and pick.worth_next == pytest.approx(7.0)
    state = state_at(match, pick.index - 1)
    bob = state.seats["Bob"]
    assert pick.best == max(VALUER.card_worth(state, bob, c) for c in pick.hand) > 0
    assert pick.hate
    # the same card to Bob in his first pick of round 1, where every disc stood at 0: worth
    # the same to everyone, so no first-round pick is a hate-draft
    assert not any(p.hate for p in drafts(match)[0].picks)


def test_ka_20_lancelot_has_no_passing_draft():
    assert drafts(_match("ka-example-lancelot")) == []


def test_a_perspective_sees_its_own_picks_and_only_the_hand_it_passed_on():
    match = _match("ka-example-4p")
    rnd = drafts(match)[0]
    players = list(match.header.players)
    everyone = grid(rnd, players, None, "?")
    assert all("?" not in row.values() for row in everyone)
    bob = grid(rnd, players, "Bob", "?")
    assert bob[0]["Bob"] != "?" and all(bob[0][p] == "?" for p in players if p != "Bob")
    passed = {p.number: p for p in rnd.picks if p.player == "Bob"}
    for row in bob[1:]:
        number = int(row[""])
        given = passed.get(number - 1)  # the hand Bob passed on at his previous pick
        for who in players:
            if who == "Bob":
                assert row[who].startswith(passed[number].card)
            elif given is not None and who == given.passed_to:
                assert row[who] == ", ".join(given.passed)
            else:
                assert row[who] == "?"


def test_hate_drafts_tallied_by_card_and_by_how_often_a_seat_denies():
    rounds = drafts(_match("ka-example-4p"))
    players = {"Bob", "Cid", "Ann", "Fay"}
    picks = hate_drafts([("m", rounds, players, {"Ann"})])
    assert picks.height == sum(len(r.picks) for r in rounds)
    cards = by_card(picks)
    charity = cards.filter(pl.col("card") == "charity-5").row(0, named=True)
    taken = [p for r in rounds for p in r.picks if p.card == "charity-5"]
    assert charity["picks"] == len(taken)
    assert charity["hate_drafts"] == sum(p.hate for p in taken)
    seats = by_seat(picks)
    rates = {
        who: sum(p.hate for r in rounds for p in r.picks if p.player == who)
        / sum(1 for r in rounds for p in r.picks if p.player == who)
        for who in players
    }
    often = {who for who, rate in rates.items() if rate >= 0.1}
    counted = dict(zip(seats["often"], seats["seats"], strict=True))
    assert counted.get(True, 0) == len(often) and counted.get(False, 0) == 4 - len(often)
    won = dict(zip(seats["often"], seats["win_rate"], strict=True))
    assert won.get(("Ann" in often), 0) > 0  # Ann won: her group's win rate counts her
    assert set(seats["fair_share"]) == {0.25}
