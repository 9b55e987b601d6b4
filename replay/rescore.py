"""A recorded match replayed again under changed rules: "what if these rules had applied?"

Pure, like the rest of `replay/`: it takes a log's bytes and gives values. Where the changed
rules still accept every event of the log, the match is re-scored exactly. Where they refuse
one (or the log ends before the changed game does), the match first differs there: bots may
finish it from the state just before (`finish_with`), an estimate, never mixed with the exact
results. Each game's ruleset says which of its numbers change scoring only
(`Game.scoring_only`): those always re-score exactly.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from replay.catalogues import Catalogues, NoCatalogues
from replay.errors import ReplayError
from replay.game import Result
from replay.log import numbered_lines
from replay.playout import playout
from replay.replayer import open_log, replay, start, steps


@dataclass(frozen=True)
class Side:
    """A match's result under one set of rules, by player name."""

    scores: dict[str, int]
    winners: list[str]
    ranks: dict[str, int]  # of the players who can win (a neutral seat is left out)
    sources: dict[str, dict[str, int]]  # the same players' points by source

    @classmethod
    def of(cls, players: list[str], result: Result, neutral: str | None = None) -> Side:
        real = [(seat, player) for seat, player in enumerate(players) if player != neutral]
        return cls(
            scores=dict(zip(players, result.scores)),
            winners=[players[seat] for seat in result.winners],
            ranks={player: result.ranks[seat] for seat, player in real},
            sources={player: dict(result.sources[seat]) for seat, player in real},
        )


@dataclass(frozen=True)
class Rescored:
    """One match before and after. `exact`: every event stood under the changed rules;
    otherwise `differs_at` is the first event (1-based) they refuse, or the one after the
    log's last when the changed match goes on, with the rule and message, and `after` is the
    bots' finish (None when no bot was asked to finish it)."""

    game_id: str
    before: Side
    after: Side | None
    exact: bool
    differs_at: int | None = None
    rule: str | None = None
    message: str | None = None

    @property
    def changed_winner(self) -> bool:
        return self.after is not None and set(self.after.winners) != set(self.before.winners)


def with_rules(data: bytes, changes: Mapping[str, Any]) -> bytes:
    """The log with `changes` written over its header's `rules`, and without its final
    claim (the recorder's scores were the old rules')."""
    (_, first), *rest = numbered_lines(data)
    header = msgspec.json.decode(first)
    header["rules"] = {**header.get("rules", {}), **changes}
    lines = [msgspec.json.encode(header)]
    lines += [line for _, line in rest if _KIND.decode(line).kind != "final"]
    return b"\n".join(lines) + b"\n"


class _Kind(msgspec.Struct):
    kind: str


_KIND = msgspec.json.Decoder(_Kind)


def rescore(
    data: bytes,
    changes: Mapping[str, Any],
    path: str = "log",
    catalogues: Catalogues | None = None,
    finish_with: str | None = None,
    seed: int = 0,
) -> Rescored:
    """Replay the log as it was, then under `changes`; RulesError (LOG-3) when the changes do
    not fit the match's ruleset, ReplayError when the log itself is broken."""
    books = catalogues or NoCatalogues()
    first = replay(open_log(data, path, catalogues=books), keep_steps=False)
    players = list(first.match.header.players)
    neutral = getattr(first.match.header, "neutral", None)
    before = Side.of(players, first.result, neutral)
    match = open_log(with_rules(data, changes), path, catalogues=books)
    game = match.game
    state = start(match)
    game_id = match.header.game_id
    last = 0
    try:
        for step in steps(match, state):
            last = step.index
    except ReplayError as err:
        if err.rule == "LOG-5":  # the changed game ended sooner: what followed never happens
            return Rescored(
                match.header.game_id, before, Side.of(players, game.result(state), neutral), True
            )
        differs = (last + 1, err.rule, err.message)
    else:
        if game.is_over(state) or not first.result.complete:
            return Rescored(
                match.header.game_id, before, Side.of(players, game.result(state), neutral), True
            )
        differs = (last + 1, "LOG-4", "the log ends before the game does under these rules")
    after = None
    if finish_with is not None:
        sim = game.simulation
        if sim is None or finish_with not in sim.bots:
            known = ", ".join(sim.bots) if sim else "none"
            raise ValueError(f"{game.name} has no bot {finish_with!r}; known: {known}")
        bots = [None if p == neutral else sim.bots[finish_with]() for p in players]
        playout(game, state, bots, random.Random(f"{match.header.game_id}:{seed}"))
        after = Side.of(players, game.result(state), neutral)
    index, rule, message = differs
    return Rescored(game_id, before, after, False, index, rule, message)
