"""A stored match, replayed: the viewer rebuilds its log from the warehouse (header and event
lines as written) and replays it, so every step shows exactly what `squire replay --step`
shows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
import streamlit as st

from dashboards import queries
from dashboards.data import query, signature, warehouse_path
from dashboards.sentences import told
from ingest.files.catalogues import Library
from ingest.files.read import rebuilt
from replay.game import Result
from replay.replayer import Match, Outcome, Step, open_log, replay, state_at


@dataclass(frozen=True)
class Replayed:
    match: Match
    # Per event: index, line, round (the round it was played in, as the warehouse counts it),
    # round_after (the step's round: the state's after it), kind, player, facts, raw.
    events: list[dict[str, Any]]
    catalogue: str | None = None  # "name version" of the catalogue it was played with, if any
    result: Result | None = None  # scores by source where the log ends
    sources: tuple[str, ...] = ()  # the sources its ruleset scores from
    steps: tuple[Step, ...] = ()  # as the engine replayed them: decoded events and their facts


def log_bytes(game_id: str) -> bytes | None:
    """The stored match's log, rebuilt from the warehouse's header and event lines."""
    head = query(queries.MATCH_HEADER, {"game_id": game_id})
    if head.is_empty():
        return None
    payloads = query(queries.MATCH_PAYLOADS, {"game_id": game_id})["payload"].to_list()
    return rebuilt(head["header"][0], payloads)


def event_rows(outcome: Outcome) -> list[dict[str, Any]]:
    """The replayed steps as the viewer reads them, a row an event (`Replayed.events`)."""
    players = outcome.match.header.players
    # The replayer reads each event's round off the state just before the event, so the state's
    # round after a step is the next step's, and after the last step the end state's.
    after = [step.round for step in outcome.steps[1:]] + [outcome.state.round]
    events = []
    for step, round_after in zip(outcome.steps, after, strict=False):
        facts = []
        for fact in step.facts:
            row = msgspec.to_builtins(fact)
            row["player"] = players[row.pop("seat")]
            if "victim" in row:
                row["victim"] = players[row["victim"]]
            facts.append(row)
        raw = msgspec.to_builtins(step.event)
        events.append(
            {
                "index": step.index,
                "line": step.line,
                "round": step.round,
                "round_after": round_after,
                "kind": type(step.event).__struct_config__.tag,
                "player": raw.get("player"),
                "facts": facts,
                "raw": raw,
            }
        )
    return events


@st.cache_resource(max_entries=64, show_spinner=False)
def _load(game_id: str, signature_: str) -> Replayed | None:
    data = log_bytes(game_id)
    if data is None:
        return None
    # the catalogue the match was played with: shipped, or kept by its warehouse
    match = open_log(data, game_id, catalogues=Library(warehouse_path()))
    outcome = replay(match)
    events = event_rows(outcome)
    played_with = getattr(outcome.state, "catalogue", None)
    return Replayed(
        match=match,
        events=events,
        catalogue=(f"{played_with.name} {played_with.version}" if played_with else None),
        result=match.game.result(outcome.state),
        sources=tuple(match.game.scored_sources(match.config)),
        steps=tuple(outcome.steps),
    )


def load(game_id: str) -> Replayed | None:
    return _load(game_id, signature())


@st.cache_data(max_entries=256, show_spinner=False)
def snapshot(
    game_id: str, step: int, signature_: str, perspective: str | None = None
) -> dict[str, Any] | None:
    """The state after event `step` as the player `perspective` knew it (the engine's view),
    or whole for None, as `squire replay --step --json` gives it."""
    loaded = _load(game_id, signature_)
    if loaded is None:
        return None
    game = loaded.match.game
    players = loaded.match.header.players
    seat = players.index(perspective) if perspective in players else None
    return game.snapshot(game.view(state_at(loaded.match, step), seat))


@st.cache_data(max_entries=64, show_spinner=False)
def sentences(
    game_id: str, signature_: str, lang: str, perspective: str | None = None
) -> list[str] | None:
    """The match in words, one sentence a step, as the player `perspective` could tell it
    (everything for None)."""
    loaded = _load(game_id, signature_)
    if loaded is None:
        return None
    players = loaded.match.header.players
    seat = players.index(perspective) if perspective in players else None
    return told(loaded.match, loaded.steps, lang, seat)
