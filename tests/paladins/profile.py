"""What the conformance suite (tests/conformance/) needs to know of Paladins."""

from __future__ import annotations

import json
import random
from typing import Any

import msgspec
from hypothesis import strategies as st

from replay.games import paladins as pa
from replay.games.paladins.legal import canonical
from replay.games.paladins.scoring import standing
from tests.support import Greedy, Profile, Setting, led_by_first


def _near_misses(state: pa.State, rng: random.Random, offered: list[Any]) -> list[pa.Event]:
    """Offered events with one field changed: another card, square, spot, worker or space."""
    cat = state.catalogue
    pools = {
        "card": [
            *cat.ids("townsfolk"),
            *cat.ids("outsider"),
            *cat.ids("favour"),
            *cat.ids("tavern"),
        ],
        "square": cat.ids("square"),
        "spot": list(range(9)),
        "space": [*state.config.space_slots, *state.config.main_slots],
        "action": list(state.config.main_slots),
        "pay": ["silver", "debt"],
    }
    out: list[pa.Event] = []
    for event in rng.sample(offered, min(4, len(offered))):
        fields = msgspec.structs.asdict(event)
        for name in [f for f in fields if f in pools]:
            out.append(msgspec.structs.replace(event, **{name: rng.choice(pools[name])}))
        if "workers" in fields:
            workers = list(fields["workers"])
            if workers:
                workers[rng.randrange(len(workers))] = rng.choice(
                    ["white", "green", "blue", "red", "black", "purple"]
                )
                out.append(msgspec.structs.replace(event, workers=workers))
                out.append(msgspec.structs.replace(event, workers=workers[:-1]))
        if "keep" in fields:
            out.append(msgspec.structs.replace(event, keep=[*fields["keep"], "white"]))
    return out


def _rich_start(outcomes: list[Any]) -> bool:
    return all(o.match.config.start_silver == 20 for o in outcomes)


def _broken(lines: list[str]) -> dict[str, tuple[int, str, str]]:
    header = json.loads(lines[0])
    header["catalogue"] = {"name": "squire-sample", "version": "1", "sha256": "0" * 64}
    short = '{"kind": "develop", "player": "Ann", "workers": ["green"], "action": "convert"}'
    return {
        "sha.jsonl": (1, json.dumps(header), "PA-42"),
        "seen.jsonl": (
            5,
            '{"kind": "reveal_tavern", "cards": ["tav-07", "tav-03", "tf-01"]}',
            "PA-9",
        ),
        "early.jsonl": (10, lines[9].replace('"Bob"', '"Ann"'), "PA-15"),
        "short.jsonl": (14, short, "PA-16"),
    }


def _standing(state: pa.State) -> dict[str, tuple[list[tuple[int, int]], int | None]]:
    """The tracks as the snapshot shows them: the attributes, the effective ones (PA-44) and
    the VP banked; each in the order PA-62 gives scores."""
    tracks: dict[str, list[int]] = {}
    for seat in pa.snapshot(state)["seats"].values():
        for track, value in seat["tracks"].items():
            tracks.setdefault(track, []).append(value)
        for track, value in seat["effective"].items():
            tracks.setdefault(f"effective_{track}", []).append(value)
        tracks.setdefault("vp", []).append(seat["sources"]["vp"])
    return {t: led_by_first(standing(state, values), values) for t, values in tracks.items()}


PROFILE = Profile(
    tables=(1, 2, 3, 4),
    rules=st.fixed_dictionaries(
        {},
        optional={
            "start_silver": st.integers(0, 12),
            "keep_workers": st.integers(0, 5),
            "develop_silver": st.integers(0, 8),
            "favour_per_player": st.booleans(),
            "attack_strength_per_silver": st.integers(1, 4),
        },
    ),
    among=lambda state, event, offered: canonical(event) in offered,
    near_misses=_near_misses,
    setting=Setting({"start_silver": 20}, _rich_start, matches=3),
    greedy=Greedy(players=2, matches=10, share=0.8, seed=5),
    samples=100,
    example="pa-example-2p.jsonl",
    broken=_broken,
    standing=_standing,
)
