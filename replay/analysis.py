"""Which moves cost the game: each decision of a match that had a choice, the win chance the
move played gave up against the best alternative analysed.

A decision is judged from its seat's view, as the seat knew it: each sample deals the seat a
state it could have been in (`resample` of its `view`), and every move is played out from the
same sample with the same random draws (common random numbers), so the differences between
moves carry little of the luck of the deal. A quick pass with a few samples a move keeps the
most promising moves and the one played; those are then played out with the whole budget,
and the best of them is played out once more against the move played, on samples of its own
(the best of several noisy estimates is flattered by its noise). The loss is that best move's
win share less the played move's, in points of win chance (0 to 100), with the 95% interval
of its mean over the paired samples; a move is an inaccuracy, a
mistake or a blunder (5, 10, 15 points) only when the whole interval clears the threshold.

Playouts are played by a bot of the game (random by default) from the move to the end.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from replay.game import CHANCE, STOP, Game
from replay.log import Final
from replay.playout import past_round, playout
from replay.replayer import Match, Outcome, start

LABELS = ((15.0, "blunder"), (10.0, "mistake"), (5.0, "inaccuracy"))
LEAST = LABELS[-1][0]
# An undecided loss is measured on up to this many times the samples: a Paladins pair's
# differences spread over some 60 points, and at 8 times two losses of 10 points (20 by the
# reference) still had intervals down to 5 (docs/review.md).
GROW = 16
# From this many times the samples on, a loss stops being measured once even the top of its
# interval, were it the loss, would not be told from a 5-point one at the cap (`futile`): a
# decision whose moves are about equal would otherwise take the whole cap to come out so.
# At half the cap, every loss flagged with a cap of 8 times is flagged still.
FUTILE_FROM = GROW // 2
# The quick pass plays each move `quick` samples, fewer where the moves are many (down to 2
# a move): a Paladins turn offers fifty, a Heraldry turn a hundred, and the quick pass would
# otherwise cost more than the rest of the decision's judging together.
QUICK_PLAYOUTS = 100
# Student's t, 97.5th percentile, by degrees of freedom: a 95% interval of a mean of few
# samples is wider than the normal's (1.96), which it nears from about 30 on.
T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
       2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
       2.060, 2.056, 2.052, 2.048, 2.045, 2.042)  # fmt: skip
Z = 1.96


def t95(df: int) -> float:
    return T95[df - 1] if df <= len(T95) else Z


_ENCODER = msgspec.json.Encoder()
SEATS = 64  # more seats than any game numbers


@dataclass(frozen=True)
class Judged:
    """One decision: event `index` (from 1) by `seat`."""

    index: int
    seat: int
    played: Any
    best: Any  # the best alternative analysed (the played move itself when none beat it)
    loss: float  # win-chance points the played move gave up against `best`, ≥ 0
    low: float  # the loss's 95% interval
    high: float
    label: str | None  # "inaccuracy", "mistake", "blunder", or None
    options: int  # moves it had
    analysed: int  # moves played out with the whole budget
    samples: int  # paired samples behind the loss

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seat": self.seat,
            "played": msgspec.to_builtins(self.played),
            "best": msgspec.to_builtins(self.best),
            "loss": round(self.loss, 2),
            "low": round(self.low, 2),
            "high": round(self.high, 2),
            "label": self.label,
            "options": self.options,
            "analysed": self.analysed,
            "samples": self.samples,
        }


def label_of(low: float) -> str | None:
    for threshold, name in LABELS:
        if low >= threshold:
            return name
    return None


CHOICE, FORCED, DEALT = "choice", "forced", "chance"  # what decided a step


def decisions(match: Match, outcome: Outcome) -> Iterator[tuple[int, int, Any, Any]]:
    """Each decision of the match that had a choice: its index, seat, the state before it (a
    copy) and the event played."""
    for index, kind, seat, state, event in _walk(match, outcome, copies=True):
        if kind == CHOICE and seat is not None:
            yield index, seat, state, event


def deciders(match: Match, outcome: Outcome) -> list[str]:
    """What decided each step (from 1): a seat's choice, a seat with one move, or chance."""
    return [kind for _, kind, _, _, _ in _walk(match, outcome, copies=False)]


def _walk(
    match: Match, outcome: Outcome, copies: bool
) -> Iterator[tuple[int, str, int | None, Any, Any]]:
    game = match.game
    state = start(match)
    for step in outcome.steps:
        event = step.event
        if isinstance(event, Final):
            break
        # the seat the event names (several may choose at once: a draft), never chance's
        seat = state.seats.get(getattr(event, "player", None))
        if game.expecting(state).decider == CHANCE:
            kind = DEALT
        elif seat is None:
            kind = FORCED  # a step of the rules' own, no seat's
        else:
            kind = CHOICE if len(_moves(game, state, seat)) > 1 else FORCED
        copy = game.clone(state) if copies and kind == CHOICE else None
        yield step.index, kind, seat, copy, event
        game.apply(state, event)


def _moves(game: Game[Any, Any, Any], state: Any, seat: int) -> list[Any]:
    return list(game.legal_events(state, seat))


def judge(
    game: Game[Any, Any, Any],
    state: Any,
    seat: int,
    played: Any,
    index: int,
    samples: int = 32,
    quick: int = 4,
    keep: int = 4,
    seed: int = 0,
    policy: str = "random",
    scorer: Scorer | None = None,
    rounds: int = 1,
) -> Judged | None:
    """The decision at `state` judged; None where the seat's view cannot be dealt again into
    a state where the played move is open (a view that hides what the seat holds).
    With a `scorer`, playouts are cut at the end of the round `rounds` rounds on (1: the
    decision's own) and scored by it."""
    cut = None if scorer is None else Cut(scorer, index, rounds)
    moves = _moves(game, state, seat)
    key = _ENCODER.encode(played)
    keys = [_ENCODER.encode(m) for m in moves]
    if key not in keys:
        return None
    seen = game.view(state, seat)
    # the quick pass: a few samples for every move (every kind of move, where the game says
    # which are alike)
    kinds = _one_of_each(game, moves) if len(moves) > keep + 1 else list(range(len(moves)))
    if len(kinds) > keep + 1:
        few = max(2, min(quick, QUICK_PLAYOUTS // len(kinds)))
        quick_shares = _shares(game, seen, seat, [moves[i] for i in kinds], few,
                               f"{seed}:{index}:quick", policy, cut)  # fmt: skip
        if quick_shares is None:
            return None
        means = [sum(s) / len(s) for s in quick_shares]
        order = sorted(range(len(kinds)), key=lambda i: -means[i])
        chosen = [kinds[i] for i in order if keys[kinds[i]] != key][:keep]
        moves = [moves[keys.index(key)], *(moves[i] for i in chosen)]
    else:  # few moves, or few kinds of them: every one (of each kind) goes on
        moves = [moves[keys.index(key)], *(moves[i] for i in kinds if keys[i] != key)]
    # Successive halving among the alternatives: each round plays every one still in on
    # fresh samples (the same for all of them), keeps the better half, and doubles the
    # samples, so the budget goes to telling the leaders apart.
    # The last one left is not played again here: it is measured afresh below.
    alive = list(range(1, len(moves)))
    totals = [0.0] * len(moves)
    count, round_ = samples, 0
    while len(alive) > 1:
        shares = _shares(game, seen, seat, [moves[i] for i in alive], count,
                         f"{seed}:{index}:{round_}", policy, cut)  # fmt: skip
        if shares is None:
            return None
        for i, one in zip(alive, shares):
            totals[i] += sum(one)
        alive = sorted(alive, key=lambda i: -totals[i])[: (len(alive) + 1) // 2]
        count, round_ = count * 2, round_ + 1
    best = moves[alive[0]]
    # The best of several noisy estimates is flattered by its own noise: the loss is measured
    # again on samples of its own, the played move against that best one alone.
    diffs: list[float] = []
    while True:
        again = _shares(game, seen, seat, [moves[0], best], samples,
                        f"{seed}:{index}:again:{len(diffs)}", policy, cut)  # fmt: skip
        if again is None:
            break
        diffs += [100 * (b - p) for p, b in zip(again[0], again[1])]
        mean, low, high = _interval(diffs)
        # Where the interval still straddles the least threshold, more samples settle it:
        # a 20-point loss is not told from none by 16 samples whose differences spread over
        # 40 points, and its first 16 can even come out at or below none (two blunders
        # planted early in an Albus Academy match did, and went unflagged while a mean at or
        # below none ended the measure). Most decisions are settled at once (their moves
        # alike, or far apart).
        if not (low < LEAST <= high) or len(diffs) >= samples * GROW:
            break
        if len(diffs) >= samples * FUTILE_FROM and futile(mean, high, len(diffs), samples * GROW):
            break
    if len(diffs) < 2:
        return None
    n = len(diffs)
    mean, low, high = _interval(diffs)
    if mean <= 0:  # the best alternative did no better than the move played
        return Judged(index, seat, played, played, 0.0, 0.0, 0.0, None,
                      len(keys), len(moves), n)  # fmt: skip
    return Judged(index, seat, played, best, mean, low, high, label_of(low),
                  len(keys), len(moves), n)  # fmt: skip


def futile(mean: float, high: float, n: int, cap: int) -> bool:
    """Whether `cap` paired samples could not clear the least threshold even if the loss were
    the top of its interval now (of `n` samples): that top less the interval's half-width at
    the cap, its spread as now, is below it. A loss seen at 10 points on 128 samples whose
    differences spread over 60 goes on (two Paladins plants were such); one at 0 whose
    interval reaches 5.3 on 128 samples stops."""
    half = (high - mean) * math.sqrt(n / cap) * t95(cap - 1) / t95(n - 1)
    return high - half < LEAST


def _one_of_each(game: Game[Any, Any, Any], moves: Sequence[Any]) -> list[int]:
    """The place of the first move of each kind (Simulation.alike), or of every move."""
    alike = None if game.simulation is None else game.simulation.alike
    if alike is None:
        return list(range(len(moves)))
    first: dict[Any, int] = {}
    for i, move in enumerate(moves):
        first.setdefault(alike(move), i)
    return list(first.values())


def _interval(diffs: Sequence[float]) -> tuple[float, float, float]:
    """The mean of the paired differences and its 95% interval."""
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = t95(n - 1) * sd / math.sqrt(n)
    return mean, mean - half, mean + half


class Scorer(Protocol):
    """A fitted estimate of a seat's chance to win in a state a playout was cut in: called
    with the seat, the index of the decision's event, and each run of (event, its facts)
    played from the decision on (the move first); gives the seat's chance after each run."""

    def __call__(
        self, seat: int, start: int, runs: Sequence[Sequence[tuple[Any, Sequence[Any]]]]
    ) -> list[float]: ...


@dataclass(frozen=True)
class Cut:
    """Playouts cut at the end of the round `rounds` rounds on from the decision's, scored by
    `scorer`; a playout that reaches the end of the game first is scored by its result."""

    scorer: Scorer
    start: int  # the decision's event index
    rounds: int = 1


def _shares(
    game: Game[Any, Any, Any],
    seen: Any,
    seat: int,
    moves: Sequence[Any],
    samples: int,
    stream: str,
    policy: str,
    cut: Cut | None = None,
) -> list[list[float]] | None:
    """Each move's win share for `seat` over the same `samples` dealt states and draws; None
    when no sample leaves every move open."""
    sim = game.simulation
    assert sim is not None
    bot = sim.bots[policy]()
    out: list[list[float]] = [[] for _ in moves]
    runs: list[list[tuple[Any, Sequence[Any]]]] = []  # cut ones, scored together at the end
    waiting: list[tuple[int, int]] = []  # (move, sample) of each of `runs`
    tried = 0
    while len(out[0]) < samples and tried < samples * 4:
        tried += 1
        rng = random.Random(f"{stream}:{tried}")
        dealt = game.resample(seen, seat, rng)
        open_ = {_ENCODER.encode(m) for m in _moves(game, dealt, seat)}
        if any(_ENCODER.encode(m) not in open_ for m in moves if m is not STOP):
            continue  # a deal the moves offered rule out
        draws = rng.getstate()
        for i, move in enumerate(moves):
            state = game.clone(dealt)
            made = game.apply(state, move)
            rng.setstate(draws)  # the same draws after every move
            if cut is None:
                playout(game, state, [bot] * SEATS, rng)
            else:
                facts: list[Sequence[Any]] = [made]
                events = [move, *playout(game, state, [bot] * SEATS, rng,
                                         until=past_round(state.round + cut.rounds - 1),
                                         facts=facts)]  # fmt: skip
                if not game.is_over(state):
                    runs.append(list(zip(events, facts)))
                    waiting.append((i, len(out[i])))
                    out[i].append(0.0)
                    continue
            result = game.result(state)
            won = seat in result.winners
            out[i].append(1 / len(result.winners) if won else 0.0)
    if runs:
        assert cut is not None
        for (i, n), p in zip(waiting, cut.scorer(seat, cut.start, runs)):
            out[i][n] = p
    return out if len(out[0]) >= 2 else None


def analyse(
    match: Match, outcome: Outcome, samples: int = 32, seed: int = 0, policy: str = "random"
) -> list[Judged]:
    """Every decision of the match that had a choice, judged (those that cannot be are left
    out)."""
    judged = []
    for index, seat, state, event in decisions(match, outcome):
        one = judge(match.game, state, seat, event, index, samples=samples, seed=seed,
                    policy=policy)  # fmt: skip
        if one is not None:
            judged.append(one)
    return judged


def accuracy(judged: Sequence[Judged], seats: int) -> list[float | None]:
    """Each seat's accuracy: 100 less the mean win chance its decisions gave up (None for a
    seat with no decision judged)."""
    out: list[float | None] = []
    for seat in range(seats):
        mine = [j.loss for j in judged if j.seat == seat]
        out.append(100 - sum(mine) / len(mine) if mine else None)
    return out


@dataclass(frozen=True)
class Swings:
    """How one seat's result came about, in points of win chance: what the match's choices
    moved it by (the chance its own decisions gave up, and its share of what the others'
    gave up), and what is left, chance's (deals, draws, what the seats could not see), with
    chance's share of the two."""

    chance: float
    choices: float

    @property
    def share(self) -> float | None:
        whole = abs(self.chance) + abs(self.choices)
        return abs(self.chance) / whole if whole else None


def swings(
    judged: Sequence[Judged], winners: Sequence[int], prior: Sequence[float]
) -> list[Swings]:
    """Each seat's result (its share of the win) less its chance before the first event
    (`prior`, one a seat), split into choices and chance. A seat's choices moved it by what
    the others' decisions gave up, shared evenly among the others, less what its own gave
    up, counting only the losses flagged (their interval above 5 points);
    chance is the rest: a seat that gave up nothing and lost, lost by chance."""
    seats = len(prior)
    lost = [0.0] * seats
    for j in judged:
        # Only the losses flagged: each decision's loss is positive by a little noise where
        # the moves are equal, and a match's hundreds of those would add up to more than a
        # whole result.
        if j.label is not None:
            lost[j.seat] += j.loss
    out = []
    for seat in range(seats):
        result = 100 / len(winners) if seat in winners else 0.0
        others = sum(lost) - lost[seat]
        choices = others / (seats - 1) - lost[seat] if seats > 1 else -lost[seat]
        out.append(Swings(result - 100 * prior[seat] - choices, choices))
    return out


def rated(
    game: Game[Any, Any, Any],
    state: Any,
    seat: int,
    samples: int,
    seed: int = 0,
    policy: str = "random",
    moves: Sequence[Any] | None = None,
) -> list[tuple[Any, float]] | None:
    """Every move open to `seat` (or those of `moves`) with its win share in points, each
    played out `samples` times from the seat's view on the same samples: the reference a
    planted blunder is measured by (at a budget far above the analysis's)."""
    moves = _moves(game, state, seat) if moves is None else moves
    shares = _shares(game, game.view(state, seat), seat, moves, samples, f"rated:{seed}", policy)
    if shares is None:
        return None
    return [(m, 100 * sum(s) / len(s)) for m, s in zip(moves, shares)]


@dataclass(frozen=True)
class Planted:
    """How the analysis fared on planted blunders and on decisions where nothing matters."""

    planted: int  # decisions replaced by a move the reference rates `gap` points worse
    caught: int  # of those, flagged
    equal: int  # decisions whose moves the reference rates within `tie` points of each other
    false: int  # of those, flagged


@dataclass(frozen=True)
class Case:
    """A decision the reference rated, and the move to judge in it: a blunder planted, or any
    move where nothing matters."""

    index: int  # the decision's event index
    move: int  # the move's place among the seat's legal events there
    blunder: bool


def cases(
    match: Match,
    outcome: Outcome,
    every: int = 1,
    after: int = 0,
    reference: int = 256,
    gap: float = 20.0,
    tie: float = 2.0,
    policy: str = "greedy",
    menu: int | None = None,
    before: int | None = None,
) -> list[Case]:
    """Every `every`-th decision of the match after event `after` (and up to event `before`)
    rated by the reference;
    where a move is `gap` points below the best, that move is planted in its place;
    where every move is within `tie` points of the others, a move is taken, which should not
    be flagged. The reference is the dear part of a planted-blunders run (hundreds of
    playouts a move): its cases can be kept and judged again under other settings.

    With a `menu`, a decision with more moves than that has only the move played and
    `menu - 1` others drawn at random rated (a Heraldry turn offers a hundred, each played out
    hundreds of times): a move `gap` below the best of those is below the best of all, so it
    is still planted, but such a decision is never taken for one where nothing matters."""
    out = []
    for n, (index, seat, state, played) in enumerate(decisions(match, outcome)):
        if n % every or index <= after or (before is not None and index > before):
            continue
        some = None
        whole = _moves(match.game, state, seat)
        if menu is not None and len(whole) > menu:
            key = _ENCODER.encode(played)
            others = [m for m in whole if _ENCODER.encode(m) != key]
            some = [played, *random.Random(f"menu:{index}").sample(others, menu - 1)]
        moves = rated(match.game, state, seat, reference, seed=index, policy=policy,
                      moves=some)  # fmt: skip
        if moves is None:
            continue
        top = max(p for _, p in moves)
        worse = [m for m, p in moves if top - p >= gap]
        if worse:  # confirmed on samples of its own, four times as many: a reference's
            # noise would otherwise plant moves a little less than `gap` below the best
            again = rated(match.game, state, seat, 4 * reference, seed=-index, policy=policy,
                          moves=some)  # fmt: skip
            if again is not None:
                top = max(p for _, p in again)
                worse = [m for m, p in again if top - p >= gap]
        keys = [_ENCODER.encode(m) for m in whole]
        if worse:
            out.append(Case(index, keys.index(_ENCODER.encode(worse[0])), True))
        elif some is None and max(p for _, p in moves) - min(p for _, p in moves) <= tie:
            out.append(Case(index, keys.index(_ENCODER.encode(moves[0][0])), False))
    return out


def judge_cases(
    match: Match,
    outcome: Outcome,
    found: Sequence[Case],
    samples: int = 16,
    policy: str = "greedy",
    scorer: Scorer | None = None,
    rounds: int = 1,
) -> Planted:
    """Each case's move judged as the analysis judges a decision: how many blunders it flags,
    and how many moves of decisions where nothing matters."""
    wanted = {case.index: case for case in found}
    planted = caught = equal = false = 0
    for index, seat, state, _ in decisions(match, outcome):
        case = wanted.get(index)
        if case is None:
            continue
        move = _moves(match.game, state, seat)[case.move]
        one = judge(match.game, state, seat, move, index, samples=samples, policy=policy,
                    scorer=scorer, rounds=rounds)  # fmt: skip
        if one is None:
            continue
        flagged = one.label is not None
        if case.blunder:
            planted, caught = planted + 1, caught + flagged
        else:
            equal, false = equal + 1, false + flagged
    return Planted(planted, caught, equal, false)
