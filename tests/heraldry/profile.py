"""What the conformance suite (tests/conformance/) needs to know of Heraldry."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import strategies as st

from replay.games import heraldry as he
from replay.games.heraldry.legal import canonical
from replay.games.heraldry.scoring import standing
from tests.support import Greedy, Profile, Setting, led_by_first


def _among(state: he.State, event: he.Event, offered: list[Any]) -> bool:
    """One of the offered events, or (HE-18) a promotion paying an offered payment and more."""
    if canonical(state, event) in offered:
        return True
    if not isinstance(event, he.Promote):
        return False
    paid = Counter(event.pay)
    return any(isinstance(o, he.Promote) and not Counter(o.pay) - paid for o in offered)


def _near_misses(state: he.State, rng: random.Random, offered: list[Any]) -> list[he.Event]:
    """Events of the right shape, mostly about the acting seat's own pieces and tokens."""
    board = state.board
    coords = board.coords
    player = state.players[state.turn] if rng.random() < 0.8 else rng.choice(state.players)
    seat = state.seats[player]
    mine = list(state.posts[seat]) or [rng.randrange(len(board))]

    def anywhere() -> int:
        return rng.randrange(len(board))

    def near(h: int) -> int:
        return rng.choice(board.neighbours[h]) if board.neighbours[h] else h

    held = [t for t, c in state.tokens[seat].items() for _ in range(c)]
    out: list[he.Event] = []
    for _ in range(3):
        a = rng.choice(mine)
        b = near(a)
        loot = [rng.choice(he.TERRAINS[:4])] if rng.random() < 0.3 else []
        first = he.Step(from_=coords[a], to=coords[b], loot=loot)
        c = rng.choice([b, *mine])
        second = he.Step(from_=coords[c], to=coords[near(c)])
        out.append(he.Move(player=player, steps=[first, second][: rng.choice((1, 2, 2))]))
        sites = rng.sample(mine, rng.randint(1, len(mine)))
        pieces = ("village", "fortress")
        out.append(
            he.Build(
                player=player,
                sites=[he.Site(hex=coords[h], piece=rng.choice(pieces)) for h in sites],
            )
        )
        out.append(
            he.Recruit(
                player=player,
                city=coords[rng.choice([*state.built[seat], a])],
                knights=rng.randint(0, 4),
            )
        )
        out.append(he.FoundCity(player=player, hex=coords[rng.choice([*state.built[seat], a])]))
        out.append(he.Expedition(player=player, hex=coords[anywhere()]))
        out.append(he.Promote(player=player, pay=rng.sample(held, rng.randint(0, len(held)))))
        out.append(he.PlaceCity(player=player, hex=coords[anywhere()]))
    out.append(he.Pass(player=player))
    return out


def _pieces_conserved(state: he.State) -> None:
    """HE-1: every piece is in its owner's reserve, on the map, or (knights) gone for good."""
    for seat in range(len(state.players)):
        on_map = Counter(piece for piece in state.built[seat].values())
        on_map["knight"] = sum(state.posts[seat].values())
        for piece, count in state.config.reserve.items():
            gone = state.lost[seat] if piece == "knight" else 0
            assert state.reserve[seat][piece] + on_map[piece] + gone == count, (seat, piece)
        assert all(state.knights[h][seat] == n for h, n in state.posts[seat].items())
        assert all(state.building[h] == (seat, p) for h, p in state.built[seat].items())


def _cities_score_seven(outcomes: list[Any]) -> bool:
    cities = {sources["city"] for o in outcomes for sources in o.result.sources}
    promoted = all(o.match.config.promotion_cost == 10 for o in outcomes)
    return promoted and max(cities) > 0 and all(points % 7 == 0 for points in cities)


def _broken(lines: list[str]) -> dict[str, tuple[int, str, str]]:
    header = json.loads(lines[0])
    header["map"] = header["map"][:-1]
    lake = '{"kind": "move", "player": "Ann", "steps": [{"from": [5, -4], "to": [5, -5]}]}'
    return {
        "lake.jsonl": (8, lake, "HE-8"),  # [5, -5] is a lake
        "early-pass.jsonl": (8, '{"kind": "pass", "player": "Ann"}', "HE-14"),
        "loot.jsonl": (23, lines[22].replace(', "loot": ["field"]', ""), "HE-19"),
        "small-map.jsonl": (1, json.dumps(header), "HE-22"),
    }


def _standing(state: he.State) -> dict[str, tuple[list[tuple[int, int]], int | None]]:
    """The tracks as the snapshot shows them: the pieces on the map, the points banked (the
    tokens' only at the end, HE-16), the title; each in the result's order (HE-21)."""
    view = he.snapshot(state)
    tracks: dict[str, list[int]] = {"knights": [], "buildings": [], "score": [], "title": []}
    for seat in view["seats"].values():
        pieces, sources = seat["on_board"], seat["sources"]
        tracks["knights"].append(pieces["knight"])
        tracks["buildings"].append(pieces["village"] + pieces["fortress"] + pieces["city"])
        tokens = sources["tokens"] if view["phase"] == "over" else 0
        tracks["score"].append(sources["city"] + sources["title"] + tokens)
        tracks["title"].append(he.TITLES.index(seat["title"]))
    return {t: led_by_first(standing(state, values), values) for t, values in tracks.items()}


PROFILE = Profile(
    tables=(2, 3, 4),
    rules=st.fixed_dictionaries(
        {},
        optional={
            "promotion_cost": st.integers(8, 25),
            "recruit_max": st.integers(1, 3),
            "city_points": st.integers(0, 20),
            "block_pieces": st.integers(1, 3),
            "reserve": st.fixed_dictionaries(
                {
                    "city": st.integers(3, 6),
                    "fortress": st.integers(0, 3),
                    "knight": st.integers(4, 9),
                    "village": st.integers(6, 15),
                }
            ),
        },
    ),
    among=_among,
    near_misses=_near_misses,
    invariant=_pieces_conserved,
    setting=Setting({"promotion_cost": 10, "city_points": 7}, _cities_score_seven),
    greedy=Greedy(players=4, matches=40, share=0.5),
    samples=200,
    example="he-example-2p.jsonl",
    broken=_broken,
    standing=_standing,
)
