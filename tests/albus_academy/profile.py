"""What the conformance suite (tests/conformance/) needs to know of Albus Academy."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import msgspec
from hypothesis import strategies as st

from replay.games import albus_academy as aa
from replay.games.albus_academy.legal import legal_events
from replay.games.albus_academy.rules import close
from replay.games.albus_academy.scoring import standing
from tests.support import Greedy, Profile, Setting, led_by_first


def _among(state: aa.State, event: aa.Event, offered: list[Any]) -> bool:
    """One of the offered events, or, inside a cast, one that may follow its end: a cast ends
    when the log goes on to what comes after it (AA-5)."""
    if event in offered:
        return True
    if state.phase != "casting":
        return False
    ended = copy.deepcopy(state)
    close(ended)
    return event in legal_events(ended)


def _near_misses(state: aa.State, rng: random.Random, offered: list[Any]) -> list[aa.Event]:
    """Offered events with one field changed (position, tile, card, rotation, choices)."""
    cat = state.catalogue
    cells = [(r, c) for r in range(-1, 4) for c in range(-1, 5)]
    pools = {
        "at": cells,
        "tile": sorted(cat.tiles),
        "card": sorted(cat.homework),
        "item": sorted(cat.homework),
        "rotation": list(range(-1, 5)),
        "swap": sorted(cat.homework),
    }
    out: list[aa.Event] = []
    for event in rng.sample(offered, min(4, len(offered))):
        fields = msgspec.structs.asdict(event)
        for name in [f for f in fields if f in pools]:
            out.append(msgspec.structs.replace(event, **{name: rng.choice(pools[name])}))
        if "ready" in fields:
            out.append(msgspec.structs.replace(event, ready=[rng.choice(cells)]))
        if "tiles" in fields:
            out.append(msgspec.structs.replace(event, tiles=[rng.choice(sorted(cat.tiles))]))
    player = state.players[state.turn]
    out += [
        aa.events.CollectShard(player=player),
        aa.events.GainWill(player=player),
        aa.events.Rest(player=player),
    ]
    return out


def _short_term(outcomes: list[Any]) -> bool:
    return all(
        o.match.config.end_homework == 3
        and (
            max(len(me.spells) + len(me.items) for me in o.state.board) >= 3
            or any(me.class_dismissed for me in o.state.board)
        )
        for o in outcomes
    )


def _broken(lines: list[str]) -> dict[str, tuple[int, str, str]]:
    header = json.loads(lines[0])
    header["catalogue"] = {"name": "albus-sample", "version": "9"}
    dear = '{"kind": "complete_homework", "player": "Ann", "card": "S12"}'
    return {
        "unknown.jsonl": (1, json.dumps(header), "AA-34"),
        "bag.jsonl": (3, '{"kind": "draw_tile", "tile": "T99"}', "AA-22"),  # not in the bag
        "turn.jsonl": (16, lines[15].replace('"Ann"', '"Bob"'), "AA-2"),
        "dear.jsonl": (17, dear, "AA-16"),
    }


def _standing(state: aa.State) -> dict[str, tuple[list[tuple[int, int]], int | None]]:
    """The tracks as the snapshot shows them: homework completed, tiles on view (the starting
    corners not counted), whole links, prestige (the end abilities' only at the end), shards
    and will; each in the order AA-43 gives scores."""
    view = aa.snapshot(state)
    corners = state.catalogue.corners
    tracks: dict[str, list[int]] = {}
    for seat in view["seats"].values():
        board = seat["board"]
        sources = seat["sources"]
        end = sources["end_ability"] if view["phase"] == "over" else 0
        for track, value in (
            ("homework", len(seat["spells"]) + len(seat["items"])),
            ("tiles", sum(p["tile"] is not None and p["tile"] not in corners for p in board)),
            ("links", sum(p["link_east"] + p["link_south"] for p in board)),
            ("prestige", sum(sources.values()) - sources["end_ability"] + end),
            ("shards", seat["shards"]),
            ("will", seat["will"]),
        ):
            tracks.setdefault(track, []).append(value)
    return {t: led_by_first(standing(state, values), values) for t, values in tracks.items()}


PROFILE = Profile(
    tables=(2, 3, 4),
    rules=st.fixed_dictionaries(
        {},
        optional={
            "start_will": st.integers(0, 9),
            "start_shards": st.integers(0, 9),
            "end_homework": st.integers(2, 10),
            "final_turns": st.sampled_from(["complete_round", "one_each"]),
            "tie_break": st.sampled_from(["homework", "shared"]),
        },
    ),
    among=_among,
    near_misses=_near_misses,
    setting=Setting({"end_homework": 3}, _short_term, matches=4),
    greedy=Greedy(players=4, matches=30, share=0.6),
    samples=150,
    example="aa-example-2p.jsonl",
    broken=_broken,
    standing=_standing,
    ranks_in="_start_turn",  # one event may end a cast's turn, a round, and its own turn
)
