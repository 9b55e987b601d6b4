"""The whole Paladins state as plain data: for `squire replay --step` and the viewer.

Hidden information is marked, not removed: `private` fields of a seat (its paladin deck, and
its chosen paladin until its take_tavern) are for that player's eyes (the viewer hides them
from the others)."""

from __future__ import annotations

from typing import Any

from .ledger import effective
from .legal import expecting
from .scoring import result
from .state import State


def snapshot(state: State) -> dict[str, Any]:
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
            "effective": {t: effective(state, seat, t) for t in me.tracks},
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
