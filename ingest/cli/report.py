"""Turning replay outcomes into what `squire replay` prints: text tables and JSON objects."""

from __future__ import annotations

import json
import re
from typing import Any

from replay.errors import one_line
from replay.replayer import Outcome


def escaped(value: Any) -> Any:
    """A snapshot with every string in it on one line (names come from the log), for text."""
    if isinstance(value, str):
        return one_line(value)
    if isinstance(value, dict):
        return {escaped(k): escaped(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [escaped(v) for v in value]
    return value


# Kept as they are by JSON, but taken for line breaks by readers that split lines the way
# Unicode does (Python's str.splitlines, JavaScript before ES2019): C1 controls and the line
# and paragraph separators. Within a JSON string they may be written as \uXXXX; outside one
# they cannot occur, so escaping them in the text is exact.
_BREAKS = re.compile("[\x80-\x9f\u2028\u2029]")


def json_line(value: Any) -> str:
    """`value` as one line of JSON, readable text kept as it is (names in any script), and
    nothing in it that any reader could take for the end of the line."""
    return _BREAKS.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False))


def outcome_json(outcome: Outcome) -> dict[str, Any]:
    """The `squire replay --json` object: one per log."""
    match = outcome.match
    players = match.header.players
    result = outcome.result
    return {
        "path": match.path,
        "game": match.game.name,
        "game_id": match.header.game_id,
        "variant": match.header.variant,
        "ruleset": match.header.ruleset or match.game.standard_ruleset,
        "events": len(match.lines),
        "complete": result.complete,
        "scores": {player: result.scores[seat] for seat, player in enumerate(players)},
        "sources": {
            player: {source: result.sources[seat].get(source, 0) for source in _scored(outcome)}
            for seat, player in enumerate(players)
        },
        "winners": sorted(players[seat] for seat in result.winners),
    }


def _scored(outcome: Outcome) -> list[str]:
    """The sources this match's rules score from (a variant board has its own: KA-22)."""
    return list(outcome.match.game.scored_sources(outcome.match.config))


def outcome_text(outcome: Outcome) -> str:
    match = outcome.match
    header = match.header
    result = outcome.result
    sources = _scored(outcome)
    status = "complete" if result.complete else "incomplete"
    players = [one_line(player) for player in header.players]  # names from the log
    lines = [
        one_line(
            f"{match.path}: {match.game.name} {header.game_id} ({header.variant}, "
            f"{len(players)} seats) — {status} after {len(match.lines)} events"
        )
    ]
    names = ["player", *sources, "total"]
    rows = [
        [player, *(str(result.sources[seat].get(s, 0)) for s in sources), str(result.scores[seat])]
        for seat, player in enumerate(players)
    ]
    widths = [max(len(row[i]) for row in [names, *rows]) for i in range(len(names))]
    for row in [names, *rows]:
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  " + "  ".join(cells))
    if result.complete:
        winners = sorted(players[seat] for seat in result.winners)
        lines.append(f"  {'winner' if len(winners) == 1 else 'winners'}: {', '.join(winners)}")
    return "\n".join(lines)
