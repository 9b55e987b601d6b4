"""The Record page's entry model: every bundled sample entered again button by button comes
out byte for byte, within the taps the page promises; a seat's secret is entered by that seat
alone; a correction is checked against everything after it; a draft survives a restart."""

from __future__ import annotations

import functools
import gzip
from collections import defaultdict
from pathlib import Path

import msgspec
import pytest

from dashboards.record.entry import Choose, Entry, Handover, Over, Problem
from dashboards.record.scribe import enter_log, from_draft, new_entry
from dashboards.record.table import header_line
from ingest.files.catalogues import Library
from ingest.simulation.simulate import catalogue_for
from ingest.warehouse import drafts
from replay.registry import GAMES

ROOT = Path(__file__).parents[2]
SAMPLES = ROOT / "data" / "samples"
BUDGET = {"knight-academy": 2, "albus-academy": 2, "heraldry": 3, "paladins": 3}


def _runs() -> list[Path]:
    """The first match of every simulated run among the samples: every variant, rule set and
    table size they hold, once."""
    first: dict[str, Path] = {}
    for path in sorted(SAMPLES.glob("*/*.jsonl.gz")):
        first.setdefault(path.name.rsplit("-", 1)[0], path)
    return sorted(first.values())


RUNS = _runs()


@functools.cache
def _data(path: Path) -> bytes:
    return gzip.decompress(path.read_bytes())


@pytest.mark.parametrize("path", RUNS, ids=[p.name.split(".")[0] for p in RUNS])
def test_a_sample_entered_again_tap_by_tap_comes_out_byte_for_byte(path: Path) -> None:
    data = _data(path)
    entered = enter_log(data, Library(), str(path))
    assert entered.entry.log() == data
    assert entered.events == len(data.splitlines()) - 1


def test_the_taps_an_event_takes_stay_within_the_pages_promise() -> None:
    """At most 2 taps an event on average for Knight Academy and Albus Academy, 3 for
    Heraldry and Paladins, hand-overs of the device counted (bench/record_taps.py gives the
    figure over every sample)."""
    taps: dict[str, int] = defaultdict(int)
    events: dict[str, int] = defaultdict(int)
    for path in RUNS:
        entered = enter_log(_data(path), Library(), str(path))
        game = entered.entry.game.name
        taps[game] += entered.taps
        events[game] += entered.events
    for game, budget in BUDGET.items():
        assert 1 <= taps[game] / events[game] <= budget, game


def _entry(game: str, players: list[str], variant: str | None = None) -> Entry:
    line = header_line(game, players, variant=variant, catalogue=catalogue_for(game), seed=7)
    return new_entry(line, Library())


def _deal(entry: Entry, cards: list[str]) -> None:
    """Deal the next seat waiting these cards, a card a tap."""
    for card in cards:
        screen = entry.screen()
        if isinstance(screen, Handover):
            entry.take()
            screen = entry.screen()
        assert isinstance(screen, Choose)
        entry.tap(f"card:{card}")


HANDS = {
    "Ann": ["sword-3", "sword-4", "king-2", "education-2", "quest-5"],
    "Bob": ["quest-4", "sword-5", "education-4", "charity-5", "king-3"],
    "Cid": ["courage-2", "courage-3", "charity-2", "quest-2", "king-4"],
}


def _dealt() -> Entry:
    """Knight Academy, three seats, each dealt its hand: Ann's first, then Bob's, then Cid's."""
    entry = _entry("knight-academy", ["Ann", "Bob", "Cid"])
    for player, cards in HANDS.items():
        screen = entry.screen()
        if isinstance(screen, Handover):  # the last seat to be dealt: no one else to choose
            assert screen.player == player
        else:
            assert isinstance(screen, Choose)
            entry.tap(next(b.key for b in screen.buttons if b.tokens[0].value == player))
        _deal(entry, cards)
    return entry


def test_a_hand_is_dealt_to_its_seat_alone_a_card_a_tap() -> None:
    entry = _entry("knight-academy", ["Ann", "Bob", "Cid"])
    screen = entry.screen()
    # who is dealt is chosen on the table's screen, by the seat taking the device
    assert isinstance(screen, Choose) and not screen.private
    assert [b.tokens[0].value for b in screen.buttons] == ["Ann", "Bob", "Cid"]
    entry.tap(screen.buttons[0].key)
    screen = entry.screen()
    assert isinstance(screen, Choose) and screen.private and screen.player == "Ann"
    assert entry.holder == 0
    # the deck's 35 kinds of card, less the sword 1s and 2s a KA deck does not hold
    assert len(screen.buttons) == len(entry.state.deck)
    _deal(entry, HANDS["Ann"])
    assert msgspec.to_builtins(entry.events[0])["cards"] == HANDS["Ann"]  # as they came
    assert entry.holder is None  # the screen blanks for the next seat's deal
    assert entry.taps == 1 + 5


def test_a_pick_is_entered_by_its_seat_alone_from_its_own_hand() -> None:
    entry = _dealt()
    screen = entry.screen()
    # every seat picks at once (KA-5): the table's screen asks who picks; the one tapped
    # takes the device and sees its own hand, and no one else's
    assert isinstance(screen, Choose) and not screen.private
    entry.tap(next(b.key for b in screen.buttons if b.tokens[0].value == "Bob"))
    screen = entry.screen()
    assert isinstance(screen, Choose) and screen.private and screen.player == "Bob"
    offered = {b.tokens[-1].value for b in screen.buttons}
    assert offered == set(HANDS["Bob"])
    entry.tap(next(b.key for b in screen.buttons if b.tokens[-1].value == "sword-5"))
    assert entry.holder is None
    screen = entry.screen()
    assert isinstance(screen, Choose) and not screen.private
    assert {b.tokens[0].value for b in screen.buttons} == {"Ann", "Cid"}


def test_the_table_sees_no_hand_and_a_seat_only_its_own() -> None:
    entry = _dealt()
    game = entry.game
    table = game.snapshot(game.view(entry.state, entry.table))
    assert all(set(seat["hand"]) <= {"?"} for seat in table["seats"].values())
    mine = game.snapshot(game.view(entry.state, 1))
    assert sorted(mine["seats"]["Bob"]["hand"]) == sorted(HANDS["Bob"])
    assert set(mine["seats"]["Ann"]["hand"]) == {"?"}


def _picked(entry: Entry, player: str, card: str) -> None:
    screen = entry.screen()
    if isinstance(screen, Handover):
        entry.take()
    else:
        assert isinstance(screen, Choose)
        entry.tap(next(b.key for b in screen.buttons if b.tokens[0].value == player))
    screen = entry.screen()
    assert isinstance(screen, Choose)
    entry.tap(next(b.key for b in screen.buttons if b.tokens[-1].value == card))


def test_a_changed_deal_is_checked_against_the_picks_after_it() -> None:
    """Ann is dealt again without her king-2 (a king-5 instead): her pick of the king-2
    after it is the first entry the change makes illegal, under KA-5."""
    entry = _dealt()
    _picked(entry, "Ann", "king-2")
    _picked(entry, "Bob", "sword-5")
    assert len(entry.events) == 5
    entry.change(0)  # Ann's deal
    assert entry.state.round == 1 and not any(entry.state.dealt)
    screen = entry.screen()
    assert isinstance(screen, Choose)
    entry.tap(next(b.key for b in screen.buttons if b.tokens[0].value == "Ann"))
    _deal(entry, ["sword-3", "sword-4", "king-5", "education-2", "quest-5"])
    problem = entry.screen()
    assert isinstance(problem, Problem)
    assert (problem.index, problem.rule) == (3, "KA-5")
    assert "king-2" in problem.message
    assert entry.good == 3 and len(entry.events) == 5  # nothing after it is lost
    # entered again as she really picked: everything after is legal once more
    entry.change(3)
    _picked(entry, "Ann", "king-5")
    assert entry.problem is None and entry.good == 5


def test_an_entry_removed_or_inserted_again_checks_the_rest() -> None:
    entry = _dealt()
    _picked(entry, "Ann", "king-2")
    entry.remove(1)  # Bob's deal: Cid's deal is the second now, and Ann's pick waits on Bob
    assert isinstance(entry.screen(), Problem)
    problem = entry.problem
    assert problem is not None and problem.index == 2 and problem.rule == "KA-5"
    assert "deal for Bob" in problem.message
    entry.change(1, inserting=True)
    screen = entry.screen()
    assert isinstance(screen, Choose)
    assert [b.tokens[0].value for b in screen.buttons] == ["Bob", "Cid"]
    entry.tap(screen.buttons[0].key)
    _deal(entry, HANDS["Bob"])
    assert entry.problem is None and entry.good == 4


def test_a_draft_is_taken_up_where_it_was(tmp_path: Path) -> None:
    entry = _dealt()
    _picked(entry, "Cid", "king-4")
    entry.change(0)
    drafts.save(tmp_path, "ka-20261204-1800-abcd", entry.draft())
    kept = drafts.drafts(tmp_path)
    assert [(d.name, d.game, d.players, d.entries) for d in kept] == [
        ("ka-20261204-1800-abcd", "knight-academy", ["Ann", "Bob", "Cid"], 4)
    ]
    data = drafts.load(tmp_path, "ka-20261204-1800-abcd")
    assert data is not None
    again = from_draft(data, Library())
    assert again.events == entry.events and again.good == 4  # taken up checked, not editing
    assert not list(tmp_path.glob("drafts/.*"))  # no partial file left behind
    with pytest.raises(ValueError):
        drafts.load(tmp_path, "../escape")


def test_what_has_one_possible_entry_is_entered_without_a_tap() -> None:
    """KA-5: the last card of a hand goes to the seat it reaches; nothing to choose, so the
    model enters it, and only such events."""
    path = next(p for p in RUNS if p.name.startswith("ka-05163fd8"))
    match = enter_log(_data(path), Library(), str(path)).entry
    assert match.auto, "a four-seat draft ends each step with forced last cards"
    game = match.game
    state = new_entry(match.match.header_line, Library()).state
    state = game.clone(state)
    auto = set(match.auto)
    for index, event in enumerate(match.events):
        if index in auto:
            assert len(game.legal_events(state, None)) == 1, index
        game.apply(state, event)


def test_the_end_is_the_scores_and_the_log_claims_them() -> None:
    path = next(p for p in RUNS if p.name.startswith("he-"))
    data = _data(path)
    lines = data.splitlines()
    entered = enter_log(b"\n".join(lines[:-1]) + b"\n", Library(), str(path))
    screen = entered.entry.screen()
    assert isinstance(screen, Over)
    claim = msgspec.json.decode(lines[-1])
    assert screen.scores == claim["scores"]
    entered.entry.finish()
    assert entered.entry.log() == data


@pytest.mark.parametrize("name", list(GAMES))
def test_every_game_lays_out_a_table_for_a_new_match(name: str) -> None:
    entry = _entry(name, ["Ann", "Bob", "Cid"])
    header = entry.match.header
    assert header.source == "human" and not header.agents
    assert isinstance(entry.screen(), Choose | Handover)


def _until(entry: Entry, done) -> None:
    """Tap the first button (or take the device) until `done(screen)`."""
    for _ in range(200):
        screen = entry.screen()
        if done(screen):
            return
        if isinstance(screen, Handover):
            entry.take()
        else:
            assert isinstance(screen, Choose)
            entry.tap(screen.buttons[0].key)
    raise AssertionError("never came")


def test_a_paladin_deck_is_ordered_by_what_its_seat_says_it_drew() -> None:
    """PA-10: nobody at a table knows a deck's order. Ann says she drew three paladins other
    than those the header's provisional order puts on top; the header is rewritten so that
    they are, and her choice is then among exactly those three."""
    entry = _entry("paladins", ["Ann", "Bob", "Cid"])
    _until(entry, lambda s: (isinstance(s, Choose) and s.learning) or isinstance(s, Handover))
    screen = entry.screen()
    if isinstance(screen, Handover):
        entry.take()
        screen = entry.screen()
    assert isinstance(screen, Choose) and screen.learning and screen.private
    player = screen.player
    assert player is not None
    seat = entry.players.index(player)
    before = list(entry.match.header.paladin_decks[player])
    drawn = [card for card in sorted(before) if card not in before[:3]][:3]
    for card in drawn:
        entry.tap(f"seen:{card}")
    after = entry.match.header.paladin_decks[player]
    assert sorted(after[:3]) == sorted(drawn) and sorted(after) == sorted(before)
    screen = entry.screen()
    assert isinstance(screen, Choose) and not screen.learning and screen.private
    assert entry.holder == seat  # the same seat goes on: no hand-over between
    offered = {
        card
        for b in screen.buttons
        for t in b.tokens
        if t.name in ("paladin", "top", "bottom")
        for card in [t.value]
    }
    assert offered == set(drawn)
    entry.tap(screen.buttons[0].key)
    assert entry.events[-1].player == player
    assert entry.log().startswith(entry.match.header_line.rstrip(b"\n"))
