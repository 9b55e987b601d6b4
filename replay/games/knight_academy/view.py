"""The whole Knight Academy state as plain data: for `squire replay --step` and the viewer."""

from __future__ import annotations

from typing import Any

from .legal import expecting
from .scoring import stack_order
from .state import State


def snapshot(state: State) -> dict[str, Any]:
    players = state.players
    length = state.config.track_length
    tracks: dict[str, list[dict[str, Any]]] = {}
    for track, row in state.progress.items():
        discs = []
        height: dict[int, int] = {}  # progress → discs already stacked there
        for seat in reversed(stack_order(state, track)):  # bottom of the last square first
            progress = row[seat]
            lap, square = divmod(progress - 1, length) if progress else (0, -1)
            discs.append(
                {
                    "player": players[seat],
                    "progress": progress,
                    "square": square + 1,
                    "lap": lap,
                    "order": height.get(progress, 0),
                }
            )
            height[progress] = height.get(progress, 0) + 1
        # From the front of the race to the back, the top of each stack first.
        tracks[track] = discs[::-1]
    # Each seat's own points (in lancelot, a colour's; its player scores both colours, KA-20).
    expect = expecting(state)
    return {
        "round": state.round,
        "phase": state.phase,
        "start_player": players[state.start_player],
        "draft_step": state.step + 1 if state.phase == "draft" else None,
        "tracks": tracks,
        "seats": {
            player: {
                "neutral": seat == state.neutral_seat,
                "hand": list(state.hands[seat]),
                "picked": list(state.picked[seat]),
                "played": state.played[seat],
                "score": sum(state.points[seat].values()),
                "sources": dict(state.points[seat]),
            }
            for seat, player in enumerate(players)
        },
        "deck": sum(state.deck.values()),
        "discard": sum(state.discard.values()),
        **_variant_boards(state),
        **_lancelot(state),
        "expecting": {
            "kind": expect.kind,
            "players": [players[seat] for seat in expect.seats],
            "decided_by": (
                "chance"
                if expect.decider is not None and expect.decider < 0
                else players[expect.decider]
                if expect.decider is not None
                else None
            ),
            **expect.detail,
        },
    }


def _lancelot(state: State) -> dict[str, Any]:
    """KA-20: which player each colour is, and each player's own hand and piles (hidden from
    the other until the piles are turned face up, which the seed does once both have split)."""
    if not state.persons:
        return {}
    return {
        "owners": {
            player: state.persons[state.owners[s]] for s, player in enumerate(state.players)
        },
        "lancelot": {
            person: {"held": list(state.held[p]), "piles": [list(x) for x in state.piles[p]]}
            for p, person in enumerate(state.persons)
        },
        "piles_open": state.phase == "choose",
    }


def _variant_boards(state: State) -> dict[str, Any]:
    """The variant boards' pieces (KA-22), only where the match turns those boards up. What a
    seat alone knows (the codex slots it looked at, the shields it holds) is under its name."""
    config = state.config
    boards = config.boards
    if not boards:
        return {}
    players = state.players
    out: dict[str, Any] = {"boards": list(boards)}
    if "knights" in boards:
        out["grail"] = {"at": state.grail, "reach": config.grail_squares}
    if "wager" in boards:
        out["wagers"] = {
            player: state.wagers[seat] if state.wagers else None
            for seat, player in enumerate(players)
        }
    if "codex" in boards:
        out["codex"] = {
            "slots": len(state.codex),
            "taken": [i for i, shield in enumerate(state.codex, 1) if shield is None],
            "shields": list(state.codex),
            "seen": {
                player: {
                    str(slot): state.codex[slot - 1]
                    for slot in state.peeked[seat]
                    if state.codex[slot - 1] is not None
                }
                for seat, player in enumerate(players)
            }
            if state.peeked
            else {},
        }
    if "scrolls" in boards:
        out["scrolls"] = list(state.scrolls)
    if state.shields:  # kept for quest's and mercy's boards
        out["shields"] = {
            player: [points for _, points in state.shields[seat]]
            for seat, player in enumerate(players)
        }
    return out


def render(view: dict[str, Any]) -> str:
    """A snapshot as text: the tracks from the front (top of each stack first), then the seats."""
    lines = [
        f"round {view['round']}, {view['phase']}"
        + (f" step {view['draft_step']}" if view["draft_step"] else "")
        + f"; start player {view['start_player']}; deck {view['deck']}, discard {view['discard']}"
    ]
    for track, discs in view["tracks"].items():
        cells = []
        for disc in discs:
            lap = f" lap {disc['lap'] + 1}" if disc["lap"] else ""
            cells.append(f"{disc['player']} {disc['progress']}{lap}")
        lines.append(f"  {track:<10} " + ", ".join(cells))
    for player, seat in view["seats"].items():
        tag = " (neutral)" if seat["neutral"] else ""
        sources = ", ".join(f"{k} {v}" for k, v in seat["sources"].items() if v)
        lines.append(
            f"  {player}{tag}: score {seat['score']}"
            + (f" ({sources})" if sources else "")
            + f"; hand [{', '.join(seat['hand'])}]; picked [{', '.join(seat['picked'])}]"
        )
    for person, own in view.get("lancelot", {}).items():
        colours = [c for c, owner in view["owners"].items() if owner == person]
        piles = " | ".join(", ".join(pile) for pile in own["piles"])
        lines.append(
            f"  {person} ({' and '.join(colours)}): holds [{', '.join(own['held'])}]"
            + (f"; piles {piles}" if piles else "")
        )
    if "boards" in view:
        lines.append("  variant boards: " + ", ".join(view["boards"]))
    if "grail" in view:
        at = view["grail"]["at"]
        side = "white" if at > 0 else "black" if at < 0 else "the middle"
        lines.append(f"  grail: {abs(at)} toward {side}" if at else "  grail: in the middle")
    if view.get("wagers"):
        lines.append("  wagers: " + ", ".join(f"{p} {t}" for p, t in view["wagers"].items() if t))
    if view.get("codex", {}).get("slots"):
        codex = view["codex"]
        cells = ["taken" if s is None else "?" for s in codex["shields"]]
        lines.append("  codex: " + ", ".join(f"{i} {c}" for i, c in enumerate(cells, 1)))
    if "scrolls" in view:
        lines.append("  scrolls on: " + (", ".join(map(str, view["scrolls"])) or "none"))
    expect = view["expecting"]
    if expect["kind"] != "nothing":
        who = ", ".join(expect["players"])
        by = expect["decided_by"]
        lines.append(
            f"  next: {expect['kind']} by {who}"
            + (f" (decided by {by})" if by and by not in expect["players"] else "")
        )
    else:
        lines.append("  the game is over")
    return "\n".join(lines)
