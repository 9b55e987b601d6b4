"""Small tools for building Albus Academy situations by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from replay.games import albus_academy as aa
from tests.support import catalogue, refused

LOGS = Path(__file__).parent / "logs"


def header(players: str = "Ann Bob", **fields: Any) -> aa.Header:
    fields.setdefault("game_id", "t")
    return aa.Header(format="squire-log/1", game="albus-academy", players=players.split(), **fields)


def new(players: str = "Ann Bob", **fields: Any) -> aa.State:
    head = header(players, **fields)
    return aa.new_game(aa.RULES.ruleset(head), head, catalogue("albus-academy"))


PUBLIC_TILES = ["T04", "T13", "T07", "T22"]
PUBLIC_HOMEWORK = ["S03", "I02", "S07", "I10"]
HANDS = {0: ["S01", "I08", "S12"], 1: ["I15", "S04", "I03"], 2: ["S02", "I01", "S05"]}


def table_in(players: str = "Ann Bob", **fields: Any) -> aa.State:
    """Setup done by draws: public tiles T04 T13 T07 T22, public homework S03 I02 S07 I10,
    hands Ann S01 I08 S12, Bob I15 S04 I03 (Cid S02 I01 S05); Ann (seat 0) to move, round 1."""
    state = new(players, **fields)
    texts = [f"draw_tile {t}" for t in PUBLIC_TILES]
    texts += [f"draw_homework {c}" for c in PUBLIC_HOMEWORK]
    for seat in range(len(state.players)):
        texts += [f"draw_homework {c} {state.players[seat]}" for c in HANDS[seat]]
    run(state, *texts)
    return state


def ev(text: str) -> aa.Event:
    """'draw_tile T01' · 'draw_homework S04 [Ann]' · 'Ann cast 2,0' · 'Ann trigger 0,0' ·
    'Ann shard' · 'Ann will' · 'Ann take T04' · 'Ann use I05 [ready=0,0;1,1] [tiles=T01]' ·
    'Ann homework S04 [ready=…] [tiles=…]' · 'Ann rest [S01]' · 'Ann place T04 1,0 2'."""
    words = text.split()
    if words[0] == "draw_tile":
        return aa.events.DrawTile(tile=words[1])
    if words[0] == "draw_homework":
        return aa.events.DrawHomework(card=words[1], to=words[2] if len(words) > 2 else None)
    player, kind, *rest = words

    def pos(s: str) -> tuple[int, int]:
        r, c = s.split(",")
        return int(r), int(c)

    extra: dict[str, Any] = {}
    for word in rest[1:]:
        key, _, value = word.partition("=")
        if key == "ready":
            extra["ready"] = [pos(p) for p in value.split(";")]
        elif key == "tiles":
            extra["tiles"] = value.split(";")
    E = aa.events
    if kind == "cast":
        return E.Cast(player=player, at=pos(rest[0]))
    if kind == "trigger":
        return E.Trigger(player=player, at=pos(rest[0]))
    if kind == "shard":
        return E.CollectShard(player=player)
    if kind == "will":
        return E.GainWill(player=player)
    if kind == "take":
        return E.TakeTile(player=player, tile=rest[0])
    if kind == "use":
        return E.UseItem(player=player, item=rest[0], **extra)
    if kind == "homework":
        return E.CompleteHomework(player=player, card=rest[0], **extra)
    if kind == "rest":
        return E.Rest(player=player, swap=rest[0] if rest else None)
    if kind == "place":
        return E.PlaceTile(player=player, tile=rest[0], at=pos(rest[1]), rotation=int(rest[2]))
    raise ValueError(text)


def run(state: aa.State, *texts: str) -> list[Any]:
    facts: list[Any] = []
    for text in texts:
        facts.extend(aa.apply(state, ev(text)))
    return facts


def rejects(state: aa.State, text: str, rule: str) -> str:
    """Assert `text` is refused under `rule` and leaves the state as it was; the message."""
    return refused(aa.apply, state, ev(text), rule)


def seat(state: aa.State, player: str) -> Any:
    return state.board[state.seats[player]]
