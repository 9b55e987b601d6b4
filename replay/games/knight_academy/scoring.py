"""Knight Academy's scoring: moving and ranking discs, scoring the tracks (KA-7 to KA-15),
the sources points come from, and the result (KA-18, KA-19)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from replay.facts import Fact, ScoreChanged, TrackMoved
from replay.game import Result, track_ranked

from .state import State

# KA-22e, KA-22f: the shields that count as positive ones: the jousts' and tournaments' (or
# the knights') and the king's.
POSITIVE_SOURCES = frozenset({"joust", "tournament", "white", "black", "king"})
NEGATIVE_SOURCES = frozenset({"education", "codex"})  # KA-22f: "education shields"


def move_disc(state: State, seat: int, track: str, squares: int, cause: str) -> TrackMoved:
    """KA-7: progress counts every square since the last reset (king stops at its cap);
    KA-8: an arriving disc goes on top of the discs already on its square."""
    row = state.progress[track]
    before = row[seat]
    after = before + squares
    if track == "king":
        after = min(after, state.config.king_cap)
    if after != before:
        row[seat] = after
        state.clock += 1
        state.arrival[track][seat] = state.clock
    return TrackMoved(
        round=state.round,
        seat=state.owners[seat],
        track=track,
        before=before,
        after=after,
        cause=cause,
    )


def ranked(state: State, track: str) -> list[int]:
    """Seats from first to last by progress, the later arrival above on a shared square.

    KA-9: discs at progress 0 are left out: they tie for last and earn nothing.
    """
    # Progress, then arrival: no two discs share both once they have moved (KA-8).
    ordered = sorted(
        zip(state.progress[track], state.arrival[track], range(len(state.players))), reverse=True
    )
    return [seat for progress, _, seat in ordered if progress > 0]


def liftable(state: State, seat: int) -> list[str]:
    """KA-21a: the tracks where `seat`'s disc shares its square with a disc above it (a tie it
    loses). The start square is no square of the track: all there tie for last (KA-9)."""
    out: list[str] = []
    for track, row in state.progress.items():
        here = row[seat]
        if here:
            stamps = state.arrival[track]
            mine = stamps[seat]
            if any(p == here and stamps[o] > mine for o, p in enumerate(row) if o != seat):
                out.append(track)
    return out


def lift_disc(state: State, seat: int, track: str) -> None:
    """KA-21a: the disc goes to the top of its square, as if it had just arrived (KA-8)."""
    state.clock += 1
    state.arrival[track][seat] = state.clock


def step_back(state: State, seat: int, track: str, squares: int, cause: str) -> TrackMoved:
    """KA-21b: a disc moves back `squares` (never behind the start) and lands on top of the
    square it reaches (KA-8)."""
    row = state.progress[track]
    before = row[seat]
    after = max(0, before - squares)
    if after != before:
        row[seat] = after
        state.clock += 1
        state.arrival[track][seat] = state.clock if after else 0
    return TrackMoved(
        round=state.round,
        seat=state.owners[seat],
        track=track,
        before=before,
        after=after,
        cause=cause,
    )


def rank_reset(state: State, track: str) -> list[int]:
    """KA-21c: where a rank reset leaves each seat's disc: back to the square counting the
    seats ranked below it (the last at 0, the second-last at 1, and so on up), or where it
    stands if that is lower: the discs go back (退回), never forward. Discs at the start tie
    for last (KA-9) and stay there."""
    row = state.progress[track]
    at_zero = [seat for seat, progress in enumerate(row) if progress == 0]
    after = list(row)
    for below, seat in enumerate(at_zero + ranked(state, track)[::-1]):
        after[seat] = min(row[seat], below)
    return after


def stack_order(state: State, track: str) -> list[int]:
    """Every seat from the front, including those at 0 in seat order: the physical stacks, as
    the view draws them and a round's end ranks them."""
    ordered = sorted(
        zip(state.progress[track], state.arrival[track], range(len(state.players))),
        key=lambda disc: (disc[0], disc[1], -disc[2]),
        reverse=True,
    )
    return [seat for _, _, seat in ordered]


def standings(state: State) -> list[Fact]:
    """Every disc of every track where a round ends, in the stacks' order from the front; the
    leader is the first `ranked` names, none while every disc is at the start (KA-9)."""
    facts: list[Fact] = []
    # One sort a track, for the order and the leader alike: moved discs never share both
    # progress and arrival (KA-8), so the stacks' front is `ranked`'s first while it has moved.
    # Seats enter negated, so that on a tie (discs at the start) the lower seat comes first.
    seats = range(0, -len(state.players), -1)
    for track, row in state.progress.items():
        order = [
            -seat for _, _, seat in sorted(zip(row, state.arrival[track], seats), reverse=True)
        ]
        leader = order[0] if row[order[0]] > 0 else None
        facts += track_ranked(state.round, track, row, order, leader, state.owners)
    return facts


def _places(state: State, awards: Sequence[int]) -> int:
    """How many podium places are awarded at this table (3rd only with 4 or more seats)."""
    return _place_count(len(awards), len(state.players), state.config.place_min_seats)


@cache
def _place_count(awards: int, seats: int, limits: tuple[int, ...]) -> int:
    return sum(1 for i in range(awards) if i >= len(limits) or seats >= limits[i])


def courage_bonuses(state: State) -> list[tuple[int, int]]:
    """KA-10: (seat, squares) owed, in the order they are taken: 3rd, then 2nd, then 1st."""
    awards = state.config.courage_bonus
    podium = ranked(state, "courage")[: _places(state, awards)]
    return [(seat, awards[place]) for place, seat in reversed(list(enumerate(podium)))]


def award(state: State, facts: list[Fact], seat: int, source: str, points: int) -> None:
    """A shield of `points` to `seat` (nothing for 0 points: that shield is never kept)."""
    if points:
        state.points[seat][source] += points
        if state.shields:  # kept only where a board reads them (KA-22e, KA-22f)
            state.shields[seat].append((source, points))
        facts.append(
            ScoreChanged(round=state.round, seat=state.owners[seat], source=source, points=points)
        )


def bottom(state: State, track: str) -> list[list[int]]:
    """KA-12: the seats from the very last upward, as groups: every seat at the start is
    last at once (and then nobody is second-last), else one seat a group."""
    row = state.progress[track]
    at_zero = [seat for seat, progress in enumerate(row) if progress == 0]
    rest = [[seat] for seat in ranked(state, track)[::-1]]
    if len(at_zero) >= 2:
        return [at_zero, *rest]
    return [[seat] for seat in at_zero] + rest


def positive_shields(state: State, seat: int) -> list[int]:
    """KA-22e, KA-22f: the points of a seat's jousts', tournaments', knights' and king's
    shields."""
    return [p for source, p in state.shields[seat] if p > 0 and source in POSITIVE_SOURCES]


def negative_shields(state: State, seat: int) -> list[int]:
    """KA-22f: the points of a seat's education (or codex) shields below 0."""
    return [p for source, p in state.shields[seat] if p < 0 and source in NEGATIVE_SOURCES]


def score_round(state: State) -> list[Fact]:
    """KA-11 to KA-15, in the rulebook's order, for the tracks this round scores, with the
    variant boards in place of theirs (KA-22). The codex's shields (KA-22c) and mercy's swaps
    (KA-22f) are the seats' decisions: rules.py asks for them after this."""
    config = state.config
    boards = config.boards
    facts: list[Fact] = []
    rnd = state.round

    def podium(track: str, prizes: Sequence[int]) -> None:
        for place, seat in enumerate(ranked(state, track)[: _places(state, prizes)]):
            award(state, facts, seat, track, prizes[place])

    def tail(track: str, penalties: tuple[int, int]) -> None:
        last, second_last = penalties
        row = state.progress[track]
        at_zero = [seat for seat, progress in enumerate(row) if progress == 0]
        if len(at_zero) >= 2:  # KA-12: all at 0 are last; nobody is second-last
            for seat in at_zero:
                award(state, facts, seat, track, last)
            return
        bottom = at_zero + ranked(state, track)[::-1]  # from the very last upward
        award(state, facts, bottom[0], track, last)
        if len(bottom) > 1:
            award(state, facts, bottom[1], track, second_last)

    if "knights" in boards:
        if rnd in config.knight_rounds:  # KA-22a: the grail's side wins; in the middle, neither
            for knight, toward in (("white", 1), ("black", -1)):
                won = state.grail * toward > 0
                podium(
                    knight,
                    config.winning_knight_prizes if won else config.losing_knight_prizes,
                )
    else:
        if rnd in config.scoring_rounds.get("joust", ()):
            podium("joust", config.joust_prizes)
        if rnd in config.scoring_rounds.get("tournament", ()):
            podium("tournament", config.tournament_prizes)
    if "codex" not in boards and rnd in config.scoring_rounds.get("education", ()):
        tail("education", config.education_penalties)
    if "scrolls" in boards:
        shields = state.scrolls_taken  # KA-22d: a scoring per scroll taken this round
    else:
        shields = rnd in config.scoring_rounds.get("king", ())
    for _ in range(shields):  # KA-13: king has no ranking, only thresholds
        for seat, progress in enumerate(state.progress["king"]):
            points = 0
            for threshold, value in config.king_awards:
                if progress >= threshold:
                    points = value
            award(state, facts, seat, "king", points)
    if "mercy" not in boards and rnd in config.scoring_rounds.get("charity", ()):
        tail("charity", config.charity_penalties)
    if rnd in config.scoring_rounds.get("quest", ()):
        if "quest" in boards:
            _quest_shields(state, facts)
        else:
            podium("quest", config.quest_prizes)
    return facts


def _quest_shields(state: State, facts: list[Fact]) -> None:
    """KA-22e: quest's 1st and 2nd win points per positive shield held, its last loses them
    (every seat at the start is last)."""
    config = state.config
    places = ranked(state, "quest")[: len(config.quest_shield_rates)]
    gains: list[tuple[int, tuple[int, int]]] = list(zip(places, config.quest_shield_rates))
    groups = bottom(state, "quest")
    gains += [(seat, config.quest_last_rate) for seat in groups[0] if seat not in places]
    for seat, (points, per) in gains:
        change = points * (len(positive_shields(state, seat)) // per)
        if change:
            state.points[seat]["quest_shields"] += change
            facts.append(
                ScoreChanged(
                    round=state.round,
                    seat=state.owners[seat],
                    source="quest_shields",
                    points=change,
                )
            )


def result(state: State) -> Result:
    """KA-18: the highest total wins and equal totals share; KA-19: the neutral seat never wins;
    KA-20: a lancelot player scores its two colours together."""
    points = state.points
    if len(state.owners) != len(set(state.owners)):  # lancelot: each player's colours summed
        points = [{} for _ in range(max(state.owners) + 1)]
        for seat, owner in enumerate(state.owners):
            for source, value in state.points[seat].items():
                points[owner][source] = points[owner].get(source, 0) + value
    totals = [sum(row.values()) for row in points]
    complete = state.phase == "over"
    contenders = [seat for seat in range(len(totals)) if seat != state.neutral_seat]
    best = max(totals[seat] for seat in contenders)
    winners = [seat for seat in contenders if totals[seat] == best] if complete else []
    ranks = [1 + sum(other > total for other in totals) for total in totals]
    return Result(
        complete=complete,
        scores=totals,
        sources=[dict(row) for row in points],
        winners=winners,
        ranks=ranks,
    )


# Every source a match may score from: the printed boards', then the variant boards' (KA-22).
SOURCES = (
    "joust",
    "tournament",
    "education",
    "king",
    "charity",
    "quest",
    "white",
    "black",
    "codex",
    "quest_shields",
    "mercy",
)
