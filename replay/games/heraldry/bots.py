"""Policies for simulated Heraldry matches. Each chooses only among the actions the engine's
`Menu` offers: first the kind of action, then one of that kind."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Literal

from replay import game

from .checks import city_block, entry_block, on_board
from .events import Build, Event, Expedition, Move, Pass, PlaceCity, Promote, Site, Step
from .legal import Menu
from .movement import loot_due
from .state import State

Bot = game.Bot[State, Menu, Event]  # Heraldry's bots choose from a lazy menu of actions


PIECES_BUILT: tuple[Literal["village", "fortress"], ...] = ("village", "fortress")  # HE-10


class RandomBot(Bot):
    """A kind of action at random, then one action of that kind at random."""

    name = "random"

    def choose(self, state: State, seat: int, options: Menu, rng: random.Random) -> Event:
        player = state.players[seat]
        coords = state.board.coords
        kinds = options.kinds()
        if not kinds:
            return Pass(player=player)
        kind = rng.choice(kinds)
        if kind == "place_city":
            return PlaceCity(player=player, hex=coords[rng.choice(options.setup_hexes())])
        if kind == "recruit":
            return rng.choice(options.recruits())
        if kind == "move":
            first = rng.choice(options.first_steps())
            seconds = options.second_steps(first) if rng.random() < 0.5 else []
            return Move(player=player, steps=[first, rng.choice(seconds)] if seconds else [first])
        if kind == "build":
            return random_build(state, seat, options.build_sites(), rng)
        if kind == "found_city":
            return rng.choice(options.foundings())
        if kind == "expedition":
            return Expedition(player=player, hex=coords[rng.choice(options.expedition_hexes())])
        return Promote(player=player, pay=rng.choice(options.payments()))


def random_build(state: State, seat: int, sites: list[int], rng: random.Random) -> Build:
    """A random non-empty set of the sites, each a piece the reserve still holds."""
    reserve = dict(state.reserve[seat])
    chosen = [h for h in sites if rng.random() < 0.5] or [rng.choice(sites)]
    out = []
    for h in chosen:
        pieces = [p for p in PIECES_BUILT if reserve[p]]
        if not pieces:
            break
        piece = rng.choice(pieces)
        reserve[piece] -= 1
        out.append(Site(hex=state.board.coords[h], piece=piece))
    return Build(player=state.players[seat], sites=out)


class GreedyBot(Bot):
    """Plans for titles, cities and battles, in that order of urgency:
    promote as soon as the tokens allow (paying the tokens worth least at the end), found a
    city where one may stand, fight where a battle destroys something, build on every site
    (villages where a city could later stand, fortresses to hold contested ground), else walk
    knights toward good building ground, recruiting when too few are out."""

    name = "greedy"
    FEW_KNIGHTS = 3  # recruit when fewer are on the map
    CLOSER = 1.5  # a step nearer to open ground, in token values
    RAID = 3.0  # what standing beside an opponent's village is worth, in token values

    def choose(self, state: State, seat: int, options: Menu, rng: random.Random) -> Event:
        player = state.players[seat]
        coords = state.board.coords
        kinds = options.kinds()
        if not kinds:
            return Pass(player=player)
        if kinds == ["place_city"]:
            best = max(
                options.setup_hexes(), key=lambda h: (self.city_ground(state, h), rng.random())
            )
            return PlaceCity(player=player, hex=coords[best])
        if "promote" in kinds:
            end = state.config.token_end
            promo = state.config.token_promotion
            pay = min(
                options.payments(),
                key=lambda p: (sum(end[t] for t in p), sum(promo[t] for t in p), rng.random()),
            )
            return Promote(player=player, pay=pay)
        if "found_city" in kinds:
            return rng.choice(options.foundings())
        if "move" in kinds:
            fight = self.best_battle(state, seat, options.first_steps(), rng)
            if fight is not None:
                return Move(player=player, steps=[fight])
        if "build" in kinds:
            return self.build(state, seat, options.build_sites())
        knights = on_board(state, seat)["knight"]
        if "recruit" in kinds and (knights < self.FEW_KNIGHTS or "move" not in kinds):
            return max(options.recruits(), key=lambda e: (e.knights, rng.random()))
        if "move" in kinds:
            return self.walk(state, seat, options, rng)
        if "recruit" in kinds:
            return max(options.recruits(), key=lambda e: (e.knights, rng.random()))
        if "expedition" in kinds:
            best = max(
                options.expedition_hexes(),
                key=lambda h: (self.ground(state, seat, h), rng.random()),
            )
            return Expedition(player=player, hex=coords[best])
        return RandomBot().choose(state, seat, options, rng)

    def city_ground(self, state: State, h: int) -> float:
        """How good a hex is for a city: open land around it to build on, a lake to recruit 3."""
        board = state.board
        room = sum(board.terrain[n] not in ("lake",) for n in board.neighbours[h])
        return room + 2.0 * board.by_lake[h]

    def ground(self, state: State, seat: int, h: int) -> float:
        """What a knight standing on `h` could build there: the token it yields, more where a
        city could later stand; nothing where a building already is, but an opponent's village
        is worth a knight beside it: a second one brings a battle and loot (and, once the map
        is full, the only tokens left)."""
        board = state.board
        terrain = board.terrain[h]
        building = state.building[h]
        if building is not None and building[0] != seat and building[1] == "village":
            return self.RAID
        if terrain == "lake" or building is not None:
            return 0.0
        value = float(state.config.token_promotion.get(terrain, 0))
        if city_block(state, seat, h) is None:
            value += 4.0
        return value

    def best_battle(
        self, state: State, seat: int, steps: list[Step], rng: random.Random
    ) -> Step | None:
        best: tuple[float, float, Step] | None = None
        for step in steps:
            b = state.board.index[step.to]
            battle, village = loot_due(state, seat, b)
            if not battle:
                continue
            worth = (
                sum(c for o, c in enumerate(state.knights[b]) if o != seat)
                + 3.0 * (village is not None)
                + 2.0 * bool(step.loot)
            )
            if step.loot:
                worth += state.config.token_promotion[step.loot[0]] / 3
            if best is None or (worth, rng.random()) > best[:2]:
                best = (worth, rng.random(), step)
        return best[2] if best else None

    def build(self, state: State, seat: int, sites: list[int]) -> Build:
        reserve = dict(state.reserve[seat])
        out = []
        for h in sorted(sites, key=lambda h: -self.ground(state, seat, h)):
            contested = any(
                any(c for o, c in enumerate(state.knights[n]) if o != seat)
                for n in state.board.neighbours[h]
            )
            order: tuple[Literal["village", "fortress"], ...] = (
                ("fortress", "village")
                if contested and city_block(state, seat, h)
                else ("village", "fortress")
            )
            piece = next((p for p in order if reserve[p]), None)
            if piece is None:
                break
            reserve[piece] -= 1
            out.append(Site(hex=state.board.coords[h], piece=piece))
        return Build(player=state.players[seat], sites=out)

    def walk(self, state: State, seat: int, options: Menu, rng: random.Random) -> Move:
        """The step (then a second) onto the best open ground, or nearer to it, away from
        where the knight is already useful (a hex it could build on itself)."""
        index = state.board.index
        far = self.distances(state, seat)

        def gain(step: Step) -> tuple[float, float]:
            a, b = index[step.from_], index[step.to]
            here = self.ground(state, seat, a) if state.knights[a][seat] == 1 else 0.0
            closer = self.CLOSER * (far[a] - far[b])
            return self.ground(state, seat, b) - here + closer, rng.random()

        first = max(options.first_steps(), key=gain)
        seconds = [s for s in options.second_steps(first) if gain(s)[0] > 0]
        steps = [first, max(seconds, key=gain)] if seconds else [first]
        return Move(player=state.players[seat], steps=steps)

    def distances(self, state: State, seat: int) -> list[int]:
        """Steps from each hex to the nearest hex worth standing on, through hexes a knight of
        `seat` may enter (HE-8); far away where none can be reached."""
        board = state.board
        size = len(board)
        far = [size] * size
        todo = [
            h
            for h in range(size)
            if self.ground(state, seat, h) > 0 and entry_block(state, seat, h) is None
        ]
        for h in todo:
            far[h] = 0
        for h in todo:  # breadth first: the list grows while it is walked
            for n in board.neighbours[h]:
                if far[n] == size and entry_block(state, seat, n) is None:
                    far[n] = far[h] + 1
                    todo.append(n)
        return far


BOTS: dict[str, Callable[[], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def table(players: int, config: Any, rng: random.Random, catalogue: None = None) -> dict[str, Any]:
    """Header fields of a simulated table: the players and a fresh random map (HE-3)."""
    from .mapgen import random_map

    names = ["Ann", "Bob", "Cid", "Dee"]
    if not config.min_players <= players <= min(config.max_players, len(names)):
        raise ValueError(
            f"Heraldry seats {config.min_players} to {config.max_players} players, not {players}"
        )
    return {"players": names[:players], "map": random_map(players, config, rng)}


__all__ = ["BOTS", "GreedyBot", "RandomBot", "table"]
