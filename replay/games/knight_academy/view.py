"""What a Knight Academy seat knows, what could be, and the state as plain data: for `squire
replay --step` and the viewer."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from replay.game import HIDDEN

from .boards import codex_set
from .legal import expecting
from .scoring import POSITIVE_SOURCES, stack_order
from .state import State, clone

# KA-22c, KA-22f: the sources whose points another seat's view hides while the codex is in
# play: its codex shields, and mercy's swaps, whose points tell the codex shield given.
SECRET_SOURCES = ("codex", "mercy")


def _mine(state: State, seat: int) -> set[int]:
    """The seats a header player plays: itself, or its two colours in lancelot (KA-20)."""
    return {s for s, owner in enumerate(state.owners) if owner == seat}


def _looked(state: State, mine: set[int]) -> set[int]:
    """KA-22c: the codex slots `mine` have looked at this round (none before it is laid)."""
    return {slot for s in mine if s < len(state.peeked) for slot in state.peeked[s]}


def _passed_to(state: State, mine: set[int]) -> set[int]:
    """KA-5: the seats holding a hand one of `mine` has just passed, not yet picked from."""
    if state.phase != "draft" or state.step == 0:
        return set()
    n = len(state.players)
    direction = state.config.pass_directions[state.round - 1]
    return {(s + direction) % n for s in mine} - {o for o in range(n) if state.has_picked[o]}


def view(state: State, seat: int | None) -> State:
    """The state as the header's player `seat` knows it. Hidden: the deck (its size stays),
    the other seats' hands (but the hand it has just passed, KA-5) and picks, the other
    lancelot player's hand and its piles until they lie open to be chosen from (KA-20), the
    codex slots it has not looked at, the codex shields others keep (KA-22c) and others'
    points from mercy's swaps, which a codex shield given changes face down (KA-22f). The
    discard pile is open: squire reads KA-6's "discarded with the played ones" as face up."""
    seen = clone(state)
    if seat is None:
        return seen
    seen.seen_by = seat
    mine = _mine(state, seat)
    shown = mine | _passed_to(state, mine)
    for other in range(len(state.players)):
        if other not in shown:
            seen.hands[other] = [HIDDEN] * len(state.hands[other])
        if other not in mine:
            seen.picked[other] = [HIDDEN] * len(state.picked[other])
    total = sum(state.deck.values())
    seen.deck = {HIDDEN: total} if total else {}
    for person in range(len(state.persons)):
        if person != seat and state.phase != "choose":  # chosen from, the piles lie open
            seen.held[person] = [HIDDEN] * len(state.held[person])
            seen.piles[person] = [[HIDDEN] * len(pile) for pile in state.piles[person]]
    if "codex" in state.config.boards:
        looked = _looked(state, mine)
        seen.codex = [
            None if shield is None else shield if i in looked else 0
            for i, shield in enumerate(state.codex, 1)
        ]
        for other in range(len(state.players)):
            if other not in mine:
                if state.shields:
                    seen.shields[other] = [
                        (source, 0 if source == "codex" else points)
                        for source, points in state.shields[other]
                    ]
                for source in SECRET_SOURCES:
                    if source in seen.points[other]:
                        seen.points[other][source] = 0
    return seen


def unseen(seen: State) -> Counter[str]:
    """KA-2: the deck's cards less every card a view shows (hands, picks, held cards, the
    discard pile): those that may lie anywhere it does not see, the deck among them."""
    left = Counter(seen.config.deck)
    left -= Counter(
        card
        for group in (seen.hands, seen.picked, seen.held)
        for cards in group
        for card in cards
        if card != HIDDEN
    )
    left -= Counter(seen.discard)
    return left


def resample(state: State, seat: int | None, rng: random.Random) -> State:
    """A whole state `seat` could be in: every card it cannot see dealt again, uniformly, from
    the deck's cards less those it sees (KA-2); every codex shield it cannot see drawn from
    the codex's set (KA-22c). Read from the view alone, so a view gives the same."""
    drawn = view(state, seat)
    if seat is None:
        return drawn
    drawn.seen_by = None
    pool = list(unseen(drawn).elements())
    rng.shuffle(pool)

    def deal(count: int) -> list[str]:
        dealt = pool[len(pool) - count :] if count else []
        del pool[len(pool) - count :]
        return dealt

    for group in (drawn.hands, drawn.picked, drawn.held):
        for i, cards in enumerate(group):
            if HIDDEN in cards:
                group[i] = [c for c in cards if c != HIDDEN] + deal(cards.count(HIDDEN))
    for person, piles in enumerate(drawn.piles):
        if any(HIDDEN in pile for pile in piles):  # KA-20: the piles split the hand dealt
            held = list(drawn.held[person])
            rng.shuffle(held)
            size = len(piles[0])
            drawn.piles[person] = [sorted(held[:size]), sorted(held[size:])]
    deck: dict[str, int] = {}
    for card in deal(drawn.deck.pop(HIDDEN, 0)):
        deck[card] = deck.get(card, 0) + 1
    drawn.deck = {card: deck[card] for card in state.config.deck if card in deck}
    if "codex" in state.config.boards:
        _resample_codex(drawn, seat, rng)
    return drawn


def _resample_codex(drawn: State, seat: int, rng: random.Random) -> None:
    """KA-22c: the slots `seat` has not looked at take the round's shields it has not seen
    there; a shield another seat keeps, a shield of the codex's set."""
    mine = _mine(drawn, seat)
    looked = _looked(drawn, mine)
    laid = Counter(codex_set(drawn))
    laid -= Counter(v for i, v in enumerate(drawn.codex, 1) if v is not None and i in looked)
    left = list(laid.elements())
    rng.shuffle(left)
    for i, shield in enumerate(drawn.codex, 1):
        if shield is not None and i not in looked:
            drawn.codex[i - 1] = left.pop() if left else 0
    kept = [v for v in codex_set(drawn) if v]  # a 0 is never kept (scoring.award)
    for other in range(len(drawn.players)):
        if other in mine or not drawn.shields:
            continue
        row = drawn.shields[other]
        for k, (source, _) in enumerate(row):
            if source == "codex" and kept:
                row[k] = (source, rng.choice(kept))
        points = drawn.points[other]
        if "codex" in points:
            points["codex"] = sum(p for src, p in row if src == "codex")
        if "mercy" in points:
            # KA-22f: mercy's points are the shields it moved; the codex shields it moved are
            # counted among the codex's above, so what is left is the open shields' net (each
            # positive shield scored its source's points where it was won).
            points["mercy"] = sum(p for src, p in row if src in POSITIVE_SOURCES) - sum(
                got for src, got in points.items() if src in POSITIVE_SOURCES
            )


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
    # In a view, another seat's codex and mercy points are hidden (KA-22c, KA-22f), and with
    # them its score.
    secret = set()
    if state.seen_by is not None and "codex" in state.config.boards:
        secret = set(range(len(players))) - _mine(state, state.seen_by)
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
                "score": None if seat in secret else sum(state.points[seat].values()),
                "sources": {
                    source: None if seat in secret and source in SECRET_SOURCES else points
                    for source, points in state.points[seat].items()
                },
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
        # In a view, the slots its player has not looked at read HIDDEN, and so does what
        # the others saw there.
        mine = None if state.seen_by is None else _mine(state, state.seen_by)
        looked = _looked(state, mine or set())
        out["codex"] = {
            "slots": len(state.codex),
            "taken": [i for i, shield in enumerate(state.codex, 1) if shield is None],
            "shields": [
                shield if mine is None or shield is None or i in looked else HIDDEN
                for i, shield in enumerate(state.codex, 1)
            ],
            "seen": {
                player: {
                    str(slot): state.codex[slot - 1]
                    for slot in state.peeked[seat]
                    if state.codex[slot - 1] is not None
                }
                for seat, player in enumerate(players)
                if mine is None or seat in mine
            }
            if state.peeked
            else {},
        }
    if "scrolls" in boards:
        out["scrolls"] = list(state.scrolls)
    if state.shields:  # kept for quest's and mercy's boards
        mine = None if state.seen_by is None else _mine(state, state.seen_by)
        out["shields"] = {
            player: [
                HIDDEN if mine is not None and seat not in mine and source == "codex" else points
                for source, points in state.shields[seat]
            ]
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
