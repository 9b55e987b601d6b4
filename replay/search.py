"""A bot that looks ahead, for every game: information-set Monte Carlo tree search.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012), written once against the engine
contract. Each iteration deals the searching seat a whole state it could be in
(`resample` of its own `view`: what it cannot see dealt again), walks one tree of decisions
shared by every such state (each seat choosing by UCB1 on its own share of the wins, among the
moves available in this state, weighed by how often they were), adds one node, plays the rest
out by the playout bot (the game's choice unless named: `Simulation.playouts`; chance by the
game's own `chance_event`), and credits each seat its share of the win. The move tried most at
the root is played.

A node opens its moves one at a time (progressive widening: about √visits of them), the
guide's pick first (the playout bot's, unless the game names a dearer guide), then the rest
at random. Without it a decision with more moves than the budget has playouts (placing a
tile: dozens) tries each once and plays one at random, which is how a search playing out by
the greedy bot once lost to the random bot.

How a playout is scored, and how far the search trusts the guide, is the game's to say
(`Simulation.reward`, `horizon`, `trust`): a playout may be cut some rounds on and scored by
where the seats stand, by the win alone or by the lead as well; and where the guide is a
heuristic worth trusting, its pick is played unless another move is better by more than the
noise of its playouts.

It reads nothing its seat cannot see but the moves the engine offers it (which the seat knows:
they are its choice): the state it is handed is otherwise only looked at through
`view(state, seat)`, so two states that look the same to the seat and offer it the same moves
get the same move from the same random draws (checked). A state dealt again in which none of
those moves is open is given up; where every one is (a view that hides what the seat holds in
its hand), the move is drawn at random among those offered.

The budget is in playouts, or in time with a `clock` the caller hands in: nothing here reads
the clock by itself.
"""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from replay.game import STOP, Game, Policy
from replay.playout import past_round, playout

# UCB1's exploration constant for rewards in [0, 1] (Kocsis and Szepesvári's √2 halved, as
# OpenSpiel's ismcts.py and TAG's MCTS players do for win rates).
EXPLORE = 0.7
# A node with n visits has tried at most 1 + WIDEN·√n of its moves (Coulom 2007; Chaslot et
# al.'s progressive unpruning): enough to try every move of a small menu within a few dozen
# playouts, few enough that a large one is not spread one playout a move.
WIDEN = 1.0
PLAYOUTS = 200  # the default budget of a decision
SEATS = 64  # more seats than any game numbers (replay.ranges: 10 players, two colours each)
_ENCODER = msgspec.json.Encoder()


@dataclass
class _Child:
    move: Any  # the event (or STOP) chosen at this node by `seat`
    seat: int
    visits: int = 0
    wins: float = 0.0  # `seat`'s share of the wins through it
    available: int = 0  # iterations in which the move could be chosen (SO-ISMCTS' UCB)
    guided: bool = False  # opened as the guide's pick
    children: dict[tuple[int, bytes], _Child] = field(default_factory=dict)


def _reward(text: str) -> str:
    if text not in REWARDS:
        raise ValueError(f"{text!r} is not one of {', '.join(REWARDS)}")
    return text


def _standard_errors(text: str) -> float:
    z = float(text)
    if not z >= 0:  # nan too
        raise ValueError("a trust is a count of standard errors, 0 or more")
    return z


# What a search bot's name may set of the game's choices (Simulation.reward, horizon, trust),
# and how each is read: `search:200:trust=none` is the same search without trusting its guide.
SETTINGS: dict[str, Callable[[str], Any]] = {
    "reward": _reward,
    "horizon": lambda text: None if text == "none" else int(text),
    "trust": lambda text: None if text == "none" else _standard_errors(text),
}


def parse(name: str) -> tuple[int | None, float | None, str | None, dict[str, Any]]:
    """`search`, `search:400` (playouts a decision) or `search:250ms` (time a decision),
    each optionally followed by the bot that plays the playouts out (`search:400:greedy`;
    None: the game's own choice), then by any of the game's search settings it changes
    (`search:400:trust=none`, `search:400:greedy:horizon=2:reward=margin`): the playouts, the
    milliseconds, that bot's name and the settings; ValueError for anything else (the caller
    checks the bot is one of the game's, and the settings go together)."""
    head, _, rest = name.partition(":")
    if head != "search":
        raise ValueError(f"not a search bot: {name!r}")
    parts = rest.split(":") if rest else []
    settings: dict[str, Any] = {}
    while parts and "=" in parts[-1]:
        key, _, value = parts.pop().partition("=")
        if key not in SETTINGS or key in settings:
            raise ValueError(f"a search bot sets {', '.join(SETTINGS)}, once each, not {key!r}")
        try:
            settings[key] = SETTINGS[key](value)
        except ValueError as err:
            raise ValueError(f"{key}={value!r} in {name!r}: {err}") from None
    if len(parts) > 2 or "" in parts or any("=" in p for p in parts):
        raise ValueError(f"a search bot is search[:BUDGET[:BOT]][:SETTING=VALUE…], not {name!r}")
    budget = parts[0] if parts else ""
    rollout = parts[1] if len(parts) == 2 else None
    if not budget:
        return PLAYOUTS, None, rollout, settings
    if budget.endswith("ms") and budget[:-2].isdigit() and int(budget[:-2]) > 0:
        return None, float(budget[:-2]), rollout, settings
    if budget.isdigit() and int(budget) > 0:
        return int(budget), None, rollout, settings
    raise ValueError(
        f"a search budget is playouts or milliseconds (search:400, search:250ms), not {budget!r}"
    )


class SearchBot:
    """ISMCTS for one seat of one match of `game`."""

    def __init__(
        self,
        game: Game[Any, Any, Any],
        playouts: int | None = PLAYOUTS,
        ms: float | None = None,
        clock: Callable[[], float] | None = None,
        name: str = "search",
        rollout: str | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> None:
        if ms is not None and clock is None:
            raise ValueError("a budget in time needs a clock")
        if game.simulation is None:
            raise ValueError(f"{game.name} has no simulator to play out with")
        self.game = game
        # the game's choices, as the bot's name changes them (checked together, as the game's)
        self.sim = dataclasses.replace(game.simulation, **settings or {})
        self.playouts = playouts
        self.ms = ms
        self.clock = clock
        self.name = name
        rollout = rollout or self.sim.playouts
        if rollout not in self.sim.bots:
            raise ValueError(f"{rollout!r} is not a bot of {game.name} to play out with")
        self.rollout = self.sim.bots[rollout]
        # A node opens the guide's pick first: the game's guide with the game's own playouts,
        # else the playout bot named.
        guide = self.sim.guide if rollout == self.sim.playouts and self.sim.guide else rollout
        self.guide = self.sim.bots[guide]
        self.reward = REWARDS[self.sim.reward]
        self.horizon = self.sim.horizon
        # a guide is trusted only as the game chose it: a bot named for the playouts guides
        # the nodes too, and the random bot is no guide to trust
        named = settings is not None and "trust" in settings  # named: trusted whatever guides
        self.trust = self.sim.trust if named or rollout == self.sim.playouts else None

    # The options are the game's own menu (a lazy one, for some); search ranks the legal
    # events themselves, STOP among them while a run of events is open.
    def choose(self, state: Any, seat: int, options: Any, rng: random.Random) -> Any:
        moves = self._moves(state, seat)  # what it may do: the engine's offer to the seat
        if len(moves) == 1:
            return moves[0]
        seen = self.game.view(state, seat)
        offered = {_key(m) for m in moves}
        root = _Child(move=None, seat=seat)
        deadline = None if self.ms is None or self.clock is None else self.clock() + self.ms / 1000
        done = 0
        while (self.playouts is None or done < self.playouts) and (
            deadline is None or self.clock is None or self.clock() < deadline or done == 0
        ):
            self._iterate(root, seen, seat, offered, rng)
            done += 1
        if not root.children:
            return moves[rng.randrange(len(moves))]
        best = max(root.children.values(), key=lambda c: (c.visits, c.wins))
        guided = next((c for c in root.children.values() if c.guided), None)
        if self.trust is None or guided is None or best is guided:
            return best.move
        return best.move if _better(best, guided, self.trust) else guided.move

    def _moves(self, state: Any, seat: int) -> list[Any]:
        moves: list[Any] = list(self.game.legal_events(state, seat))
        if self.sim.stop is not None:
            closed = self.game.clone(state)
            self.sim.stop(closed)
            if self.game.expecting(closed) != self.game.expecting(state):
                moves.append(STOP)
        return moves

    def _iterate(
        self, root: _Child, seen: Any, seat: int, offered: set[bytes], rng: random.Random
    ) -> None:
        game, sim = self.game, self.sim
        state = game.resample(seen, seat, rng)
        # the round after which a cut playout stops: the same for every iteration of a
        # decision, so its moves are scored alike
        last = state.round + (self.horizon or 1) - 1
        over = sim.finished or game.is_over
        node, path = root, [root]
        # The bots have no state of their own: one plays every seat, however a game numbers
        # them (its colours); the guide picks the first move a new node opens.
        anyone = self.rollout()
        guide = anyone if self.guide is self.rollout else self.guide()
        expanded = False
        while not over(state) and not expanded:
            event = sim.chance(state, rng)
            if event is not None:  # chance is not in the tree: each iteration draws its own
                game.apply(state, event)
                continue
            # at the root the seat itself chooses (where seats choose at once, a draft, the
            # game would name another first)
            mover = seat if node is root else sim.to_move(state)
            moves = self._moves(state, mover)
            if node is root:  # the seat's own choice: among what it was offered
                moves = [m for m in moves if _key(m) in offered]
                if not moves:
                    return  # a state dealt again that the offer rules out
            keyed = [((mover, _key(m)), m) for m in moves]
            tried = [node.children[k] for k, _ in keyed if k in node.children]
            for child in tried:
                child.available += 1
            untried = [(k, m) for k, m in keyed if k not in node.children]
            if untried and (not tried or len(node.children) < 1 + WIDEN * math.sqrt(node.visits)):
                key, move, guided = self._first(node, state, mover, untried, guide, rng)
                child = node.children[key] = _Child(move, mover, available=1, guided=guided)
                expanded = True
            else:
                child = max(
                    tried,
                    key=lambda c: (
                        c.wins / c.visits + EXPLORE * math.sqrt(math.log(c.available) / c.visits)
                    ),
                )
            self._play(state, child.move)
            node = child
            path.append(node)
        if not over(state):
            cut = None if self.horizon is None else past_round(max(last, state.round))
            playout(game, state, [anyone] * SEATS, rng, until=cut)
        shares = self.reward(game, state)
        root.visits += 1
        for child in path[1:]:
            child.visits += 1
            child.wins += shares[child.seat] if child.seat < len(shares) else 0.0

    def _first(
        self,
        node: _Child,
        state: Any,
        mover: int,
        untried: list[tuple[tuple[int, bytes], Any]],
        bot: Policy,
        rng: random.Random,
    ) -> tuple[tuple[int, bytes], Any, bool]:
        """The move a node opens next, and whether it is the guide's: the guide's pick in
        this state while the node has none open, else one of the rest at random."""
        if not node.children:
            options = (self.sim.options or self.game.legal_events)(state, mover)
            pick = _key(bot.choose(state, mover, options, rng))
            for key, move in untried:
                if key[1] == pick:
                    return key, move, True
        key, move = untried[rng.randrange(len(untried))]
        return key, move, False

    def _play(self, state: Any, move: Any) -> None:
        if move is STOP:
            assert self.sim.stop is not None
            self.sim.stop(state)
        else:
            self.game.apply(state, move)


def _better(a: _Child, b: _Child, z: float) -> bool:
    """Whether `a`'s mean reward beats `b`'s by more than `z` standard errors, a reward in
    [0, 1] taken to vary as much as it can (a fair coin's)."""
    if b.visits == 0:
        return True
    if a.visits == 0:
        return False
    se = math.sqrt(0.25 / a.visits + 0.25 / b.visits)
    return a.wins / a.visits - b.wins / b.visits > z * se


def _key(move: Any) -> bytes:
    return b"stop" if move is STOP else _ENCODER.encode(move)


def _shares(game: Game[Any, Any, Any], state: Any) -> list[float]:
    """Each seat's share of the win: 1 for a lone winner, split on a tie, 0 otherwise."""
    result = game.result(state)
    return _split(result.winners, len(result.scores))


def _split(winners: list[int], seats: int) -> list[float]:
    """One win split among `winners`."""
    shares = [0.0] * seats
    for seat in winners:
        shares[seat] = 1 / len(winners)
    return shares


def _margin(game: Game[Any, Any, Any], state: Any) -> list[float]:
    """Half each seat's share of the win, half its score against the best other seat's, as
    a share of the top score: a playout tells moves apart by how far they win or lose, not
    only whether, and one cut short (its leaders standing for its winners) by where it
    stands."""
    result = game.result(state)
    scores = result.scores
    if result.complete:
        winners = result.winners
    else:
        winners = [seat for seat, rank in enumerate(result.ranks) if rank == 1]
    top = max(*scores, 1)
    out = []
    for seat, (mine, win) in enumerate(zip(scores, _split(winners, len(scores)))):
        other = max((s for o, s in enumerate(scores) if o != seat), default=0)
        ahead = max(-1.0, min(1.0, (mine - other) / top))
        out.append(0.5 * win + 0.25 * (1 + ahead))
    return out


REWARDS = {"win": _shares, "margin": _margin}
