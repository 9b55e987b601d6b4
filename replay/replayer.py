"""Rebuild a match from its log, one event at a time, through its game's engine.

The replayer never guesses: the first line that breaks the format or a rule stops the replay
with a ReplayError naming the line and the rule. A log that stops early is incomplete, not
wrong.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from replay.catalogues import Catalogues, NoCatalogues, named_in
from replay.errors import ReplayError, RulesError, internal
from replay.facts import Fact
from replay.game import Game, Result
from replay.limits import beyond_limits
from replay.log import (
    Final,
    Header,
    check_players,
    decode_error,
    decoder_for,
    numbered_lines,
    probe_header,
)
from replay.registry import GAMES

_decoders: dict[str, msgspec.json.Decoder[Any]] = {}
_header_decoders: dict[str, msgspec.json.Decoder[Any]] = {}


@dataclass(frozen=True)
class Match:
    """A log whose header has been read: the game, its ruleset, and the event lines to come."""

    path: str
    game: Game[Any, Any, Any]
    header: Header  # its `options` settled into `ruleset` and `rules` (Game.settled)
    config: Any
    lines: list[tuple[int, bytes]]
    header_line: bytes = b""  # as written, so the log can be rebuilt from stored events
    catalogue: Any = None  # the one the header names, for a game played with a catalogue
    # The state open_log built to check the header, handed to the first start(): a game's
    # setup (Heraldry's map) is then built once per replay.
    fresh: list[Any] = field(default_factory=list, compare=False, repr=False)

    def fail(self, line: int, err: RulesError) -> ReplayError:
        return ReplayError(self.path, line, err.rule, err.message)


class Step(msgspec.Struct, array_like=True, gc=False):
    """Event number `index` (1-based; 0 is the state after the header) and what it caused.

    `round` is the round the event happened in (every game's state has a `round`)."""

    index: int
    line: int
    round: int
    event: Any
    facts: Sequence[Fact]


@dataclass
class Outcome:
    match: Match
    state: Any
    steps: list[Step] = field(default_factory=list)
    final_claim: Final | None = None

    @property
    def result(self) -> Result:
        return self.match.game.result(self.state)


def open_log(
    data: bytes,
    path: str,
    rulesets: Mapping[str, Any] | None = None,
    catalogues: Catalogues | None = None,
) -> Match:
    """Read the header of a log's bytes (uncompressed); ReplayError if it is not a valid one
    or passes a limit (LOG-6). `catalogues`: where the catalogue a header names is taken
    from, for the games that read one (the caller's; without it, none is known)."""
    beyond = beyond_limits(data)
    if beyond:
        raise ReplayError(path, beyond[0], beyond[1].rule, beyond[1].message)
    if not data.isascii():
        _check_utf8(data, path)
    lines = list(numbered_lines(data))
    if not lines:
        raise ReplayError(path, 1, "LOG-3", "the log is empty: the first line must be the header")
    number, first = lines[0]
    try:
        name = probe_header(first)
        game = GAMES.get(name or "")
        if game is None:
            raise RulesError("LOG-3", f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}")
        decoder = _header_decoders.get(game.name)
        if decoder is None:
            decoder = _header_decoders[game.name] = msgspec.json.Decoder(game.header_type)
        try:
            header = decoder.decode(first)
        except msgspec.DecodeError as err:
            raise RulesError("LOG-3", f"the header does not fit: {err}") from None
        check_players(header)
        if header.variant not in game.variants:
            raise RulesError(
                "LOG-3", f"unknown variant {header.variant!r}; known: {', '.join(game.variants)}"
            )
        extra = {k: v for k, v in (rulesets or {}).items() if k.startswith(game.name + "/")}
        config = game.ruleset(header, extra)
        header = game.settled(header, extra)  # options filed as the rules they switch
        catalogue = (
            None
            if game.catalogue is None
            else named_in(header, game.name, game.catalogue, catalogues or NoCatalogues())
        )
        match = Match(
            path=path,
            game=game,
            header=header,
            config=config,
            lines=lines[1:],
            header_line=first,
            catalogue=catalogue,
        )
        # The game's own header checks (seats, variant) raise here, at line 1.
        match.fresh.append(_new_state(match))
    except RulesError as err:
        raise ReplayError(path, number, err.rule, err.message) from None
    except Exception as err:  # a bug: this log's rejection, never the end of a whole run
        raise internal(path, number, err) from err
    return match


def _check_utf8(data: bytes, path: str) -> None:
    """LOG-1: a log is UTF-8 throughout, even in fields no engine reads."""
    try:
        data.decode()
    except UnicodeDecodeError as err:
        line_start = data.rfind(b"\n", 0, err.start) + 1
        raise ReplayError(
            path,
            data.count(b"\n", 0, err.start) + 1,
            "LOG-1",
            f"not UTF-8 at byte {err.start - line_start + 1} of the line",
        ) from None


def start(match: Match) -> Any:
    """The state before the first event."""
    return match.fresh.pop() if match.fresh else _new_state(match)


def _new_state(match: Match) -> Any:
    return match.game.new_game(match.config, match.header, match.catalogue)


def steps(match: Match, state: Any) -> Iterator[Step]:
    """Apply the match's events to `state` (in place), yielding each step as it is replayed.

    Raises ReplayError at the first line the format or the rules reject.
    """
    game = match.game
    decoder = _decoders.get(game.name)
    if decoder is None:
        decoder = _decoders[game.name] = decoder_for(game.event_type)
    decode = decoder.decode
    apply = game.apply
    close = game.close
    index = 0
    lines = match.lines
    last = len(lines) if close is not None else -1  # where the log ends without a claim
    for index, (number, line) in enumerate(lines, 1):
        try:
            event = decode(line)
            if type(event) is Final:
                break
            rnd = state.round
            facts = apply(state, event)
            if index == last:
                facts = [*facts, *_closing(game, state)]
        except msgspec.DecodeError as err:
            raise match.fail(number, decode_error(err)) from None
        except RulesError as err:
            broken = err
            if game.is_over(state):
                kind = type(event).__struct_config__.tag
                broken = RulesError("LOG-5", f"the game is over; a {kind} event cannot follow")
            raise match.fail(number, broken) from None
        except Exception as err:  # a bug: this log's rejection, never the end of a whole run
            raise internal(match.path, number, err) from err
        yield Step(index, number, rnd, event, facts)
    else:
        return
    try:
        closing = _closing(game, state)
        check_final(match, state, event)
    except RulesError as err:
        raise match.fail(number, err) from None
    except Exception as err:
        raise internal(match.path, number, err) from err
    yield Step(index, number, state.round, event, closing)
    if index < len(lines):
        raise match.fail(lines[index][0], RulesError("LOG-5", "nothing may follow the final claim"))


def _closing(game: Game[Any, Any, Any], state: Any) -> Sequence[Fact]:
    """The facts of ending the run of events a log stops in, once the game is over."""
    if game.close is None or not game.is_over(state):
        return ()
    return game.close(state)


def check_final(match: Match, state: Any, claim: Final) -> None:
    """LOG-4: the recorder's scores agree with the replay, and the game has ended."""
    game = match.game
    if not game.is_over(state):
        raise RulesError("LOG-4", "a final claim before the game has ended")
    players = match.header.players
    scores = game.result(state).scores
    unknown = sorted(set(claim.scores) - set(players))
    if unknown:
        raise RulesError("LOG-4", f"the final claim names unknown players: {', '.join(unknown)}")
    wrong = [
        f"{player} {claimed} (replay: {scores[players.index(player)]})"
        for player, claimed in claim.scores.items()
        if scores[players.index(player)] != claimed
    ]
    if wrong:
        raise RulesError("LOG-4", f"the final claim disagrees: {', '.join(wrong)}")


def replay(match: Match, keep_steps: bool = True) -> Outcome:
    """Replay the whole log; ReplayError at the first bad line."""
    state = start(match)
    outcome = Outcome(match=match, state=state)
    replayed = steps(match, state)
    # Without the steps, only the last one is kept (it may be the final claim).
    kept = list(replayed) if keep_steps else list(deque(replayed, maxlen=1))
    if kept and type(kept[-1].event) is Final:
        outcome.final_claim = kept[-1].event
    if keep_steps:
        outcome.steps = kept
    return outcome


def state_at(match: Match, index: int) -> Any:
    """The state after event `index` (0: before the first event); ReplayError on the way."""
    state = start(match)
    if index <= 0:
        return state
    for step in steps(match, state):
        if step.index >= index:
            break
    return state
