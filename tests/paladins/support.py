"""Small tools for building Paladins situations by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from replay.games import paladins as pa
from replay.games.paladins import events as ev_types
from tests.support import catalogue, refused

LOGS = Path(__file__).parent / "logs"
PALADINS = [f"pal-{i:02d}" for i in range(1, 13)]


def header(players: str = "Ann Bob", **fields: Any) -> pa.Header:
    names = players.split()
    fields.setdefault("game_id", "t")
    fields.setdefault("paladin_decks", {p: list(PALADINS) for p in names})
    return pa.Header(format="squire-log/1", game="paladins", players=names, **fields)


def new(players: str = "Ann Bob", **fields: Any) -> pa.State:
    """A match before its first reveal."""
    head = header(players, **fields)
    return pa.new_game(pa.RULES.ruleset(head), head, catalogue("paladins"))


TOWNSFOLK = ["tf-01", "tf-02", "tf-03", "tf-04", "tf-05"]
OUTSIDERS = ["out-01", "out-02", "out-03", "out-04", "out-05"]


def table_in(
    players: str = "Ann Bob", round_: int = 1, paladin: str | None = None, **fields: Any
) -> pa.State:
    """A match in round `round_`'s actions, the start player to act, nobody holding workers:
    displays as TOWNSFOLK and OUTSIDERS, no king's card, and every seat playing `paladin`
    (none by default, so no bonus or ability interferes)."""
    state = new(players, **fields)
    run(state, "reveal_townsfolk " + " ".join(TOWNSFOLK), "reveal_outsiders " + " ".join(OUTSIDERS))
    state.round = round_
    state.king_due = []
    state.phase = "actions"
    for me in state.board:
        me.paladin = paladin
        me.revealed = True
    state.turn = state.start_player
    return state


def seat(state: pa.State, player: str) -> Any:
    return state.board[state.seats[player]]


def turn(state: pa.State, player: str) -> pa.State:
    """Make it `player`'s turn (hand-built situations skip the turns in between)."""
    state.turn = state.seats[player]
    return state


def give(state: pa.State, player: str, **amounts: int) -> None:
    """Workers by colour, `silver=`, `provisions=`, or a track (`faith=`, …) for a seat."""
    me = state.board[state.seats[player]]
    for key, value in amounts.items():
        if key == "silver":
            me.silver = value
        elif key == "provisions":
            me.provisions = value
        elif key in me.tracks:
            me.tracks[key] = value
        else:
            me.supply[key] = me.supply.get(key, 0) + value


def ev(text: str) -> pa.Event:
    """'Ann hunt white green' · 'Ann recruit tf-01 white red [debt]' · 'Ann develop attack
    white white' · 'Ann pray commission black' · 'Ann commission r1-1 green any black' ·
    'Ann attack out-01 green white red' · 'Ann favour fav-1 white blue [tf-01|space]' ·
    'Ann pass white' · 'reveal_townsfolk tf-01 …' · 'reveal_king ord-1' · …"""
    words = text.split()
    if words[0].startswith("reveal_"):
        kind, cards = words[0], words[1:]
        if kind == "reveal_king":
            return ev_types.RevealKing(card=cards[0])
        if kind == "reveal_tavern":
            return ev_types.RevealTavern(cards=cards)
        if kind == "reveal_townsfolk":
            return ev_types.RevealTownsfolk(cards=cards)
        return ev_types.RevealOutsiders(cards=cards)
    player, kind, *rest = words
    decoded = {"kind": kind, "player": player}
    if kind in ("hunt", "trade", "scheme", "build_wall"):
        decoded["workers"] = rest
    elif kind in ("recruit",):
        decoded.update(card=rest[0], workers=[w for w in rest[1:] if w != "debt"])
        if "debt" in rest:
            decoded["pay"] = "debt"
    elif kind in ("develop",):
        decoded.update(action=rest[0], workers=rest[1:])
    elif kind in ("pray",):
        decoded.update(space=rest[0], workers=rest[1:])
    elif kind in ("commission", "garrison"):
        decoded.update(square=rest[0], workers=rest[1:])
    elif kind == "absolve":
        decoded.update(spot=int(rest[0]), workers=rest[1:])
    elif kind in ("attack", "convert"):
        decoded.update(card=rest[0], workers=rest[1:])
    elif kind == "favour":
        target = [
            w
            for w in rest[1:]
            if w.startswith("tf-")
            or w in pa.config.STANDARD.space_slots
            or w in pa.config.STANDARD.main_slots
        ]
        decoded.update(card=rest[0], workers=[w for w in rest[1:] if w not in target])
        if target and target[0].startswith("tf-"):
            decoded["townsfolk"] = target[0]
        elif target:
            decoded["space"] = target[0]
    elif kind == "pass":
        decoded["keep"] = rest
    elif kind in ("draw_wall", "draw_suspicion", "take_tavern"):
        decoded["card"] = rest[0]
    elif kind == "choose_paladin":
        decoded.update(paladin=rest[0], top=rest[1], bottom=rest[2])
    return msgspec.convert(decoded, type=pa.Event)  # type: ignore[arg-type]


def run(state: pa.State, *texts: str) -> list[Any]:
    facts: list[Any] = []
    for text in texts:
        facts.extend(pa.apply(state, ev(text)))
    return facts


def rejects(state: pa.State, text: str, rule: str) -> str:
    """Assert `text` is refused under `rule` and leaves the state as it was; the message."""
    return refused(pa.apply, state, ev(text), rule)
