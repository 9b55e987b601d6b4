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
    match starts, so they are shared; every list, dict and seat is copied once. A shallow copy
    first and then each container replaced: the greedy bot clones the state for every option
    it weighs, and this is a quarter cheaper than building the structs by keyword."""
    new = msgspec.structs.replace(state)
    new.board = [_seat(me) for me in state.board]
    new.townsfolk_deck = list(state.townsfolk_deck)
    new.outsider_deck = list(state.outsider_deck)
    new.wall_deck = list(state.wall_deck)
    new.suspicion_deck = list(state.suspicion_deck)
    new.suspicion_discard = list(state.suspicion_discard)
    new.order_deck = list(state.order_deck)
    new.favour_deck = list(state.favour_deck)
    new.tavern_deck = list(state.tavern_deck)
    new.tavern_discard = list(state.tavern_discard)
    new.townsfolk = list(state.townsfolk)
    new.outsiders = list(state.outsiders)
    new.orders = list(state.orders)
    new.favours = list(state.favours)
    new.king_due = list(state.king_due)
    new.tavern = list(state.tavern)
    new.taken = dict(state.taken)
    # the (seat, colour) pairs are tuples, so each favour's list is copied, not its pairs
    new.favour_workers = {card: list(on) for card, on in state.favour_workers.items()}
    new.squares = dict(state.squares)
    return new


def _seat(me: Seat) -> Seat:
    new = msgspec.structs.replace(me)
    new.deck = list(me.deck)
    new.supply = dict(me.supply)
    new.spaces = {space: list(workers) for space, workers in me.spaces.items()}
    new.tracks = dict(me.tracks)
    new.workshops = dict(me.workshops)
    new.walls = list(me.walls)
    new.jars = list(me.jars)
    new.converts = list(me.converts)
    new.attacked = list(me.attacked)
    new.team = list(me.team)
    new.suspicion = list(me.suspicion)
    return new
