"""Nothing the Record page shows a screen gives away what that screen's viewer may not see.

Every entry of a sample of each game is entered again as the page offers it, and every
screen is read as the page draws it: the table's shared screen, or the screen of the seat the
device was passed to. A component the engine's view hides from that viewer (a card in another
seat's hand, a paladin face down) must not be on it, forced entries included. With "Each
player taps their own moves" off, an open choice may show its player's hand, and the page
says so above the buttons (`reveals`); with it on, nothing may.
"""

from __future__ import annotations

import functools
import gzip
import random
from pathlib import Path
from typing import Any

import msgspec
import pytest

from dashboards.record.entry import Choose, Entry, Screen
from dashboards.record.scribe import enter_log
from ingest.files.catalogues import Library
from replay.registry import GAMES

# A pool's buttons (a hand dealt a card at a time, the paladins a seat says it drew) are
# every component that may still come, and those entered so far are what the viewer itself
# was dealt: a value there says nothing of where another copy lies. What a pool lacks might:
# it is checked against the pools of states the viewer could be in (RESAMPLES of them).
POOLS = ("card:", "seen:")
RESAMPLES = 3
SAMPLES = Path(__file__).parents[2] / "data" / "samples"


def _header(path: Path) -> dict[str, Any]:
    with gzip.open(path) as log:
        header: dict[str, Any] = msgspec.json.decode(log.readline())
    return header


def _samples() -> list[Path]:
    """A three-player match of each game (Knight Academy's draft then ends each round with
    every seat's last card, a forced pick), a Lancelot match, whose colours are entered by
    the persons who hold them (KA-20), and one with every variant board (KA-22: a codex
    shield mercy gives changes hands face down)."""
    chosen: dict[tuple[str, str | None], Path] = {}
    for path in sorted(SAMPLES.glob("*/*-000000.jsonl.gz")):
        header = _header(path)
        variant, ruleset = header.get("variant"), header.get("ruleset")
        if ruleset == "knight-academy/all-boards":  # a codex shield given face down (mercy)
            chosen.setdefault((header["game"], ruleset), path)
        elif ruleset is None and (len(header["players"]) == 3 or variant == "lancelot"):
            chosen.setdefault((header["game"], variant), path)
    return [chosen[key] for key in sorted(chosen, key=str)]


@functools.cache
def _library() -> Library:
    return Library()


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(k) | _strings(v) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return set().union(*(_strings(v) for v in value))
    return set()


def _values(tokens: Any) -> set[str]:
    return {str(t.value) for t in tokens if isinstance(t.value, str)}


def _hidden(game: Any, state: Any, viewer: int) -> set[str]:
    """The values the whole state holds that the viewer's view of it does not."""
    whole = _strings(game.snapshot(state))
    return whole - _strings(game.snapshot(game.view(state, viewer)))


def _viewer(entry: Entry, screen: Choose) -> int:
    """Whose view the screen may show: the table's, or the seat's the device was passed to.
    A neutral seat's choices are made by a person (Knight Academy's start player, KA-19),
    who sees what the neutral seat chooses from: its screen is the neutral seat's view."""
    if not screen.private:
        return entry.table
    assert entry.holder is not None, "a private screen shown with no seat holding it"
    if screen.player in entry.players:
        own = entry.players.index(screen.player)
        if entry.hooks.person(entry.state, screen.player) != own:
            return own
    return entry.holder


def _pool_leaks(entry: Entry, screen: Choose, viewer: int) -> set[str]:
    """A seat's own pool (a hand dealt to it): its buttons it would not be offered in another
    state it could be in (what it cannot see dealt again, `resample`), or offered there and
    not here. By what they lack, the buttons would tell where the cards it cannot see lie.
    A draw the table enters is shown to the table as it is entered."""
    pool = {b.key.removeprefix("card:") for b in screen.buttons if b.key.startswith("card:")}
    if not pool or entry.hooks.draws is None:
        return set()
    game = entry.game
    differ: set[str] = set()
    for seed in range(RESAMPLES):
        could = game.resample(entry.state, viewer, random.Random(seed))
        for draw in entry.hooks.draws(could):
            if draw.label == _label(entry):
                offered = draw.offered_values if screen.private else draw.next_values
                differ |= pool ^ set(offered(screen.drawn))
    return differ


def _label(entry: Entry) -> tuple[Any, ...]:
    return entry.step().draws[entry.draw or 0].label


def _leaks(entry: Entry, screen: Screen, strict: bool) -> set[str]:
    """What this screen puts into words that its viewer may not know: hidden from it now,
    and, for a button that enters an event, still hidden once it is entered (a card played
    face up is no secret the moment it is played)."""
    if not isinstance(screen, Choose) or (screen.reveals and not strict):
        return set()
    game, state = entry.game, entry.state
    viewer = _viewer(entry, screen)
    hidden = _hidden(game, state, viewer)
    leaked = hidden & _values(screen.chosen)
    if screen.private:  # a pool is offered as the person at the device could know it
        assert entry.holder is not None
        leaked |= _pool_leaks(entry, screen, entry.holder)
    for button in screen.buttons:
        if button.key.startswith(POOLS):
            continue
        shown = hidden & _values(button.tokens)
        if shown and button.event is not None:
            after = game.clone(state)
            game.apply(after, button.event)
            shown &= _hidden(game, after, viewer)
        leaked |= shown
    return leaked


SAMPLED = _samples()


@pytest.mark.parametrize("strict", [False, True], ids=["open-choices-shown", "strict"])
@pytest.mark.parametrize("path", SAMPLED, ids=[p.name.split(".")[0] for p in SAMPLED])
def test_no_screen_shows_what_its_viewer_may_not_see(path: Path, strict: bool) -> None:
    data = gzip.decompress(path.read_bytes())
    found: list[str] = []
    screens = 0

    def watch(entry: Entry, screen: Screen) -> None:
        nonlocal screens
        screens += 1
        leaked = _leaks(entry, screen, strict)
        if leaked:
            assert isinstance(screen, Choose)
            who = "the table" if not screen.private else entry.players[_viewer(entry, screen)]
            found.append(f"entry {len(entry.events) + 1}: {who} is shown {sorted(leaked)}")

    entered = enter_log(data, _library(), str(path), strict=strict, watch=watch)
    assert entered.entry.log() == data
    assert screens >= entered.events // 2
    assert not found, "\n".join(found[:10])


def test_the_oracle_sees_a_hidden_card_on_the_tables_screen() -> None:
    """The check above can fail: a Knight Academy seat's hand, put on the table's screen,
    is found."""
    path = next(p for p in SAMPLED if _header(p)["game"] == "knight-academy")
    data = gzip.decompress(path.read_bytes())
    caught: list[set[str]] = []

    def watch(entry: Entry, screen: Screen) -> None:
        if caught or not isinstance(screen, Choose) or entry.state.phase != "draft":
            return
        seat = entry.players[0]
        hand = entry.state.hands[0]
        forged = Choose(screen.buttons, chosen=tuple(_tokens(seat, hand)))
        caught.append(_leaks(entry, forged, strict=True))

    enter_log(data, _library(), str(path), watch=watch)
    assert caught and caught[0]
    assert GAMES["knight-academy"].secrets


def _tokens(player: str, cards: list[str]) -> list[Any]:
    from dashboards.record.menu import Token

    return [Token("player", player), *(Token("card", c) for c in cards)]


def test_a_hand_is_dealt_from_every_card_its_seat_has_not_seen_and_refused_if_none_is_left() -> (
    None
):
    """KA-4: Ann is dealt the only Quest 5 (and the only King 5). Bob, dealt next on his own
    screen, is still offered both, since he cannot know where they are; entered, his hand is
    refused on his screen without naming whose they are, and nothing is entered."""
    from dashboards.record.entry import Handover
    from tests.dashboards.test_record import _deal, _entry

    entry = _entry("knight-academy", ["Ann", "Bob", "Cid"])
    ann = ["quest-5", "king-5", "sword-3", "sword-4", "education-2"]
    screen = entry.screen()
    assert isinstance(screen, Choose)
    entry.tap(next(b.key for b in screen.buttons if b.tokens[0].value == "Ann"))
    _deal(entry, ann)
    screen = entry.screen()
    assert isinstance(screen, Choose)
    entry.tap(next(b.key for b in screen.buttons if b.tokens[0].value == "Bob"))
    screen = entry.screen()
    assert isinstance(screen, Choose) and screen.private and entry.holder == 1
    offered = {b.key for b in screen.buttons}
    assert {"card:quest-5", "card:king-5"} <= offered
    assert entry.state.deck.get("quest-5", 0) == 0  # none is left to deal
    for card in ["quest-5", "sword-5", "courage-2", "courage-3", "charity-2"]:
        entry.tap(f"card:{card}")
    screen = entry.screen()
    assert isinstance(screen, Choose) and screen.private and screen.refused is not None
    assert screen.refused[0] == "KA-4"
    assert len(entry.events) == 1 and screen.drawn == ()  # Bob's hand entered again
    _deal(entry, ["quest-4", "sword-5", "courage-2", "courage-3", "charity-2"])
    assert len(entry.events) == 2 and entry.problem is None
    assert isinstance(entry.screen(), Choose | Handover)
