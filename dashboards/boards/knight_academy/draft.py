"""Knight Academy's draft as the table saw it (KA-5): at each pick, the hand a seat held, the
card it kept, the cards it passed on and to whom, and what each pick was worth to the picker
and to the seat it passed to, by the greedy bot's measure (the points a card can still win on
its best track, `GreedyBot.card_worth`).

A *hate-draft* is a pick that took a card worth more to the seat it passes to than to the
picker, while the picker held another card worth more to itself: it gave up points to deny
them. A card *came back* when it reached a seat that had held it earlier in the round: it went
round the whole table unpicked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

import polars as pl

from replay.game import HIDDEN
from replay.games.knight_academy.bots import GreedyBot
from replay.games.knight_academy.events import Deal, Pick
from replay.games.knight_academy.state import State
from replay.games.knight_academy.view import view
from replay.replayer import Match, start, steps

VALUER = GreedyBot()


@dataclass(frozen=True)
class Taken:
    """One pick."""

    index: int  # the pick's event, 1-based (the viewer's step after it)
    round: int
    number: int  # the seat's n-th pick of the round, from 1
    player: str
    hand: tuple[str, ...]  # what the seat held when it picked, the card it took among them
    card: str
    passed_to: str | None  # who got the rest (None once nothing is left to pass)
    worth: float  # the card to the picker
    worth_next: float  # the card to the seat the rest passes to
    best: float  # the picker's best card in that hand, to itself
    came_back: tuple[str, ...]  # the cards in `hand` that this seat had held before: all round
    # The other players who knew `hand` when it was picked from, by the engine's view (KA-5:
    # the seat that has just passed it), and who knew the card kept once it was (nobody).
    known_to: tuple[str, ...] = ()
    kept_known_to: tuple[str, ...] = ()

    @property
    def passed(self) -> tuple[str, ...]:
        rest = list(self.hand)
        rest.remove(self.card)
        return tuple(rest)

    @property
    def hate(self) -> bool:
        return (
            self.passed_to is not None and self.worth_next > self.worth and self.best > self.worth
        )


@dataclass
class Round:
    round: int
    dealt: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # The other players who knew each dealt hand once it was dealt, by the engine's view.
    dealt_known_to: dict[str, tuple[str, ...]] = field(default_factory=dict)
    picks: list[Taken] = field(default_factory=list)


def drafts(match: Match) -> list[Round]:
    """Every round's draft; empty for a match without one (lancelot splits piles, KA-20)."""
    return list(_rounds(match))


def _rounds(match: Match) -> Iterator[Round]:
    state: State = start(match)
    if state.persons:  # lancelot: no passing draft
        return
    players = state.players
    n = len(players)
    current: Round | None = None
    counts = [0] * n
    held = [list(h) for h in state.hands]  # each seat's hand before the event now replayed
    knew = knowers(state, "hands")  # and who else knew it then
    worths: dict[tuple[int, str], float] = {}

    def worth_of(seat: int, card: str) -> float:
        key = (seat, card)
        found = worths.get(key)
        if found is None:
            found = worths[key] = VALUER.card_worth(state, seat, card)
        return found

    for step in steps(match, state):
        event = step.event
        if isinstance(event, Deal):
            if current is None or current.round != step.round:
                if current is not None:
                    yield current
                current = Round(round=step.round)
                counts = [0] * n
                worths = {}  # (seat, card) → worth: nothing a worth reads moves in the draft
            current.dealt[event.player] = tuple(event.cards)
            current.dealt_known_to[event.player] = knowers(state, "hands")[
                state.seats[event.player]
            ]
        elif isinstance(event, Pick) and current is not None:
            seat = state.seats[event.player]
            hand = tuple(held[seat])
            counts[seat] += 1
            direction = state.config.pass_directions[step.round - 1]
            following = (seat + direction) % n
            last = len(hand) == 1
            # the discs do not move in the draft: the state after the pick values it as before
            worth = worth_of(seat, event.card)
            current.picks.append(
                Taken(
                    index=step.index,
                    round=step.round,
                    number=counts[seat],
                    player=event.player,
                    hand=hand,
                    card=event.card,
                    passed_to=None if last else players[following],
                    worth=worth,
                    worth_next=0.0 if last else worth_of(following, event.card),
                    best=max(worth_of(seat, c) for c in hand),
                    # the packet a seat holds went round the table once it has passed n times
                    came_back=hand if counts[seat] > n else (),
                    known_to=knew[seat],
                    kept_known_to=knowers(state, "picked")[seat],
                )
            )
        if state.phase == "draft":
            held = [list(h) for h in state.hands]
            knew = knowers(state, "hands")
    if current is not None:
        yield current


def knowers(state: State, cards: str) -> list[tuple[str, ...]]:
    """For each seat, the other players whose view of the state shows that seat's `cards`
    (its "hands" or the cards it has "picked")."""
    players = state.players
    views = [getattr(view(state, other), cards) for other in range(len(players))]
    return [
        tuple(players[o] for o, held in enumerate(views) if o != seat and HIDDEN not in held[seat])
        for seat in range(len(players))
    ]


def _knows(perspective: str | None, owner: str, known_to: tuple[str, ...]) -> bool:
    return perspective is None or perspective == owner or perspective in known_to


def visible(pick: Taken, perspective: str | None) -> bool:
    """Whether a perspective saw the hand a pick was made from: its own, and another seat's
    where the engine's view showed it (the one it had just passed, KA-5)."""
    return _knows(perspective, pick.player, pick.known_to)


def kept_seen(pick: Taken, perspective: str | None) -> bool:
    """Whether a perspective knew the card a pick kept, by the engine's view after the pick."""
    return _knows(perspective, pick.player, pick.kept_known_to)


def cell(pick: Taken, name: Callable[[str], str] = str) -> str:
    """A pick in the grid: the card kept (⊘ a hate-draft, ↺ back round the table), then the
    cards passed on; each card as `name` words it."""
    marks = (" ⊘" if pick.hate else "") + (" ↺" if pick.came_back else "")
    rest = ", ".join(map(name, pick.passed)) or "—"
    return f"{name(pick.card)}{marks} ‖ {rest}"


def grid(
    rnd: Round,
    players: list[str],
    perspective: str | None,
    hidden: str,
    name: Callable[[str], str] = str,
) -> list[dict[str, str]]:
    """One row a pick number, a column a player (their dealt hand first); `hidden` stands for
    what the perspective may not see; each card as `name` words it."""
    picks = rnd.picks
    dealt = {
        p: ", ".join(map(name, cards))
        if _knows(perspective, p, rnd.dealt_known_to.get(p, ()))
        else hidden
        for p, cards in rnd.dealt.items()
        if p in players
    }
    rows = [{"": "dealt", **dealt}]
    for number in sorted({p.number for p in picks}):
        row = {"": str(number)}
        for pick in picks:
            if pick.number == number:
                if kept_seen(pick, perspective):
                    row[pick.player] = cell(pick, name)
                elif visible(pick, perspective):  # the hand it picked from, not the pick
                    row[pick.player] = ", ".join(map(name, pick.hand))
                else:
                    row[pick.player] = hidden
        rows.append(row)
    return rows


# A seat hate-drafts often when at least this share of its picks in a match were hate-drafts.
OFTEN = 0.1


def hate_drafts(matches: Iterable[tuple[str, list[Round], set[str], set[str]]]) -> pl.DataFrame:
    """One row a pick of the matches given as (game_id, drafts, seated players, winners)."""
    rows = [
        (game_id, pick.player, pick.card, pick.hate, pick.player in winners, len(seated))
        for game_id, rounds, seated, winners in matches
        for rnd in rounds
        for pick in rnd.picks
        if pick.player in seated
    ]
    return pl.DataFrame(
        rows,
        schema={
            "game_id": pl.String,
            "player": pl.String,
            "card": pl.String,
            "hate": pl.Boolean,
            "won": pl.Boolean,
            "players": pl.Int64,
        },
        orient="row",
    )


def by_card(picks: pl.DataFrame) -> pl.DataFrame:
    """How often each card was picked, and hate-drafted."""
    return (
        picks.group_by("card")
        .agg(pl.len().alias("picks"), pl.col("hate").sum().alias("hate_drafts"))
        .with_columns((pl.col("hate_drafts") / pl.col("picks")).alias("hate_rate"))
        .sort(["hate_rate", "card"], descending=[True, False])
    )


def by_seat(picks: pl.DataFrame) -> pl.DataFrame:
    """Seats that hate-draft often (a tenth of their picks or more) against the others: how
    many, and how often they won, beside the share a seat would win by chance."""
    seats = picks.group_by("game_id", "player").agg(
        pl.col("hate").mean().alias("rate"),
        pl.col("won").first(),
        pl.col("players").first(),
    )
    return (
        seats.with_columns((pl.col("rate") >= OFTEN).alias("often"))
        .group_by("often")
        .agg(
            pl.len().alias("seats"),
            pl.col("won").mean().alias("win_rate"),
            (1 / pl.col("players")).mean().alias("fair_share"),
        )
        .sort("often", descending=True)
    )
