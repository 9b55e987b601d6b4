"""A new match at the table: its header, from the game, rule set, variant, options and the
players the scribe chose, with what the game lays out at random before the first event (a
map, the paladin decks) drawn by the game's own table."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import msgspec

from ingest.warehouse.drafts import new_name
from replay.log import FORMAT
from replay.registry import GAMES

SOURCE = "human"  # a person's table: the header's `source`
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]  # what a game's table seats by default


def header_line(
    game_name: str,
    players: list[str],
    *,
    ruleset: str | None = None,
    variant: str | None = None,
    options: dict[str, bool] | None = None,
    first_player: str | None = None,
    seed: int | None = None,
    catalogue: Any = None,
    now: datetime | None = None,
) -> bytes:
    """The header of a match recorded at the table, as its log's first line; ValueError
    when the game does not seat these players under these rules."""
    game = GAMES[game_name]
    sim = game.simulation
    if sim is None:
        raise ValueError(f"{game_name} has no table to lay out")
    if len(set(players)) != len(players) or not all(p.strip() for p in players):
        raise ValueError("every player needs a name of their own")
    config = game.resolve(ruleset, {})
    lay_out = sim.variants.get(variant or "", sim.table)
    fields = lay_out(len(players), config, random.Random(seed), catalogue)
    seated = [p for p in fields["players"] if p != fields.get("neutral")]
    if len(seated) != len(players):
        raise ValueError(f"{game_name} seats {len(seated)} players here, not {len(players)}")
    named = dict(zip(seated, players))
    fields = {key: _renamed(value, named) for key, value in fields.items()}
    now = now or datetime.now(UTC)
    extra: dict[str, Any] = {}
    if ruleset and ruleset != game.standard_ruleset:
        extra["ruleset"] = ruleset
    if options:
        extra["options"] = options
    if first_player and first_player != fields["players"][0]:
        extra["first_player"] = first_player
    header = game.header_type(
        format=FORMAT,
        game=game_name,
        game_id=new_name(game.short, now),
        played_at=now.replace(microsecond=0),
        source=SOURCE,
        **fields,
        **extra,
    )
    return msgspec.json.encode(header)


def _renamed(value: Any, named: dict[str, str]) -> Any:
    """The table's default names replaced by the players'."""
    if isinstance(value, str):
        return named.get(value, value)
    if isinstance(value, list):
        return [_renamed(v, named) for v in value]
    if isinstance(value, dict):
        return {named.get(k, k): v for k, v in value.items()}
    return value
