"""`squire rescore`: the stored matches of a game replayed again under changed rules, and what
changed: winners, ranks, the points each source gives (replay.rescore does each match)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ingest.files.catalogues import Library
from ingest.files.read import rebuilt
from ingest.warehouse.location import Place
from ingest.warehouse.selection import Selection
from ingest.warehouse.warehouse import open_reader
from replay.errors import ReplayError, one_line
from replay.registry import GAMES
from replay.rescore import Rescored, rescore


def stored_logs(db: Place, selection: Selection) -> Iterator[tuple[str, bytes]]:
    """Each selected match's log, rebuilt from the warehouse's header and event lines."""
    where, params = selection.where()
    con = open_reader(db, selection.as_of)
    rows = con.execute(
        f"""SELECT g.game_id, any_value(g.header), list(e.payload ORDER BY e.event_index)
        FROM games g JOIN events e USING (game_id) WHERE {where}
        GROUP BY g.game_id ORDER BY any_value(g.played_at), g.game_id""",
        params,
    ).fetchall()
    for game_id, header, payloads in rows:
        yield game_id, rebuilt(header, payloads)


@dataclass
class Report:
    """What re-scoring a selection found, match by match and in sum."""

    game: str
    changes: Mapping[str, Any]
    matches: list[Rescored] = field(default_factory=list)

    @property
    def exact(self) -> list[Rescored]:
        return [m for m in self.matches if m.exact]

    @property
    def estimated(self) -> list[Rescored]:
        return [m for m in self.matches if not m.exact and m.after is not None]

    @property
    def unfinished(self) -> list[Rescored]:
        """Matches the changed rules refuse during play, that no bot was asked to finish."""
        return [m for m in self.matches if m.after is None and m.differs_at != 0]

    @property
    def unplayable(self) -> list[Rescored]:
        """Matches the changed rules refuse at their header: their table cannot be set up
        (a deck too small for the hands asked, a map too large for its tiles)."""
        return [m for m in self.matches if m.differs_at == 0]

    def refusal(self) -> str | None:
        """When no selected match can be played under the changes at all: why, with the rule
        (`KA-4: a deck of 52 cannot deal 4 hands`); else None."""
        if not self.matches or len(self.unplayable) < len(self.matches):
            return None
        first = self.unplayable[0]
        changes = ", ".join(f"{k}={json.dumps(v)}" for k, v in self.changes.items())
        return (
            f"{first.rule}: {first.message} (under {changes}, none of the "
            f"{len(self.matches)} selected matches can be set up)"
        )

    def summary(self) -> dict[str, Any]:
        return {
            "summary": True,
            "game": self.game,
            "changes": dict(self.changes),
            "scoring_only": sorted(set(self.changes) & GAMES[self.game].scoring_only)
            == sorted(self.changes),
            "matches": len(self.matches),
            "exact": len(self.exact),
            "changed_winner": sum(m.changed_winner for m in self.exact),
            "estimated": len(self.estimated),
            "estimated_changed_winner": sum(m.changed_winner for m in self.estimated),
            "differ_unfinished": len(self.unfinished),
            "cannot_play": len(self.unplayable),
        }

    def sources(self, kind: str = "exact") -> list[dict[str, Any]]:
        """Mean points a seat gets from each source, before and after, by player count."""
        group = self.exact if kind == "exact" else self.estimated
        sums: dict[tuple[int, str], list[float]] = {}
        for m in group:
            assert m.after is not None
            count = len(m.before.sources)  # the players who can win
            for player, points in m.before.sources.items():
                after = m.after.sources[player]
                for source in dict.fromkeys([*points, *after]):
                    row = sums.setdefault((count, source), [0.0, 0.0, 0.0])
                    row[0] += points.get(source, 0)
                    row[1] += after.get(source, 0)
                    row[2] += 1
        return [
            {
                "players": count,
                "source": source,
                "before": round(before / n, 2),
                "after": round(after / n, 2),
            }
            for (count, source), (before, after, n) in sums.items()
        ]

    def rank_moves(self) -> dict[int, int]:
        """How many seats moved by how many places (after − before; negative is up)."""
        moves: dict[int, int] = {}
        for m in self.exact:
            assert m.after is not None
            for player, rank in m.before.ranks.items():
                delta = m.after.ranks[player] - rank
                moves[delta] = moves.get(delta, 0) + 1
        return dict(sorted(moves.items()))


def rescore_stored(
    db: Place,
    selection: Selection,
    changes: Mapping[str, Any],
    finish_with: str | None = None,
    seed: int = 0,
) -> Report:
    """Re-score every selected match. One whose header the changes do not fit (its own
    ruleset refuses them, LOG-3, or its table cannot be set up under them, a game's rule)
    differs at its header (`differs_at` 0) and cannot be finished."""
    report = Report(selection.game, changes)
    books = Library(db)
    for game_id, data in stored_logs(db, selection):
        try:
            report.matches.append(rescore(data, changes, game_id, books, finish_with, seed))
        except ReplayError as err:  # the changes do not fit this match's header
            if err.line != 1:
                raise
            before = rescore(data, {}, game_id, books).before
            report.matches.append(Rescored(game_id, before, None, False, 0, err.rule, err.message))
    return report


def match_json(m: Rescored) -> dict[str, Any]:
    """One match as the command's contract prints it."""
    row: dict[str, Any] = {
        "game_id": m.game_id,
        "exact": m.exact,
        "winners_before": m.before.winners,
        "winners_after": m.after.winners if m.after else None,
        "scores_before": m.before.scores,
        "scores_after": m.after.scores if m.after else None,
    }
    if not m.exact:
        row.update(differs_at=m.differs_at, rule=m.rule, message=m.message)
    return row


def report_text(report: Report) -> str:
    summary = report.summary()
    changes = ", ".join(f"{k}={v}" for k, v in report.changes.items()) or "no change"
    kind = "scoring only" if summary["scoring_only"] else "play"
    lines = [
        f"rescore {report.game}: {summary['matches']} stored matches under {changes}"
        + (f" ({kind})" if report.changes else ""),
        f"  exact: {summary['exact']}, of which {summary['changed_winner']} change winner",
    ]
    changed = [one_line(m.game_id) for m in report.exact if m.changed_winner]
    if changed:
        shown = ", ".join(changed[:10]) + (
            f", … ({len(changed) - 10} more)" if changed[10:] else ""
        )
        lines.append(f"    {shown}")
    if report.estimated:
        lines.append(
            f"  estimated (bots finished them from where they first differ): "
            f"{summary['estimated']}, of which {summary['estimated_changed_winner']} change winner"
        )
    if report.unplayable:
        first = report.unplayable[0]
        lines.append(
            f"  cannot be set up under these rules: {summary['cannot_play']} (first: "
            f"{one_line(first.game_id)}, {first.rule}: {first.message})"
        )
    if report.unfinished:
        first = report.unfinished[0]
        lines.append(
            f"  differ and not finished: {summary['differ_unfinished']} (first: "
            f"{one_line(first.game_id)} "
            f"at event {first.differs_at}, {first.rule}: {first.message}; --finish-with BOT "
            f"lets bots finish them)"
        )
    moves = report.rank_moves()
    if moves:
        lines.append(
            "  ranks (exact): "
            + ", ".join(
                f"{'±' if d == 0 else '+' if d > 0 else '−'}{abs(d)}: {n}" for d, n in moves.items()
            )
        )
    rows = [r for r in report.sources() if r["before"] != r["after"]]
    if rows:
        lines.append(
            "  mean points a player by source (exact), before → after (the rest unchanged):"
        )
        for row in sorted(rows, key=lambda r: (r["players"], r["source"])):
            lines.append(
                f"    {row['players']} players  {row['source']:<14} "
                f"{row['before']:>7} → {row['after']}"
            )
    elif report.exact:
        lines.append("  every source gives the same points as before")
    return "\n".join(lines)
