"""The entry model of the Record page: a match entered at the table, one tap at a time.

It holds the log so far (its header and the events entered) and answers, at every moment,
what the page shows: the buttons of the next entry (only what the engine allows next), a
hand-over where the next entry is a seat's secret, or the problem a correction made. It
knows nothing of Streamlit, so the bench and the tests drive it as the page does, tap by
tap, and count the taps.

What a seat keeps secret comes from the engine alone. An entry is private to its seat when
what is chosen leaves the table's view of the match the same (a card kept, a paladin face
down, a hand dealt): the device goes to that seat, and the screen blanks after. An open
choice (a card played face up) is entered on the table's screen; its buttons may then show
what the table cannot see (the cards the player holds), and `reveals` says so. A table that
wants none of that records `strict`: such a choice is passed to its seat too, at a tap more.
The table's view is `view(state, seat)` for a seat past the last: a seat that holds nothing.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from replay.errors import RulesError
from replay.game import CHANCE
from replay.log import Final
from replay.replayer import Match, open_log, start

from . import mends, menu
from .mends import Problem as Problem
from .shapes import Draw, Learn, hooks

# Chance that lists more outcomes than this is entered a component at a time (a game's
# `draws`); fewer are buttons like any choice.
OUTCOMES = 5000
_ENCODER = msgspec.json.Encoder()


@dataclass(frozen=True)
class Handover:
    """Pass the device to `player` (seat `seat`): the next entry is theirs alone to see."""

    seat: int
    player: str


@dataclass(frozen=True)
class Choose:
    """The buttons of the next entry. `player`: whose entry, where one seat's; `private`:
    shown to that seat alone; `drawn`: the components entered so far of a draw; `chosen`: the
    tokens tapped so far."""

    buttons: list[menu.Button]
    player: str | None = None
    private: bool = False
    drawn: tuple[str, ...] = ()
    chosen: tuple[menu.Token, ...] = ()
    kind: str | None = None
    over: bool = False  # the match may end here (Finish), though events may still follow
    reveals: bool = False  # the buttons show what the table cannot see (an open choice's hand)
    learning: bool = False  # the seat says what it drew before it chooses (`Learn`)
    masked: bool = False  # some buttons are a seat's only entry, told without what it is
    costs: dict[str, int] = field(default_factory=dict)  # while correcting: entries broken
    refused: tuple[str, str] | None = None  # the draw just entered was refused: rule, message


@dataclass(frozen=True)
class Over:
    """The match has ended: the scores the replay gives, by player."""

    scores: dict[str, int]


Screen = Problem | Handover | Choose | Over


@dataclass
class _Step:
    """What may come next at one state: the events as a tree, or a draw to compose."""

    root: menu.Node
    draws: list[Draw]
    private: dict[str, bool]  # by player: is their part of this step theirs alone?
    reveals: dict[str, bool]  # by player: do their buttons show what the table cannot see?
    learns: dict[str, Learn]  # by player: what it must first say it drew
    forced: set[str]  # the players with one entry possible, whose buttons would show a secret
    costs: dict[str, int] = field(default_factory=dict)  # by button: entries it would break


@dataclass
class Entry:
    """A match being entered. `events` are the entries (every one, even past a problem);
    the state is after the first `good` of them."""

    match: Match
    events: list[Any] = field(default_factory=list)
    strict: bool = False  # an open choice whose buttons show a secret is passed to its seat
    catalogues: Any = None  # where the header's catalogue is found, for a header rewritten
    good: int = 0
    problem: Problem | None = None
    keys: list[str] = field(default_factory=list)  # the taps into the current entry's tree
    draw: int | None = None  # which of the step's draws is being entered
    drawn: list[str] = field(default_factory=list)
    holder: int | None = None  # the seat the device is handed to, while its entry is private
    at: int | None = None  # the entry being changed (or inserted before, with `inserting`)
    inserting: bool = False
    taps: int = 0
    handovers: int = 0
    ended: bool = False  # Finish tapped: the log is complete
    auto: list[int] = field(default_factory=list)  # entries made without a tap: forced
    seen: list[str] = field(default_factory=list)  # what a seat says it drew, so far
    learned: set[tuple[Any, ...]] = field(default_factory=set)  # what it has said
    broken: list[Problem] = field(default_factory=list)  # every entry refused, the first too
    swaps: dict[str, str] = field(default_factory=dict)  # what the last change exchanged
    refused: tuple[str, str] | None = None  # the draw just entered, refused: rule, message
    _state: Any = None
    _step: _Step | None = None

    def __post_init__(self) -> None:
        self.game = self.match.game
        self.hooks = hooks(self.game.name)
        self.table = len(self.match.header.players)
        self.recheck()

    # ---- the log -------------------------------------------------------------------

    @property
    def players(self) -> list[str]:
        return list(self.match.header.players)

    def log(self) -> bytes:
        """The log as entered: header, the good events, and the final claim once ended."""
        lines = [self.match.header_line.rstrip(b"\n")]
        lines.extend(_ENCODER.encode(e) for e in self.events[: self.good])
        if self.ended and self.problem is None:
            lines.append(_ENCODER.encode(Final(scores=self.scores())))
        return b"\n".join(lines) + b"\n"

    def draft(self) -> bytes:
        """What is kept between taps: the header and every entry, those past a problem too."""
        lines = [self.match.header_line.rstrip(b"\n")]
        lines.extend(_ENCODER.encode(e) for e in self.events)
        return b"\n".join(lines) + b"\n"

    def scores(self) -> dict[str, int]:
        state = self.game.clone(self._state)
        if self.game.close is not None and self.game.is_over(state):
            self.game.close(state)
        return dict(zip(self.players, self.game.result(state).scores))

    @property
    def state(self) -> Any:
        """The state the next entry is made in (before the entry being changed)."""
        return self._state

    def secrecy(self, strict: bool) -> None:
        """Whether an open choice whose buttons show a secret is passed to its seat."""
        if strict != self.strict:
            self.strict = strict
            self._step = None

    # ---- checking ------------------------------------------------------------------

    def recheck(self) -> None:
        """Replay every entry from the header; stop at the first the engine refuses."""
        stop = len(self.events) if self.at is None else self.at
        state = start(self.match)
        self.good, self.problem = 0, None
        for index, event in enumerate(self.events):
            if index == stop:
                break
            try:
                self.game.apply(state, event)
            except RulesError as err:
                self.problem = Problem(index, err.rule, err.message)
                break
            self.good = index + 1
        self.auto = [i for i in self.auto if i < self.good]
        self.broken = []
        if self.problem is not None:
            self.broken = mends.broken(self.game, self.game.clone(state), self.events, self.good)
        self._state = state
        self._step = None
        self.keys, self.draw, self.drawn, self.seen = [], None, [], []
        if self.at is None and self.problem is None:
            self._forced()

    def _forced(self) -> None:
        """Enter what has one possible entry (a last card, a pass), without a tap."""
        while not self.game.is_over(self._state):
            step = self.step()
            if step.draws or step.learns or step.root.count != 1:
                return
            event = menu.all_leaves(step.root)[0].event
            self.auto.append(len(self.events))
            self._enter(event)

    # ---- what comes next -----------------------------------------------------------

    def step(self) -> _Step:
        if self._step is None:
            self._step = self._compute()
        return self._step

    def _compute(self) -> _Step:
        game, state = self.game, self._state
        expecting = game.expecting(state)
        draws: list[Draw] = []
        events: list[Any] = []
        if expecting.decider == CHANCE:
            draws = self.hooks.draws(state) if self.hooks.draws else []
            if not draws:
                events = _outcomes(game, state)
        elif expecting.kind != "nothing":
            events = list(game.legal_events(state, None))
        stop = game.simulation.stop if game.simulation else None
        if stop is not None:  # an open run of events may also end with the next one
            closed = game.clone(state)
            stop(closed)
            if game.expecting(closed) != expecting:
                after = game.expecting(closed)
                if after.decider == CHANCE:
                    events.extend(_outcomes(game, closed))
                elif after.kind != "nothing":
                    events.extend(game.legal_events(closed, None))
        root = menu.build(events, self.hooks.shape)
        chance = expecting.decider == CHANCE
        private: dict[str, bool] = {}
        reveals: dict[str, bool] = {}
        forced: set[str] = set()
        if self.game.secrets:
            for player, mine in _by_player(events, self.hooks.shape).items():
                reveals[player] = not chance and self._reveals(player, mine)
                if reveals[player] and len(mine) == 1:
                    forced.add(player)
                # chance dealt to one seat (a hand, private homework) is that seat's to enter
                # where the table cannot see it
                private[player] = self._hidden(player, mine) or (self.strict and reveals[player])
            for draw in draws:
                dealt: str | None = getattr(draw.template, "player", None)
                if dealt is not None:
                    private[dealt] = self._hidden(dealt, draw.samples())
        learns = {}
        if self.hooks.learn is not None:
            for learn in self.hooks.learn(state, self.match.header, self.events[: self.good]):
                if learn.key not in self.learned:
                    learns[learn.player] = learn
        return _Step(root, draws, private, reveals, learns, forced)

    def _reveals(self, player: str, events: Sequence[Any]) -> bool:
        """Would this player's buttons show what the table cannot see: are they other than
        the table could work out from its own view?"""
        game, state = self.game, self._state
        if self.hooks.person(state, player) is None:
            return False
        try:
            theirs = {
                _ENCODER.encode(e)
                for e in game.legal_events(game.view(state, self.table), None)
                if self.hooks.shape.owner(e) == player
            }
        except (RulesError, KeyError, ValueError, IndexError):
            theirs = set()
        return theirs != {_ENCODER.encode(e) for e in events}

    def _hidden(self, player: str, events: Sequence[Any]) -> bool:
        """Is what this player enters theirs alone: does the table's view of the match stay
        the same whichever is entered?"""
        game, state = self.game, self._state
        if self.hooks.person(state, player) is None:  # a neutral seat's chance: no one's
            return False
        different = _two_apart(events)
        if different is None:
            return False
        views = []
        for event in different:
            after = game.clone(state)
            game.apply(after, event)
            views.append(_ENCODER.encode(game.snapshot(game.view(after, self.table))))
        return views[0] == views[1]

    def screen(self) -> Screen:
        if self.problem is not None:
            return self.problem
        step = self.step()
        over = self.at is None and self.game.is_over(self._state)
        if over and not (step.root.count or step.draws):
            return Over(self.scores())
        if step.draws:
            return self._draw_screen(step, over)
        node = self._node(step)
        player = _player_of(node, self.hooks.shape)
        private = player is not None and step.private.get(player, False)
        seat = None if player is None else self.hooks.person(self._state, player)
        if private and seat is not None and self.holder != seat:
            if self.keys:  # the player was tapped on the table's screen: it took the device
                self.holder = seat
            else:
                return Handover(seat, self.players[seat])
        if player is not None and player in step.learns:
            learn = step.learns[player]
            buttons = [
                menu.Button(f"seen:{v}", (menu.Token("seen", v),))
                for v in learn.next_values(self.seen)
            ]
            return Choose(
                buttons, player, private, drawn=tuple(self.seen), over=over, learning=True
            )
        chosen = tuple(t for t in self._chosen(step))
        kind = next((t.value for t in chosen if t.name == "kind"), None)
        # Where several seats may enter next and one's entry is a secret (or its buttons would
        # show one), the table's screen names the seats only.
        collapse = player is not None or not (
            any(step.private.values()) or any(step.reveals.values())
        )
        buttons = menu.buttons(node, collapse)
        shown = buttons
        if not private:
            shown = [self._masked(button, step) for button in buttons]
        return Choose(
            shown,
            player,
            private,
            chosen=chosen,
            kind=kind,
            over=over,
            masked=shown != buttons,
            costs=self._costs(step, shown),
            reveals=not private and player is not None and step.reveals.get(player, False),
        )

    def _costs(self, step: _Step, buttons: list[menu.Button]) -> dict[str, int]:
        """While an entry is being changed: how many later entries each button would break."""
        if self.at is None:
            return {}
        for button in buttons:
            if button.event is not None and button.key not in step.costs:
                step.costs[button.key] = self.cost(button.event)
        return {b.key: step.costs[b.key] for b in buttons if b.key in step.costs}

    def _masked(self, button: menu.Button, step: _Step) -> menu.Button:
        """A seat's only possible entry, on the table's screen, by its player and kind alone:
        it needs no choosing, and what it is (a last card kept) the table may not see."""
        owner = None if button.event is None else self.hooks.shape.owner(button.event)
        if owner is None or owner not in step.forced:
            return button
        said = tuple(t for t in button.tokens if t.name in ("player", "kind"))
        return menu.Button(button.key, said, event=button.event)

    def _node(self, step: _Step) -> menu.Node:
        node, _ = menu.passed(step.root)
        for key in self.keys:
            node, _ = menu.passed(node.child(key))
        return node

    def _chosen(self, step: _Step) -> list[menu.Token]:
        node, went = menu.passed(step.root)
        chosen = list(went)
        for key in self.keys:
            child = node.child(key)
            node, went = menu.passed(child)
            assert child.token is not None
            chosen.extend([child.token, *went])
        return chosen

    def _draw_screen(self, step: _Step, over: bool) -> Screen:
        if self.draw is None and len(step.draws) > 1:
            buttons = [menu.Button(f"draw:{i}", draw.label) for i, draw in enumerate(step.draws)]
            return Choose(buttons, over=over, kind=step.draws[0].kind)
        index = self.draw or 0
        draw = step.draws[index]
        player = getattr(draw.template, "player", None)
        seat = None if player is None else self.hooks.person(self._state, player)
        secret = player is not None and seat is not None and step.private.get(player, False)
        if secret and seat is not None and player is not None and self.holder != seat:
            if len(step.draws) > 1:  # tapped on the table's screen: it took the device
                self.holder = seat
            else:
                return Handover(seat, player)
        private = player is not None and step.private.get(player, False)
        values = self._pool(draw, private)
        buttons = [menu.Button(f"card:{v}", (menu.Token(draw.field, v),)) for v in values]
        return Choose(
            buttons,
            player,
            private,
            drawn=tuple(self.drawn),
            kind=draw.kind,
            over=over,
            refused=self.refused,
        )

    def _pool(self, draw: Draw, private: bool) -> list[str]:
        """The components a draw's next button may be: on its seat's own screen, all that
        seat cannot rule out, so what the buttons lack tells it nothing of another hand."""
        return draw.offered_values(self.drawn) if private else draw.next_values(self.drawn)

    # ---- taps ----------------------------------------------------------------------

    def take(self) -> None:
        """The hand-over's one tap: the seat whose entry it is holds the device."""
        screen = self.screen()
        assert isinstance(screen, Handover)
        self.holder = screen.seat
        self.taps += 1
        self.handovers += 1

    def tap(self, key: str) -> None:
        """A button of the current screen."""
        screen = self.screen()
        assert isinstance(screen, Choose), screen
        step = self.step()
        self.taps += 1
        self.refused = None
        if key.startswith("draw:"):
            self.draw = int(key.split(":", 1)[1])
            return
        if key.startswith("seen:"):
            assert screen.player is not None
            learn = step.learns[screen.player]
            value = key.split(":", 1)[1]
            if value not in learn.next_values(self.seen):
                raise KeyError(key)
            self.seen.append(value)
            if len(self.seen) == learn.count:
                self.learned.add(learn.key)
                self._rehead(learn.rewrite(self.seen))
            return
        if key.startswith("card:"):
            draw = step.draws[self.draw or 0]
            value = key.split(":", 1)[1]
            if value not in self._pool(draw, screen.private):
                raise KeyError(key)
            self.drawn.append(value)
            if len(self.drawn) == draw.count:
                try:
                    self._enter(draw.event(self.drawn))
                except RulesError as err:  # a card the seat could not see is not there
                    self.drawn = []
                    self.refused = (err.rule, err.message)
            return
        button = next((b for b in screen.buttons if b.key == key), None)
        if button is None:
            raise KeyError(key)
        if button.event is not None:
            self._enter(button.event)
        else:
            self.keys.append(key)

    def back(self) -> None:
        """Take back the last tap of the entry in progress."""
        if self.seen:
            self.seen.pop()
        elif self.drawn:
            self.drawn.pop()
        elif self.draw is not None:
            self.draw = None
        elif self.keys:
            self.keys.pop()

    def _rehead(self, fields: dict[str, Any]) -> None:
        """The header with `fields` rewritten (what a seat has just seen), every entry
        checked again under it; the entry in progress goes on where it was."""
        header = msgspec.json.decode(self.match.header_line)
        header.update(msgspec.to_builtins(fields))
        line = msgspec.json.encode(header)
        self.match = open_log(line + b"\n", self.match.path, catalogues=self.catalogues)
        keys, holder = list(self.keys), self.holder
        self.recheck()
        self.keys, self.holder = keys, holder

    def finish(self) -> None:
        """The match is over: the log ends with the scores."""
        assert self.game.is_over(self._state) and self.problem is None and self.at is None
        self.taps += 1
        self.ended = True

    def _enter(self, event: Any) -> None:
        """Apply an entry: at the end of the log, or in place of (before) entry `at`."""
        state = self.game.clone(self._state)
        # the buttons are the engine's: it refuses only a draw its seat composed from what it
        # could not rule out (`_pool`), and then before it changes anything
        self.game.apply(state, event)
        step = self._step
        private_before = step is not None and self.holder is not None
        if self.at is None:
            self.events.append(event)
            self.good = len(self.events)
            self._state = state
            self._step = None
            self.keys, self.draw, self.drawn, self.seen = [], None, [], []
            if private_before:
                self._keep_holder()
            self._forced()
            return
        if self.inserting:
            self.events.insert(self.at, event)
            self.swaps = {}
        else:
            self.swaps = mends.exchanged(self.events[self.at], event)
            self.events[self.at] = event
        self.at, self.inserting, self.holder = None, False, None
        self.recheck()

    def _keep_holder(self) -> None:
        """After a private entry the screen blanks, unless the same seat enters next."""
        holder = self.holder
        self.holder = None
        if holder is None or self.game.is_over(self._state):
            return
        step = self.step()
        players = {p for p in step.private} | {
            getattr(d.template, "player", None) for d in step.draws
        }
        people = {None if p is None else self.hooks.person(self._state, p) for p in players}
        if people == {holder} and any(step.private.values()):
            self.holder = holder

    # ---- corrections ---------------------------------------------------------------

    def change(self, index: int, inserting: bool = False) -> None:
        """Enter entry `index` again (or a new one before it): the buttons are those of the
        state before it; everything after is checked again once it is entered."""
        self.at, self.inserting, self.holder = index, inserting, None
        self.ended = False
        self.recheck()

    def cancel(self) -> None:
        self.at, self.inserting = None, False
        self.recheck()

    def remove(self, index: int) -> None:
        del self.events[index]
        self.swaps = {}
        self.ended = False
        self.at, self.inserting, self.holder = None, False, None
        self.recheck()

    # ---- what a correction costs, and mending what it broke --------------------------

    def cost(self, event: Any) -> int:
        """While entry `at` is being changed (or inserted before): how many of the entries
        after it `event` would break."""
        assert self.at is not None
        state = self.game.clone(self._state)
        self.game.apply(state, event)
        after = self.at if self.inserting else self.at + 1
        return len(mends.broken(self.game, state, self.events, after))

    def removal_cost(self, index: int) -> int:
        """How many of the entries after `index` its removal would break (those already
        broken counted too)."""
        state = start(self.match)
        for event in self.events[:index]:
            try:
                self.game.apply(state, event)
            except RulesError:
                continue
        return len(mends.broken(self.game, state, self.events, index + 1))

    def mends(self) -> list[Any]:
        """What may stand in for the first entry broken: the correction's exchange made in
        it, or the same entry as another seat's; each one the engine accepts."""
        if self.problem is None:
            return []
        event = self.events[self.problem.index]
        return mends.mends(self.game, self._state, event, self.swaps, self.players)

    def mend(self, event: Any) -> None:
        """Put `event` in place of the first entry broken; the rest is checked again."""
        assert self.problem is not None
        self.events[self.problem.index] = event
        self.ended = False
        self.recheck()

    def mend_all(self) -> int:
        """Mend each entry broken in turn with its first mend, while one has one: the
        entries mended."""
        done = 0
        while self.problem is not None:
            found = self.mends()
            if not found:
                break
            self.mend(found[0])
            done += 1
        return done

    def drop_broken(self) -> None:
        """Remove every entry broken: what is left is the log as the engine accepts it."""
        for problem in reversed(self.broken):
            del self.events[problem.index]
        self.ended = False
        self.at, self.inserting, self.holder = None, False, None
        self.recheck()

    def secret(self, event: Any) -> bool:
        """Would telling `event` on the table's screen give away what the table cannot see:
        does its seat choose here from what only it can see?"""
        player = self.hooks.shape.owner(event)
        if not self.game.secrets or player is None:
            return False
        if self.hooks.person(self._state, player) is None:
            return False
        try:
            theirs = [
                e
                for e in self.game.legal_events(self._state, None)
                if self.hooks.shape.owner(e) == player
            ]
        except RulesError:
            return True
        return not theirs or self._reveals(player, theirs) or self._hidden(player, theirs)

    def cut(self, index: int) -> None:
        """Remove entry `index` and every one after it."""
        del self.events[index:]
        self.ended = False
        self.at, self.inserting, self.holder = None, False, None
        self.recheck()


def _outcomes(game: Any, state: Any) -> list[Any]:
    found = [e for e, _ in itertools.islice(game.chance_outcomes(state), OUTCOMES + 1)]
    if len(found) > OUTCOMES:
        raise RulesError("INTERNAL", f"more than {OUTCOMES} outcomes and no draw to compose")
    if not found:  # chance acting for a seat (a neutral seat's pick): any legal event
        found = list(game.legal_events(state, None))
    return found


def _by_player(events: Sequence[Any], shape: menu.Shape) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for event in events:
        player = shape.owner(event)
        if player is not None:
            found.setdefault(player, []).append(event)
    return found


def _player_of(node: menu.Node, shape: menu.Shape) -> str | None:
    owners = {shape.owner(leaf.event) for leaf in menu.all_leaves(node)}
    return next(iter(owners)) if len(owners) == 1 else None


def _two_apart(events: Sequence[Any]) -> tuple[Any, Any] | None:
    if len(events) < 2:
        return None
    first = _ENCODER.encode(events[0])
    for other in reversed(events):
        if _ENCODER.encode(other) != first:
            return events[0], other
    return None
