"""The one record every game package provides, and what the replayer gets back from it."""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from replay.catalogues import Uses
from replay.errors import IllegalEvent, RulesError
from replay.facts import Fact, TrackRanked
from replay.log import Header

C = TypeVar("C")  # the game's ruleset (Config)
S = TypeVar("S")  # the game's State
E = TypeVar("E")  # the game's event union
H = TypeVar("H", bound=Header)  # a game's header type

CHANCE = -1  # `Expecting.decider` when the next event is a chance outcome (a deal, a draw).
# A component a seat sees from its back (a card in another's hand, a face-down tile): what
# `view` writes in place of its name, and what `resample` deals a name to again.
HIDDEN = "?"
# What a bot returns to end an open sequence of its own events (an Albus Academy cast), which
# a log ends by writing the next event: the simulator closes it with `Simulation.stop`.
STOP = "stop"


class Expecting(msgspec.Struct, frozen=True, kw_only=True):
    """What the engine waits for next: which kind of event, from which seats, decided by whom."""

    # The event kind that comes next; where the seat chooses among several, the choice's
    # name ("action"), with those kinds in `kinds`; "nothing" once the game is over.
    kind: str
    seats: tuple[int, ...] = ()
    decider: int | None = None  # the seat choosing for them; CHANCE for chance outcomes
    detail: dict[str, Any] = {}
    kinds: tuple[str, ...] = ()  # the event kinds of a choice named by `kind`

    @property
    def accepted(self) -> tuple[str, ...]:
        """Every event kind that may come next: always event kinds."""
        return self.kinds or (() if self.kind == "nothing" else (self.kind,))


Handler = Callable[[Any, Any], Sequence[Fact]]  # a rule applied to the state, its facts


def seat_of(state: Any, event: Any, rule: str) -> int:
    """The seat of the player an event names (every game's state maps `seats` by name);
    IllegalEvent under the event's own rule for a name that is not a player's."""
    seat: int | None = state.seats.get(event.player)
    if seat is None:
        raise IllegalEvent(
            rule,
            f"unknown player {event.player!r}; the players are {', '.join(state.players)}",
            event,
        )
    return seat


def expected(
    state: Any,
    event: Any,
    expecting: Callable[[Any], Expecting],
    rule: str,
    turn_rule: str | None = None,
    *,
    seat: Callable[[Any, Any, str], int] = seat_of,
    fast: Callable[[Any, Any], int | None] | None = None,
) -> int:
    """Is this event expected now, from this seat? The one answer of every game's handlers,
    `expecting(state)`'s: the event's kind among its `accepted` and the seat the event names
    among its `seats` (the seat dealt to or drawing, where chance decides). Returns that seat
    (`seat` reads it, by default `seat_of`; CHANCE for an event that names no player, such as
    a reveal). IllegalEvent under `rule` otherwise, under `turn_rule` (default `rule`) for a
    seat whose turn it is not.

    `fast(state, event)`: the game's cheap yes for its common moments, answered from the
    state's phase and turn (replay's hot path): the seat, only where `expecting` says yes too
    (held to it by the conformance suite); None leaves the answer to `expecting`."""
    if fast is not None:
        answer = fast(state, event)
        if answer is not None:
            return answer
    kind: str = event.__struct_config__.tag
    who = CHANCE if getattr(event, "player", None) is None else seat(state, event, rule)
    expect = expecting(state)
    accepted = expect.accepted
    if kind in accepted and (who in expect.seats or (who == CHANCE and not expect.seats)):
        return who
    if expect.kind == "nothing":
        situation = "the game is over"
    else:
        situation = f"the next event is {' or '.join(accepted)}"
        if expect.seats:
            names = [state.players[s] for s in expect.seats]
            listed = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
            situation += f" {'for' if expect.decider == CHANCE else 'by'} {listed}"
        if "round" in expect.detail:
            situation += f" in round {expect.detail['round']}"
    if who == CHANCE:
        raise IllegalEvent(rule, f"a {kind} event is out of place: {situation}")
    if kind not in accepted:
        raise IllegalEvent(rule, f"{event.player} cannot {kind} now: {situation}")
    turn_rule = turn_rule or rule
    if len(expect.seats) == 1 and expect.decider is not None and expect.decider != CHANCE:
        turn = state.players[expect.seats[0]]
        raise IllegalEvent(turn_rule, f"{event.player} acts out of turn: it is {turn}'s turn")
    raise IllegalEvent(turn_rule, f"{event.player} cannot {kind} now: {situation}")


def check_round(state: Any, claimed: int | None, rule: str, what: str = "event") -> None:
    """IllegalEvent under `rule` when an event names a round (optional in every log) other
    than the state's."""
    if claimed is not None and claimed != state.round:
        raise IllegalEvent(rule, f"the {what} says round {claimed} but it is round {state.round}")


def handler_for(handlers: Mapping[type, Handler], event: Any, game: str) -> Handler:
    """The handler of an event's type; LOG-2 for an event that is not one of `game`'s."""
    handler = handlers.get(type(event))
    if handler is None:
        raise IllegalEvent("LOG-2", f"{event!r} is not {game} event", event)
    return handler


def dispatch(handlers: Mapping[type, Handler], game: str) -> Callable[[S, E], Sequence[Fact]]:
    """A game's `apply`: each event to the handler of its type, which checks, then changes the
    state and returns the facts it establishes (IllegalEvent otherwise, the state untouched)."""
    get = handlers.get

    def apply(state: S, event: E) -> Sequence[Fact]:
        handler = get(type(event))
        if handler is None:
            raise IllegalEvent("LOG-2", f"{event!r} is not {game} event", event)
        return handler(state, event)

    return apply


def track_ranked(
    rnd: int,
    track: str,
    progress: Sequence[int],
    order: Sequence[int],
    leader: int | None,
    owners: Sequence[int] | None = None,
) -> list[Fact]:
    """A round's end on one track: each seat's marker (`progress` by seat) at its place in
    `order` (the seats from the front, as the game ranks them), `leader` the seat that leads
    or None; `owners`, where a game's seats are not its players, whose each seat is."""
    return [
        TrackRanked(
            round=rnd,
            seat=seat if owners is None else owners[seat],
            track=track,
            progress=progress[seat],
            place=place,
            leads=seat == leader,
        )
        for place, seat in enumerate(order, 1)
    ]


def order_by(values: Sequence[int], breaks: Sequence[Any]) -> list[int]:
    """The seats from first to last by `values`, then by `breaks` (each seat's tie-break, the
    higher first), then in seat order."""
    return sorted(range(len(values)), key=lambda seat: (values[seat], breaks[seat]), reverse=True)


def ranked_as_scores(
    rnd: int, tracks: Mapping[str, Sequence[int]], breaks: Sequence[Any]
) -> list[Fact]:
    """A round's end in a game whose rules rank no track: each track (its value by seat)
    ordered as the game's scores are (`order_by` with the game's tie-break by seat, reckoned
    once for every track), its leader the first once above 0."""
    facts: list[Fact] = []
    for track, values in tracks.items():
        seats = order_by(values, breaks)
        leader = seats[0] if values[seats[0]] > 0 else None
        facts += track_ranked(rnd, track, values, seats, leader)
    return facts


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """Scores by seat order; winners are seat indices after the game's tie-break."""

    complete: bool
    scores: list[int]
    sources: list[dict[str, int]]
    winners: list[int]
    ranks: list[int]


M = TypeVar("M")  # what a bot chooses among: the legal events, or a game's own menu of them


class Bot(Generic[S, M, E]):
    """What every game's bots derive from (a Policy): `choose` returns one of `options`."""

    name = "bot"

    def choose(self, state: S, seat: int, options: M, rng: random.Random) -> E:
        raise NotImplementedError


class Policy(Protocol):
    """A bot for one seat of one match: picks one of the options the engine offers."""

    name: str

    # `options`: the engine's legal events, or the game's own menu of them (Simulation.options)
    def choose(self, state: Any, seat: int, options: Any, rng: random.Random) -> Any: ...


@dataclass(frozen=True)
class Simulation(Generic[S, E]):
    """What the simulator needs beyond the rules: bots, tables, and chance's own moves."""

    bots: Mapping[str, Callable[[], Policy]]
    # Header fields (players, variant, a map, …) of a table for a count, under a ruleset,
    # with the catalogue it is played with (None for a game without one).
    table: Callable[[int, Any, random.Random, Any], dict[str, Any]]
    chance: Callable[[S, random.Random], E | None]  # the next event if chance decides it
    to_move: Callable[[S], int]  # else the seat that decides next
    # What a bot chooses from; by default the engine's `legal_events` for its seat. A game
    # whose turns offer thousands of actions gives its bots a cheaper, lazier menu.
    options: Callable[[S, int], Any] | None = None
    # Where the rules allow a match that never ends (Heraldry without a duke), the simulator
    # stops after this many events and writes the log as it stands: incomplete.
    max_events: int | None = None
    # For games whose turns are open runs of events: how to end one when a bot says STOP, and
    # when the simulation is finished (a log may end inside the last run; a bot may not).
    stop: Callable[[S], object] | None = None
    finished: Callable[[S], bool] | None = None
    # The tables of a game's other variants by name (Knight Academy's lancelot), each like
    # `table`; `table` itself seats the variants the player count implies.
    variants: Mapping[str, Callable[[int, Any, random.Random, Any], dict[str, Any]]] = field(
        default_factory=dict
    )
    # The bot the search bot plays its playouts out by unless it is told another
    # (replay.search): the one that tells moves apart best for what its playouts cost.
    playouts: str = "random"
    # The bot whose pick a search node opens first, where it is not the playout bot: a
    # heuristic too dear to play every playout out by is still cheap once a node.
    guide: str | None = None
    # How the search scores a playout (replay.search.REWARDS): "win", each seat's share of
    # the win; "margin", half that and half its score against the best other seat's.
    reward: str = "win"
    # Playouts cut once this many rounds have ended from the decision's own on (None: played
    # to the end), and scored by `reward` with the leaders standing for the winners.
    horizon: int | None = None
    # The search plays the guide's pick unless another move's mean reward beats it by this
    # many standard errors (None: the move searched most): a heuristic worth trusting is not
    # overruled by the noise of a few playouts a move.
    trust: float | None = None
    # A move analysis's cut playouts (replay.analysis, `review --analyse`) run through this
    # many rounds' ends before the fitted estimate scores them: where a move pays off (or
    # costs) rounds later, one round's end shows too little of it. None: they are played to
    # the end, for a game whose estimate misses what its moves are worth.
    analysis_rounds: int | None = 1
    # Moves a move analysis's quick pass plays out as one (a key: the same for moves alike),
    # where a game's menus repeat a move in many small variants: a Paladins action paid with
    # workers of other colours. The quick pass plays one of each kind; the rest of the
    # analysis weighs moves one by one.
    alike: Callable[[E], Hashable] | None = None

    def __post_init__(self) -> None:
        if self.analysis_rounds is not None and self.analysis_rounds < 1:
            raise ValueError(f"an analysis's cut is a count of rounds, 1 or more: "
                             f"{self.analysis_rounds}")  # fmt: skip
        if self.horizon is not None and self.horizon < 1:
            raise ValueError(f"a search's horizon is a count of rounds, 1 or more: {self.horizon}")
        if self.horizon is not None and self.reward == "win":
            # a match cut short has no winners: every cut playout would score 0 for every seat
            raise ValueError("a search with a horizon needs a reward that scores a match cut "
                             "short (margin), not win")  # fmt: skip


@dataclass(frozen=True)
class Option:
    """A mode switch a header names in `options` (`{"advanced": true}`): the ruleset fields it
    sets when true (`on`) and when false (`off`), over the header's ruleset and under its
    `rules`, so one switch turns on a rule made of several numbers."""

    rule: str  # the rule it switches, e.g. "KA-21"
    on: Mapping[str, Any]
    off: Mapping[str, Any]


def switch(rule: str, off: Any, on: Any) -> Option:
    """The option that turns ruleset `off` into ruleset `on`: the fields where they differ."""
    low, high = msgspec.to_builtins(off), msgspec.to_builtins(on)
    changed = [name for name, value in high.items() if low.get(name) != value]
    return Option(
        rule=rule,
        on={name: high[name] for name in changed},
        off={name: low[name] for name in changed},
    )


def _shown(value: Any, most: int = 40) -> str:
    """A header value as JSON, cut short: a message names it without repeating a whole line."""
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= most else f"{text[: most - 1]}…"


@dataclass(frozen=True)
class Game(Generic[C, S, E]):
    """A game as a plain record of pure functions (after boardgame.io)."""

    name: str
    title: Mapping[str, str]  # by language: {"en": ..., "zh": ...}
    # Two letters that start the ids of the matches squire simulates ("ka-…").
    short: str
    header_type: type[Header]
    event_type: Any  # a union of tagged Structs; `type[E]` cannot spell a union
    config_type: type[C]
    rulesets: Mapping[str, C]
    standard_ruleset: str
    sources: Sequence[str]  # scoring sources, in the order results list them
    # (ruleset, header, the catalogue the header names, or None for a game without one)
    new_game: Callable[[C, Any, Any], S]
    apply: Callable[[S, E], Sequence[Fact]]
    legal_events: Callable[[S, int | None], list[E]]
    expecting: Callable[[S], Expecting]
    is_over: Callable[[S], bool]
    result: Callable[[S], Result]
    snapshot: Callable[[S], dict[str, Any]]
    render: Callable[[dict[str, Any]], str]  # a snapshot as text
    # What a seat knows (docs/engines.md, "What a seat knows"): the state as `seat` sees it,
    # everything hidden from it replaced by what it may know (a count, HIDDEN backs); None is
    # the analysis board, the whole state. Always a new state.
    view: Callable[[S, int | None], S]
    # When chance decides the next event (`expecting(state).decider == CHANCE`): every outcome
    # the rules allow, each once, with its probability where the rules give one (None where
    # they do not); nothing otherwise. Lazy: a deal may have many.
    chance_outcomes: Callable[[S], Iterator[tuple[E, float | None]]]
    # A whole state `seat` could be in, drawn with the rng: what it cannot see dealt again
    # from what remains unseen; given a view, the same. view(resample(s, seat), seat) ==
    # view(s, seat).
    resample: Callable[[S, int | None, random.Random], S]
    clone: Callable[[S], S]  # an independent copy, cheaper than copy.deepcopy
    variants: Sequence[str] = field(default=("base",))
    # Where the game stands in every list of games (the order they joined squire).
    order: int = 0
    # Whether a seat may know less than the whole state (hands, decks, a face-down card);
    # False for a game of open information, whose every `view` is the whole state.
    secrets: bool = True
    # Raised whenever a change could alter the replay of a stored log; stored with each match.
    engine_version: str = "1"
    simulation: Simulation[S, E] | None = None
    # Event kind → the field naming the component it takes (a card, a tile): for analytics.
    item_fields: Mapping[str, str] = field(default_factory=dict)
    # For a game played with a component catalogue: its default and rule (replay.catalogues).
    catalogue: Uses | None = None
    # For a game whose log may stop inside an open run of events once the game is over (an
    # Albus Academy log may end in the last turn's cast, AA-45): end that run, returning the
    # facts it establishes (end-of-game scoring). The replayer calls it where such a log
    # ends, or at its final claim; it leaves a state already closed as it is.
    close: Callable[[S], Sequence[Fact]] | None = None
    # For a game whose rulesets replace some sources by others (Knight Academy's variant
    # boards, KA-22): the sources a ruleset scores from, in `sources`' order.
    sources_of: Callable[[C], Sequence[str]] | None = None
    # The ruleset's numbers that change scoring only: every event a log holds stays legal
    # under any value of them, so a stored match re-scores exactly (replay.rescore).
    scoring_only: frozenset[str] = frozenset()
    # The mode switches a header may name in `options`, by name (Knight Academy's `advanced`,
    # KA-21): beside the rulesets, since each switches ruleset fields.
    options: Mapping[str, Option] = field(default_factory=dict)

    def scored_sources(self, config: C) -> Sequence[str]:
        """The sources a match under `config` scores from: all of `sources` by default."""
        return self.sources if self.sources_of is None else self.sources_of(config)

    def ruleset(self, header: Header, extra: Mapping[str, C] | None = None) -> C:
        """LOG-3: the header's named ruleset, its `options` switched on it, its `rules`
        overrides on top."""
        return self.resolve(header.ruleset, header.rules, extra, header.options)

    def resolve(
        self,
        name: str | None,
        rules: Mapping[str, Any],
        extra: Mapping[str, C] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> C:
        """The ruleset called `name` (default: the standard one), `options` switched on it,
        `rules` on top."""
        name = name or self.standard_ruleset
        known = {**self.rulesets, **(extra or {})}
        if name not in known:
            raise RulesError(
                "LOG-3", f"unknown ruleset {name!r}; known: {', '.join(sorted(known))}"
            )
        base = known[name]
        switched = self.switched(options or {})
        if not rules and not switched:
            return base
        try:
            return msgspec.convert(
                {**msgspec.to_builtins(base), **switched, **rules}, type=self.config_type
            )
        except (msgspec.ValidationError, ValueError) as err:
            given = (("options", switched), ("rules overrides", rules))
            what = " and ".join(part for part, there in given if there)
            raise RulesError("LOG-3", f"{what} do not fit ruleset {name!r}: {err}") from None

    def switched(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """LOG-3: the ruleset fields a header's `options` set. Each names a switch of this
        game, true (on) or false (off), whatever its ruleset says."""
        fields: dict[str, Any] = {}
        for name, value in options.items():
            option = self.options.get(name)
            if option is None:
                known = ", ".join(f"{k} ({o.rule})" for k, o in sorted(self.options.items()))
                known = f"known: {known}" if known else f"{self.name} has none"
                raise RulesError("LOG-3", f"unknown option {_shown(name)}; {known}")
            if type(value) is not bool:
                raise RulesError(
                    "LOG-3", f"option {_shown(name)} is true or false, not {_shown(value)}"
                )
            fields.update(option.on if value else option.off)
        return fields

    def settled(self, header: H, extra: Mapping[str, C] | None = None) -> H:
        """The header with its `options` folded into its `ruleset` and `rules`, so that what
        files a match by them (the warehouse's `ruleset`, `ruleset_key`) names the rules it was
        replayed with. The ruleset is the named one nearest to what the options make: the
        fewest fields apart, the header's own on a tie (`knight-academy/standard` with
        `advanced` is `knight-academy/advanced`); the fields where it differs go under the
        header's own `rules`. It resolves as the header does, whose options `ruleset` checks."""
        if not header.options:
            return header
        name = header.ruleset or self.standard_ruleset
        known = {**self.rulesets, **(extra or {})}
        made = msgspec.to_builtins(self.resolve(name, {}, extra, header.options))

        def apart(candidate: str) -> dict[str, Any]:
            fields = msgspec.to_builtins(known[candidate])
            return {k: v for k, v in made.items() if fields.get(k) != v}

        nearest = min([name, *(k for k in known if k != name)], key=lambda k: len(apart(k)))
        return msgspec.structs.replace(
            header,
            ruleset=header.ruleset if nearest == name else nearest,
            rules={**apart(nearest), **header.rules},
            options={},
        )
