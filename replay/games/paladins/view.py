"""What a Paladins seat knows (`view`), a state it could be in (`resample`), and the state as
plain data: for `squire replay --step` and the viewer.

What a seat cannot see, read from the digest (rules/paladins.md):

- another player's paladin from its choice until its reveal (PA-10, PA-11): it is chosen face
  down and shows at that player's take_tavern;
- every paladin deck, the seat's own included: PA-10 returns the two paladins not kept face
  down, one on top and one at the bottom. The seat knows those two of its own deck, but the
  state keeps no record of which positions it has looked at (nor of the paladins played in
  earlier rounds), so every position of every deck is unknown; but while the seat chooses its
  paladin (PA-10), the three it has drawn are in its hand: it sees those of its own deck;
- the order and contents of the decks nobody has seen into (townsfolk, outsiders, walls,
  suspicion, orders, favours, tavern: PA-42);
- the outsiders a player has attacked: PA-35 lays each face down beside the board, and a seat
  knows what lies in front of it now, not what it saw before (docs/engines.md), so they are
  backs, counted, for every seat, the attacker's own included.

Everything else lies face up: the displays, the king's and the tavern's cards, the pieces,
the walls drawn (PA-32), the converts (PA-36), the teams (PA-22). Suspicion cards stay open
too: the digest never turns one face down, and its draw resolves in the open (its tax, PA-28,
and its inquisition, PA-58), as does the discard absolve fills (PA-56). The tavern discard
holds cards every seat saw revealed (PA-39), so it stays as well."""

from __future__ import annotations

import random
from typing import Any

from replay.game import HIDDEN

from .ledger import effective
from .legal import expecting
from .scoring import result
from .state import State, clone

# The decks whose contents and order no seat sees, each with its catalogue kind.
UNSEEN = (
    ("townsfolk_deck", "townsfolk"),
    ("outsider_deck", "outsider"),
    ("wall_deck", "wall"),
    ("suspicion_deck", "suspicion"),
    ("order_deck", "order"),
    ("favour_deck", "favour"),
    ("tavern_deck", "tavern"),
)


def view(state: State, seat: int | None) -> State:
    """The state as `seat` knows it: what it cannot see (above) becomes HIDDEN, each in its
    place, so every count stays; None is the whole state."""
    seen = clone(state)
    if seat is None:
        return seen
    draw = state.config.paladin_draw
    for who, me in enumerate(seen.board):
        choosing = who == seat and state.phase == "paladins" and me.paladin is None
        shown = me.deck[:draw] if choosing else []  # PA-10: the three drawn, in its hand
        me.deck = [*shown, *[HIDDEN] * (len(me.deck) - len(shown))]
        me.attacked = [HIDDEN] * len(me.attacked)
        if who != seat and me.paladin is not None and not me.revealed:
            me.paladin = HIDDEN
    for deck, _ in UNSEEN:
        setattr(seen, deck, [HIDDEN] * len(getattr(seen, deck)))
    return seen


def resample(state: State, seat: int | None, rng: random.Random) -> State:
    """A whole state `seat` could be in: every HIDDEN place of its view dealt a card again,
    uniformly, from the catalogue's cards of that kind the seat sees nowhere. Read from the
    view alone, so a view resamples as the state it came from does."""
    drawn = view(state, seat)
    if seat is None:
        return drawn
    cat = drawn.catalogue
    board = drawn.board
    decks = {deck: getattr(drawn, deck) for deck, _ in UNSEEN}
    seen: dict[str, list[Any]] = {
        "townsfolk": [*drawn.townsfolk, *(c for me in board for c in me.team)],
        "outsider": [*drawn.outsiders, *(c for me in board for c in me.converts)],
        "wall": [c for me in board for c in me.walls],
        "suspicion": [*drawn.suspicion_discard, *(c for me in board for c in me.suspicion)],
        "order": drawn.orders,
        "favour": drawn.favours,
        "tavern": [*drawn.tavern, *drawn.tavern_discard],
    }
    for deck, kind in UNSEEN:
        places = [decks[deck]]
        if kind == "outsider":  # the attacked lie among the same unseen outsiders
            places += [me.attacked for me in board]
        _deal(places, cat.ids(kind), seen[kind], rng)
    for me in board:
        # PA-42: one copy of every paladin each; a hidden paladin is dealt with its deck
        paladin = [me.paladin] if me.paladin == HIDDEN else []
        shown = [me.paladin, *(card for card in me.deck if card != HIDDEN)]
        _deal([paladin, me.deck], cat.ids("paladin"), shown, rng)
        if paladin:
            me.paladin = paladin[0]
    return drawn


def _deal(places: list[list[Any]], cards: list[str], seen: list[Any], rng: random.Random) -> None:
    """Fill the HIDDEN slots of `places` (in place) from `cards` less those `seen`, uniformly."""
    slots = [(place, i) for place in places for i, card in enumerate(place) if card == HIDDEN]
    if not slots:
        return
    visible = set(seen)
    pool = [card for card in cards if card not in visible]
    for (place, i), card in zip(slots, rng.sample(pool, len(slots)), strict=True):
        place[i] = card


def snapshot(state: State) -> dict[str, Any]:
    """A state, or a view of one, as plain data. A seat's `paladin` is its face up paladin
    (from its reveal, PA-11); `private` is what the state holds of its paladin and deck, so in
    a seat's view what that seat cannot see is HIDDEN there. No HIDDEN card is looked up."""
    players = state.players
    outcome = result(state)
    expect = expecting(state)
    seats = {}
    for seat, (player, me) in enumerate(zip(players, state.board)):
        seats[player] = {
            "paladin": me.paladin if me.revealed else None,
            "private": {"paladin": me.paladin, "deck": list(me.deck)},
            "supply": {c: k for c, k in sorted(me.supply.items()) if k},
            "spaces": {s: list(w) for s, w in me.spaces.items() if w},
            "silver": me.silver,
            "provisions": me.provisions,
            "tracks": dict(me.tracks),
            # a paladin chosen face down adds a bonus the seat cannot know (PA-12)
            "effective": {
                t: HIDDEN if me.paladin == HIDDEN else effective(state, seat, t) for t in me.tracks
            },
            "workshops": {a: k for a, k in me.workshops.items() if k},
            "monks": me.monks,
            "outposts": me.outposts,
            "walls": list(me.walls),
            "jars": list(me.jars),
            "converts": list(me.converts),
            "attacked": list(me.attacked),
            "team": list(me.team),
            "debts": me.debts,
            "repaid": me.repaid,
            "suspicion": len(me.suspicion),
            "passed": me.passed,
            "score": outcome.scores[seat],
            "sources": outcome.sources[seat],
        }
    return {
        "round": state.round,
        "phase": state.phase,
        "start_player": players[state.start_player],
        "townsfolk": list(state.townsfolk),
        "outsiders": list(state.outsiders),
        "orders": list(state.orders),
        "favours": {
            card: [players[s] for s, _ in state.favour_workers.get(card, [])]
            for card in state.favours
        },
        "tavern": {
            card: players[state.taken[card]] if card in state.taken else None
            for card in state.tavern
        },
        "board": _board(state),
        "requirements": [
            f"faith {f} / strength {s}"
            for f, s in zip(state.config.region_faith, state.config.region_strength)
        ],
        "decks": {
            "townsfolk": len(state.townsfolk_deck),
            "outsiders": len(state.outsider_deck),
            "walls": len(state.wall_deck),
            "suspicion": len(state.suspicion_deck),
            "tavern": len(state.tavern_deck),
        },
        "seats": seats,
        "expecting": {
            "kind": expect.kind,
            **({"kinds": list(expect.kinds)} if expect.kinds else {}),  # a choice's kinds
            "players": [players[s] for s in expect.seats],
            **expect.detail,
        },
    }


def _board(state: State) -> list[dict[str, Any]]:
    """Every square of the main board (PA-30, PA-31): where, its reward, whether this table
    may use it, and what stands on it."""
    cat = state.catalogue
    out = []
    count: dict[int, int] = {}
    for sq in cat.ids("square"):
        entry = cat.entry("square", sq)
        count[entry.region] = count.get(entry.region, 0) + 1
        cell: dict[str, Any] = {
            "id": sq,
            "region": entry.region,
            "n": count[entry.region],
            "reward": entry.reward,
            "open": entry.players <= len(state.players),
        }
        if sq in state.squares:
            owner, piece = state.squares[sq]
            cell.update(player=state.players[owner], piece=piece)
        out.append(cell)
    return out


def render(snap: dict[str, Any]) -> str:
    lines = [
        f"round {snap['round']} · {snap['phase']} · start player {snap['start_player']}",
        f"townsfolk: {', '.join(c or '—' for c in snap['townsfolk'])}",
        f"outsiders: {', '.join(c or '—' for c in snap['outsiders'])}",
        (
            f"orders: {', '.join(snap['orders']) or '—'}; favours: "
            f"{', '.join(snap['favours']) or '—'}"
        ),
        "main board: "
        + (
            ", ".join(
                f"{sq['id']} {sq['player']}'s {sq['piece']}"
                for sq in snap["board"]
                if "player" in sq
            )
            or "empty"
        ),
    ]
    for player, me in snap["seats"].items():
        tracks = ", ".join(
            f"{t} {v} ({snap_eff})"
            for (t, v), snap_eff in zip(me["tracks"].items(), me["effective"].values())
        )
        lines.append(
            f"{player}: {me['score']} points; {me['silver']} silver, {me['provisions']} "
            f"provisions; {tracks}; paladin {me['paladin'] or '—'}; supply "
            f"{', '.join(f'{k} {c}' for c, k in me['supply'].items()) or '—'}; "
            f"monks {me['monks']}, outposts {me['outposts']}, walls {len(me['walls'])}, "
            f"jars {len(me['jars'])}, converts {len(me['converts'])}; team "
            f"{', '.join(me['team']) or '—'}; debts {me['debts']}; suspicion {me['suspicion']}"
            + (" · passed" if me["passed"] else "")
        )
    expect = snap["expecting"]
    if expect["kind"] != "nothing":
        lines.append(
            f"next: {expect['kind']}"
            + (f" by {', '.join(expect['players'])}" if expect["players"] else "")
        )
    return "\n".join(lines)
