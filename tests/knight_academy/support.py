"""Small tools for building Knight Academy situations by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from replay.games import knight_academy as ka
from replay.games.knight_academy import Bonus, Deal, Lift, Mercy, Pick, Play, Shield, Wager
from replay.games.knight_academy.state import State

LOGS = Path(__file__).parent / "logs"


def header(players: str = "Ann Bob Cid", **fields: Any) -> ka.Header:
    fields.setdefault("game_id", "t")
    return ka.Header(
        format="squire-log/1", game="knight-academy", players=players.split(), **fields
    )


def table(players: str = "Ann Bob Cid", config: ka.Config = ka.STANDARD, **fields: Any) -> State:
    return ka.new_game(config, header(players, **fields))


def ev(text: str) -> ka.Event:
    """'Ann deal a b c d e' | 'Ann pick c' | 'Ann play c [track] [peek=N] [scrolls=6,12]' |
    'Ann bonus track|-' | 'Ann lift track|-' | 'Ann wager track' | 'Ann shield N' |
    'Ann mercy Dee give|- [take,...]'."""
    player, kind, *rest = text.split()
    if kind == "deal":
        return Deal(player=player, cards=rest)
    if kind == "pick":
        return Pick(player=player, card=rest[0])
    if kind == "play":
        options = dict(word.split("=") for word in rest[1:] if "=" in word)
        named = [word for word in rest[1:] if "=" not in word]
        return Play(
            player=player,
            card=rest[0],
            track=named[0] if named else None,  # type: ignore[arg-type]
            peek=int(options["peek"]) if "peek" in options else None,
            scrolls=[int(s) for s in options["scrolls"].split(",")] if "scrolls" in options else [],
        )
    if kind == "wager":
        return Wager(player=player, track=rest[0])  # type: ignore[arg-type]
    if kind == "shield":
        return Shield(player=player, slot=int(rest[0]))
    if kind == "mercy":
        take = [int(p) for p in rest[2].split(",")] if len(rest) > 2 else []
        give = None if rest[1] == "-" else int(rest[1])
        return Mercy(player=player, other=rest[0], give=give, take=take)
    if kind == "bonus":
        return Bonus(player=player, track=None if rest[0] == "-" else rest[0])  # type: ignore[arg-type]
    if kind == "lift":
        return Lift(player=player, track=None if rest[0] == "-" else rest[0])  # type: ignore[arg-type]
    raise ValueError(text)


def run(state: State, *texts: str) -> list[Any]:
    """Apply compact events in order; return every fact they established."""
    facts: list[Any] = []
    for text in texts:
        facts.extend(ka.apply(state, ev(text)))
    return facts


def set_track(state: State, track: str, *progress: int) -> None:
    """Put the discs at these progresses, arriving in seat order (a later seat lands on top)."""
    state.progress[track] = list(progress)
    stamps = []
    for value in progress:
        state.clock += 1
        stamps.append(state.clock if value else 0)
    state.arrival[track] = stamps


def last_plays(state: State, cards: dict[str, list[str]]) -> None:
    """Every seat has played all but its last card; `cards` = [the card to play, the leftover]."""
    state.phase = "play"
    state.turn = state.start_player
    for player, held in cards.items():
        seat = state.seats[player]
        state.picked[seat] = list(held)
        state.played[seat] = state.config.plays_per_round - 1
