"""A log entered again through the entry model, tap by tap, as a scribe at the table would:
the proof that the page can record every match squire holds, and the count of its taps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from replay.log import Final
from replay.replayer import Match, open_log

from . import menu
from .entry import Choose, Entry, Handover, Screen

_ENCODER = msgspec.json.Encoder()


class Stuck(Exception):
    """The entry model offers no way to enter this event: a gap in what the page can record."""


@dataclass(frozen=True)
class Entered:
    entry: Entry
    events: int  # the events entered, the final claim counted
    taps: int
    handovers: int
    handed: list[bool]  # by event: did the device pass to a seat for it


def new_entry(header_line: bytes, catalogues: Any = None, path: str = "draft") -> Entry:
    """An empty entry for a header (as its log's first line)."""
    match = open_log(header_line.rstrip(b"\n") + b"\n", path, catalogues=catalogues)
    return Entry(match, catalogues=catalogues)


def from_draft(data: bytes, catalogues: Any = None, path: str = "draft") -> Entry:
    """An entry taken up from its draft: the header, then every entry kept, checked again."""
    header, _, rest = data.partition(b"\n")
    entry = new_entry(header, catalogues, path)
    decode = msgspec.json.Decoder(entry.game.event_type).decode
    entry.events = [decode(line) for line in rest.splitlines() if line.strip()]
    entry.recheck()
    return entry


def enter_log(
    data: bytes,
    catalogues: Any = None,
    path: str = "log",
    *,
    strict: bool = False,
    watch: Callable[[Entry, Screen], None] | None = None,
) -> Entered:
    """Enter every event of a log (uncompressed) through the model's screens; `watch` sees
    every screen as the page would show it, before it is tapped."""
    match: Match = open_log(data, path, catalogues=catalogues)
    decode = msgspec.json.Decoder(match.game.event_type | Final).decode
    targets = [decode(line) for _, line in match.lines]
    entry = new_entry(match.header_line, catalogues, path)
    entry.secrecy(strict)
    shape = entry.hooks.shape
    count = 0
    handed: list[bool] = []
    for index, target in enumerate(targets):
        count += 1
        if isinstance(target, Final):
            entry.finish()
            if entry.log() != data:
                raise Stuck(f"{path}: the final claim differs: {entry.log().splitlines()[-1]!r}")
            break
        want = _ENCODER.encode(target)
        path_of = menu.tokens(target, shape)
        guard = 0
        before = entry.handovers
        while len(entry.events) <= index:
            guard += 1
            if guard > 50:
                raise Stuck(f"{path}: event {index + 1} takes more than 50 taps: {want!r}")
            screen = entry.screen()
            if watch is not None:
                watch(entry, screen)
            if isinstance(screen, Handover):
                entry.take()
            elif isinstance(screen, Choose):
                try:
                    entry.tap(button_for(entry, screen, target, path_of))
                except Stuck as err:
                    raise Stuck(f"{path}: event {index + 1}: {err}") from None
            else:
                raise Stuck(f"{path}: event {index + 1} {want!r}, but the model shows {screen}")
        handed.extend([entry.handovers > before] * (len(entry.events) - len(handed)))
        got = _ENCODER.encode(entry.events[index])
        if got != want:
            raise Stuck(f"{path}: event {index + 1} entered as {got!r}, not {want!r}")
    return Entered(entry, count, entry.taps, entry.handovers, handed)


def button_for(entry: Entry, screen: Choose, target: Any, path_of: tuple[menu.Token, ...]) -> str:
    """The key of the button on `screen` that leads to `target` (its path `path_of`)."""
    if screen.learning:  # what the seat drew: the cards the log's header says
        assert screen.player is not None
        learn = entry.step().learns[screen.player]
        return f"seen:{learn.actual[len(screen.drawn)]}"
    want = _ENCODER.encode(target)
    for button in screen.buttons:
        key = button.key
        if key.startswith("draw:"):
            if button.tokens and _matches(button.tokens[0], target):
                return key
        elif key.startswith("card:"):
            drawn = getattr(target, _field(button))
            if key == f"card:{drawn[len(screen.drawn)]}":
                return key
        elif button.enters:
            if key.encode() == want:
                return key
        else:
            prefix = (*screen.chosen, *button.tokens)
            if path_of[: len(prefix)] == prefix:
                return key
    raise Stuck(f"{want!r} is not on offer")


def _field(button: menu.Button) -> str:
    return button.tokens[0].name


def _matches(token: menu.Token, target: Any) -> bool:
    if token.name == "player":
        return bool(getattr(target, "player", None) == token.value)
    return True
