"""How an Albus Academy turn and match end: the refills owed after a turn (AA-22), the last
turn once the end is triggered (AA-41), and whether a log may stop here (AA-45)."""

from __future__ import annotations

from .state import State


def refill_counts(state: State) -> tuple[int, int, int]:
    """AA-22: public tiles, public homework, private homework owed now."""
    config = state.config
    tiles = min(config.public_tiles - len(state.public_tiles), sum(state.bag.values()))
    public = min(config.public_homework - len(state.public_homework), len(state.deck))
    private = min(state.private_done, len(state.deck) - public)
    return max(0, tiles), max(0, public), max(0, private)


def last_turn(state: State) -> int | None:
    """AA-41: the turns count after which the match ends, once the end is triggered."""
    if state.last_turn is not None or state.ended_by is None:
        return state.last_turn
    n = len(state.players)
    done = state.turns + 1  # the triggering turn, finished
    if state.config.final_turns == "one_each":
        return done + n - 1
    return done + (state.first_player - 1 - state.turn) % n


def is_over(state: State) -> bool:
    """Over, or (AA-45) the log may stop in the final turn's cast when nothing is owed."""
    if state.phase == "over":
        return True
    if state.phase != "casting" or state.taken or any(refill_counts(state)):
        return False
    last = last_turn(state)
    return last is not None and state.turns + 1 >= last
