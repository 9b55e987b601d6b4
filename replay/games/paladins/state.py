"""The Paladins state: what is true at a moment of the match, nothing derivable."""

from __future__ import annotations

import msgspec

from .catalogue import Catalogue
from .config import Config


class Seat(msgspec.Struct, kw_only=True):
    """One player's board, supply and holdings."""

    deck: list[str]  # PA-42, PA-49: the paladin deck, top first
    paladin: str | None = None  # PA-10: this round's paladin, once chosen
    revealed: bool = False  # PA-11: the paladin shows from the player's take_tavern on
    supply: dict[str, int] = {}  # colour → workers held (PA-14)
    spaces: dict[str, list[str]] = {}  # personal-board space → workers on it, slot order
    silver: int = 0
    provisions: int = 0
    tracks: dict[str, int] = {}  # faith, strength, influence (PA-44)
    vp: int = 0  # banked during play (PA-61)
    workshops: dict[str, int] = {}  # main action → workshops on it (PA-19, PA-43)
    developed: int = 0  # workshops taken from the row so far (PA-20)
    monks: int = 0  # monks placed (PA-30)
    outposts: int = 0
    walls: list[str] = []  # wall cards drawn (PA-32)
    jars: list[int] = []  # the spots jars stand on (PA-34)
    converts: list[str] = []  # PA-36, left to right
    attacked: list[str] = []  # PA-35
    team: list[str] = []  # townsfolk in the order they joined (PA-22, PA-57)
    debts: int = 0  # unpaid (PA-23)
    repaid: int = 0
    suspicion: list[str] = []  # in the order drawn (PA-56)
    passed: bool = False


class State(msgspec.Struct, kw_only=True):
    """Mutated in place by `rules.apply`. Seats are indices into `players`."""

    config: Config
    catalogue: Catalogue
    players: list[str]
    seats: dict[str, int]
    first_player: int
    start_player: int
    round: int = 0  # 0 until round 1 starts
    # setup | king | tavern | paladins | take_tavern | actions | draw_wall | draw_suspicion |
    # refill_townsfolk | refill_outsiders | over
    phase: str = "setup"
    turn: int = 0  # the seat to act (actions, take_tavern, draws)
    board: list[Seat]
    townsfolk_deck: list[str]  # unseen cards (their order is chance's, so only the set matters)
    outsider_deck: list[str]
    wall_deck: list[str]
    suspicion_deck: list[str]
    suspicion_discard: list[str] = []
    order_deck: list[str]
    favour_deck: list[str]
    tavern_deck: list[str]
    tavern_discard: list[str] = []
    townsfolk: list[str | None]  # the display, slot 1 first
    outsiders: list[str | None]
    orders: list[str] = []  # revealed, in order (PA-46)
    favours: list[str] = []
    king_due: list[str] = []  # "order" / "favour" reveals still due this round (PA-6)
    tavern: list[str] = []  # this round's tavern cards
    taken: dict[str, int] = {}  # tavern card → the seat that took it
    favour_workers: dict[str, list[tuple[int, str]]] = {}  # favour → (seat, colour) on it
    squares: dict[str, tuple[int, str]] = {}  # square → (seat, "monk" | "outpost")
    pending_team: int = 0  # PA-65: the team's size when a scheme or wall awaits its draw


def clone(state: State) -> State:
    """An independent copy: the ruleset, the catalogue and the seating never change once the
    match starts, so they are shared; every list, dict and seat is copied once. The greedy bot
    clones the state for every option it weighs: one `replace` naming the containers is a
    third cheaper than building the structs by keyword, and a little cheaper than replacing
    them one by one after a shallow copy."""
    return msgspec.structs.replace(
        state,
        board=[_seat(me) for me in state.board],
        townsfolk_deck=state.townsfolk_deck.copy(),
        outsider_deck=state.outsider_deck.copy(),
        wall_deck=state.wall_deck.copy(),
        suspicion_deck=state.suspicion_deck.copy(),
        suspicion_discard=state.suspicion_discard.copy(),
        order_deck=state.order_deck.copy(),
        favour_deck=state.favour_deck.copy(),
        tavern_deck=state.tavern_deck.copy(),
        tavern_discard=state.tavern_discard.copy(),
        townsfolk=state.townsfolk.copy(),
        outsiders=state.outsiders.copy(),
        orders=state.orders.copy(),
        favours=state.favours.copy(),
        king_due=state.king_due.copy(),
        tavern=state.tavern.copy(),
        taken=state.taken.copy(),
        # the (seat, colour) pairs are tuples, so each favour's list is copied, not its pairs
        favour_workers={card: on.copy() for card, on in state.favour_workers.items()},
        squares=state.squares.copy(),
    )


def _seat(me: Seat) -> Seat:
    return msgspec.structs.replace(
        me,
        deck=me.deck.copy(),
        supply=me.supply.copy(),
        spaces={space: workers.copy() for space, workers in me.spaces.items()},
        tracks=me.tracks.copy(),
        workshops=me.workshops.copy(),
        walls=me.walls.copy(),
        jars=me.jars.copy(),
        converts=me.converts.copy(),
        attacked=me.attacked.copy(),
        team=me.team.copy(),
        suspicion=me.suspicion.copy(),
    )
