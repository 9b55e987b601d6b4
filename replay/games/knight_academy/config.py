"""The Knight Academy ruleset: every number a designer may vary. Defaults = the printed rules."""

from __future__ import annotations

from functools import cache
from typing import Annotated, Literal, get_args

import msgspec

from replay.ranges import LIST, Count, Name, Players, Points, Positive, Round, Step

Track = Literal[
    "courage", "joust", "tournament", "education", "king", "charity", "quest", "white", "black"
]
TRACKS: tuple[Track, ...] = get_args(Track)[:7]  # KA-1: the printed boards' tracks
KNIGHTS: tuple[Track, ...] = ("white", "black")  # KA-22a: joust's and tournament's white side
# KA-22: the white-edged sides a ruleset may turn up, each in place of its printed board.
Board = Literal["knights", "wager", "codex", "scrolls", "quest", "mercy"]
BOARDS: tuple[Board, ...] = get_args(Board)


def _standard_deck() -> dict[str, int]:
    """KA-2: 52 cards; `sword` 2×5, 4×4, 6×3; every other type 1×5, 2×4, 3×3, 2×2."""
    deck = {"sword-5": 2, "sword-4": 4, "sword-3": 6}
    for kind in ("courage", "education", "king", "charity", "quest"):
        deck.update({f"{kind}-5": 1, f"{kind}-4": 2, f"{kind}-3": 3, f"{kind}-2": 2})
    return deck


Copies = Annotated[int, msgspec.Meta(ge=0, le=20)]
MAX_CARD_VALUE = 20  # a card moves its disc at most a lap


class Config(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Read by the engine, the bots and the simulator; never a literal in their code."""

    deck: Annotated[dict[Name, Copies], LIST] = msgspec.field(  # KA-2: card → copies
        default_factory=_standard_deck
    )
    min_players: Players = 3  # base game
    max_players: Players = 5
    rounds: Round = 6
    hand_size: Annotated[int, msgspec.Meta(ge=1, le=20)] = 5  # KA-4 cards dealt; KA-5 steps
    plays_per_round: Annotated[int, msgspec.Meta(ge=1, le=20)] = 4  # KA-6; the rest discarded
    # KA-5 per round: +1 = to the left
    pass_directions: Annotated[tuple[Step, ...], LIST] = (1, -1, 1, -1, 1, -1)
    track_length: Positive = 20  # KA-7 squares per lap (laps only show; ranking uses progress)
    king_cap: Positive = 12  # KA-7
    # A podium place i (0 = 1st) is awarded only with at least place_min_seats[i] seats.
    place_min_seats: Annotated[tuple[Players, ...], LIST] = (1, 1, 4)  # KA-10, 11, 15: 3rd 4+
    courage_bonus: Annotated[tuple[Count, ...], LIST] = (3, 2, 1)  # KA-10 squares, 1st to 3rd
    joust_prizes: Annotated[tuple[Points, ...], LIST] = (3, 2, 1)  # KA-11
    tournament_prizes: Annotated[tuple[Points, ...], LIST] = (3, 2, 1)  # KA-11
    education_penalties: tuple[Points, Points] = (-3, -1)  # KA-12 last, second-last
    # KA-13 (progress from, points)
    king_awards: Annotated[tuple[tuple[Count, Points], ...], LIST] = ((6, 6), (12, 12))
    charity_penalties: tuple[Points, Points] = (-10, -5)  # KA-14 last, second-last
    quest_prizes: Annotated[tuple[Points, ...], LIST] = (17, 10, 4)  # KA-15
    # Which rounds score which track (KA-11 to KA-15); courage's bonus comes every round.
    scoring_rounds: Annotated[dict[Name, Annotated[tuple[Round, ...], LIST]], LIST] = msgspec.field(
        default_factory=lambda: {
            "joust": (1, 2, 3, 4, 5, 6),
            "tournament": (1, 2, 3, 4, 5, 6),
            "education": (1, 2, 3, 4, 5, 6),
            "king": (3, 6),
            "charity": (6,),
            "quest": (6,),
        }
    )
    reset_rounds: Annotated[tuple[Round, ...], LIST] = (3,)  # KA-16
    reset_tracks: Annotated[tuple[Name, ...], LIST] = (
        "courage",
        "joust",
        "tournament",
        "education",
        "king",
    )
    # KA-21, the advanced rules (seed 002), all off in the base rules:
    lifts: Count = 0  # KA-21a: lifts a round's start player may make before its scoring
    courage_step_back: Count = 0  # KA-21b: squares each courage-rewarded seat then goes back
    # KA-21c: reset tracks whose reset goes by rank (last to 0, second-last to 1, …)
    rank_reset_tracks: Annotated[tuple[Name, ...], LIST] = ()
    # KA-20 Lancelot: the cards dealt to each of the two players, and the pile each splits them
    # into, which is also what each of its colours plays in a round.
    lancelot_hand: Annotated[int, msgspec.Meta(ge=2, le=20)] = 6
    lancelot_pile: Annotated[int, msgspec.Meta(ge=1, le=10)] = 3
    # KA-22, the variant boards (seed 002): the white-edged sides turned up, none in the base game.
    boards: Annotated[tuple[Board, ...], LIST] = ()
    # KA-22a White and Black Knight: the squares from the middle of the grail track to each end,
    # the rounds the board scores (then resets), and the prizes of the winning and losing knight.
    grail_squares: Positive = 10
    knight_rounds: Annotated[tuple[Round, ...], LIST] = (2, 4, 6)
    winning_knight_prizes: Annotated[tuple[Points, ...], LIST] = (8, 5, 2)
    losing_knight_prizes: Annotated[tuple[Points, ...], LIST] = (5, 3, 1)
    # KA-22b Courage wager: a podium seat moves its wagered track courage_bonus[place] squares
    # per card it played there this round.
    # KA-22c Education codex: the negative shields dealt face down each round, filled up with
    # 0-point shields to one per seat.
    codex_shields: Annotated[tuple[Points, ...], LIST] = (-3, -1)
    # KA-22d Serve the King: the squares the scrolls start on; the last one's scroll, once
    # taken, resets the board.
    scroll_squares: Annotated[tuple[Positive, ...], LIST] = (6, 12)
    # KA-22e Quest: (points, per so many positive shields) for the 1st and 2nd, and the last's.
    quest_shield_rates: Annotated[tuple[tuple[Points, Positive], ...], LIST] = ((1, 1), (1, 2))
    quest_last_rate: tuple[Points, Positive] = (-1, 2)
    # KA-22f Mercy: shields of at most mercy_max_value the 1st and the 2nd take from the last;
    # the 2nd swaps only with mercy_second_seats seats or more.
    mercy_takes: tuple[Count, Count] = (2, 1)
    mercy_max_value: Points = 3
    mercy_second_seats: Players = 4

    def __post_init__(self) -> None:
        if self.min_players > self.max_players:
            raise ValueError("min_players exceeds max_players")
        if len(self.pass_directions) != self.rounds:
            raise ValueError("pass_directions needs one direction per round")
        if self.plays_per_round > self.hand_size:
            raise ValueError("plays_per_round exceeds hand_size")
        for card in self.deck:
            kind, _, value = card.rpartition("-")
            if kind not in CARD_TRACKS or not value.isdigit():
                raise ValueError(f"deck card {card!r} is not <type>-<value> of a known type")
            if int(value) > MAX_CARD_VALUE:
                raise ValueError(f"deck card {card!r}: a value is at most {MAX_CARD_VALUE}")
        unknown = (set(self.scoring_rounds) | set(self.reset_tracks)) - set(TRACKS)
        if unknown:
            raise ValueError(f"unknown tracks: {', '.join(sorted(unknown))}")
        if not set(self.rank_reset_tracks) <= set(self.reset_tracks):
            raise ValueError("rank_reset_tracks must be among reset_tracks")
        if self.lancelot_hand != 2 * self.lancelot_pile:
            raise ValueError("lancelot_hand must be two piles of lancelot_pile")
        if len(set(self.boards)) != len(self.boards):
            raise ValueError("a variant board is named twice in boards")
        if list(self.scroll_squares) != sorted(set(self.scroll_squares)):
            raise ValueError("scroll_squares must rise")
        if "scrolls" in self.boards and self.scroll_squares[-1:] > (self.king_cap,):
            raise ValueError("a scroll lies beyond king_cap")

    @property
    def tracks(self) -> tuple[Track, ...]:
        """The tracks in play: KA-22a's knights replace joust and tournament."""
        return _tracks("knights" in self.boards)

    @property
    def sources(self) -> tuple[str, ...]:
        """The scoring sources in play, in the order results list them (KA-22's own names)."""
        return _sources(self.boards)


@cache
def _tracks(knights: bool) -> tuple[Track, ...]:
    return ("courage", *KNIGHTS, "education", "king", "charity", "quest") if knights else TRACKS


@cache
def _sources(boards: tuple[Board, ...]) -> tuple[str, ...]:
    out: list[str] = [*KNIGHTS] if "knights" in boards else ["joust", "tournament"]
    out.append("codex" if "codex" in boards else "education")
    out.append("king")
    out.append("mercy" if "mercy" in boards else "charity")
    out.append("quest_shields" if "quest" in boards else "quest")
    return tuple(out)


# KA-6: the tracks a card of each type may move; `sword` chooses one of two.
CARD_TRACKS: dict[str, tuple[Track, ...]] = {
    "sword": ("joust", "tournament"),
    "courage": ("courage",),
    "education": ("education",),
    "king": ("king",),
    "charity": ("charity",),
    "quest": ("quest",),
}

STANDARD = Config()
# KA-21: the advanced rules on top of the printed ones (the king's reset stays at 0).
ADVANCED = msgspec.structs.replace(
    STANDARD,
    lifts=1,
    courage_step_back=1,
    rank_reset_tracks=("courage", "joust", "tournament", "education"),
)
# KA-22: each variant board alone on the printed ones, and all six together.
VARIANT_BOARDS: dict[str, Config] = {
    board: msgspec.structs.replace(STANDARD, boards=(board,)) for board in BOARDS
}
ALL_BOARDS = msgspec.structs.replace(STANDARD, boards=BOARDS)
