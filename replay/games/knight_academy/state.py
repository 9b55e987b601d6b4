"""The Knight Academy state: what is true at a moment of the match, nothing derivable."""

from __future__ import annotations

import msgspec

from .config import Config


class State(msgspec.Struct, kw_only=True):
    """Mutated in place by `rules.apply`. Seats are indices into `players`."""

    config: Config
    players: list[str]
    neutral_seat: int | None  # KA-19: gawain's neutral seat, else None
    round: int = 1
    # deal | codex | wager | draft (lancelot: split, choose, assign) | play | lift | bonus |
    # shield | mercy | over
    phase: str = "deal"
    start_player: int = 0
    deck: dict[str, int]  # KA-4: cards still in the deck, by name
    discard: dict[str, int]
    dealt: list[bool]
    hands: list[list[str]]  # KA-5: the draft hand each seat holds now
    picked: list[list[str]]  # cards picked this round; the play phase plays from these
    step: int = 0  # KA-5: draft step of the round, from 0
    has_picked: list[bool]
    played: list[int]  # KA-6: cards each seat has played this round
    turn: int = 0  # KA-6: the seat to play
    progress: dict[str, list[int]]  # KA-7: track → progress per seat
    arrival: dict[str, list[int]]  # KA-8: track → when each disc last arrived (higher = on top)
    clock: int = 0  # KA-8: arrivals so far, to stamp the next one
    bonuses: list[tuple[int, int]] = []  # KA-10: (seat, squares) still owed, in order of play
    lifts_left: int = 0  # KA-21a: lifts the start player may still make this round
    rewarded: list[int] = []  # KA-21b: the seats this round's courage bonuses go to, in order
    points: list[dict[str, int]]  # seat → scoring source → points
    # The shields each seat holds, as (source, points): KA-22e counts them, KA-22f swaps them
    # (empty, not kept, when neither board is in play).
    shields: list[list[tuple[str, int]]]
    # KA-22, the variant boards' pieces (unused without their board):
    grail: int = 0  # KA-22a: squares from the middle, toward the white knight above 0
    wagers: list[str | None] = []  # KA-22b: each seat's wagered track this round
    played_on: list[dict[str, int]] = []  # KA-22b: seat → track → cards played there this round
    codex: list[int | None] = []  # KA-22c: the codex slots' shields, None once taken
    peeked: list[list[int]] = []  # KA-22c: the codex slots each seat has looked at this round
    codex_order: list[int] = []  # KA-22c: the seats still to take a codex shield, in order
    scrolls: list[int] = []  # KA-22d: the squares still holding a scroll
    scrolls_taken: int = 0  # KA-22d: scrolls taken this round
    mercy_order: list[int] = []  # KA-22f: charity's 1st and 2nd, still to make their swaps

    # The header's player each seat plays for (its points and discs): the seat itself, or in
    # lancelot (KA-20) the player whose colour the seat is.
    owners: list[int]
    # KA-20 lancelot: the players (each seat is one of their colours), the cards each holds,
    # the piles each split them into, and the pile the start player chose.
    persons: list[str] = []
    held: list[list[str]] = []
    piles: list[list[list[str]]] = []
    chosen: int | None = None

    seats: dict[str, int]  # player → seat: `players` inverted, kept because every event asks
    # In a view (view.view), the header's player whose view it is: its hidden numbers (the
    # codex shields of others, KA-22c) read 0 and are marked hidden by the snapshot.
    seen_by: int | None = None


def clone(state: State) -> State:
    """An independent copy: the ruleset, the players and their seats are never changed once
    seated, so they are shared; every other container is copied once."""
    return State(
        config=state.config,
        players=state.players,
        neutral_seat=state.neutral_seat,
        round=state.round,
        phase=state.phase,
        start_player=state.start_player,
        deck=dict(state.deck),
        discard=dict(state.discard),
        dealt=list(state.dealt),
        hands=[list(hand) for hand in state.hands],
        picked=[list(cards) for cards in state.picked],
        step=state.step,
        has_picked=list(state.has_picked),
        played=list(state.played),
        turn=state.turn,
        progress={track: list(row) for track, row in state.progress.items()},
        arrival={track: list(row) for track, row in state.arrival.items()},
        clock=state.clock,
        bonuses=list(state.bonuses),
        lifts_left=state.lifts_left,
        rewarded=list(state.rewarded),
        points=[dict(row) for row in state.points],
        shields=[list(row) for row in state.shields],
        grail=state.grail,
        wagers=list(state.wagers),
        played_on=[dict(row) for row in state.played_on],
        codex=list(state.codex),
        peeked=[list(row) for row in state.peeked],
        codex_order=list(state.codex_order),
        scrolls=list(state.scrolls),
        scrolls_taken=state.scrolls_taken,
        mercy_order=list(state.mercy_order),
        owners=state.owners,
        persons=state.persons,
        held=[list(cards) for cards in state.held],
        piles=[[list(pile) for pile in piles] for piles in state.piles],
        chosen=state.chosen,
        seats=state.seats,
        seen_by=state.seen_by,
    )
