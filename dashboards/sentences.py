"""A match told in sentences: one per event, in either language, written from what the engine
established (the decoded event, its facts, the catalogue the match was played with), never
from the log's JSON.

Each game's package beside its board (`dashboards.boards.<package>.sentences`) gives
`sentences(match, steps, lang, seat)`: one sentence per step, the action in the game's own words
followed by what it brought about. The shared part here phrases the facts every game
establishes (points, tracks, resources, pieces removed, a round's leaders) and joins them,
so that the four games read alike; a game phrases its own facts where the shared words
would say less than the table says (a Paladins worker is a colour, not a resource).

A sentence told to a seat says no more than that seat saw: a card kept face down is "a
card" until it is shown, as the engine's `view` of that seat hides it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from dashboards.i18n import t
from dashboards.spacing import written
from replay.facts import Fact, PiecesRemoved, ResourceChanged, ScoreChanged, TrackMoved, TrackRanked
from replay.log import Final
from replay.replayer import Match, Step


def told(match: Match, steps: Sequence[Step], lang: str, seat: int | None = None) -> list[str]:
    """One sentence per step of the match, in `lang`, as the player in `seat` could tell it
    (None: everything, as the log holds it)."""
    from dashboards.boards import board  # the boards import the shared helpers below

    return [written(s, lang) for s in board(match.game.name).sentences(match, steps, lang, seat)]


def listed(items: Iterable[str], lang: str) -> str:
    """ "A, B and C" / "A、B 和 C"."""
    words = [w for w in items if w]
    if len(words) < 2:
        return "".join(words)
    if lang == "zh":
        return "、".join(words[:-1]) + "和" + words[-1]
    return ", ".join(words[:-1]) + " " + t("and", lang) + " " + words[-1]


def joined(action: str, clauses: Iterable[str], lang: str) -> str:
    """The action, then what it brought about: "Ann plays Sword 4: Tournament 4 → 7, +3"."""
    said = [c for c in clauses if c]
    if not said:
        return action
    if lang == "zh":
        return f"{action}：{'，'.join(said)}"
    return f"{action}: {', '.join(said)}"


def said(key: str, lang: str, **fields: object) -> str:
    """The label `key` in `lang` with its fields filled in (in Chinese, spaced where a name or
    a number meets a Han character)."""
    return written(t(key, lang).format(**fields), lang)


def points(n: int, lang: str) -> str:
    """ "+3 points" / "+3 分"."""
    if lang == "zh":
        return f"{n:+d} 分"
    return f"{n:+d} {'point' if abs(n) == 1 else 'points'}"


def clause(fact: Fact, players: Sequence[str], actor: str | None, lang: str) -> str:
    """One fact in words; the seat named only where it is not the actor's. A round's ranking
    is said only of its leaders (the rest is on the board)."""
    who = players[fact.seat] if hasattr(fact, "seat") else ""  # every fact but none has a seat
    whose = "" if who == actor else f"{who} "
    if isinstance(fact, ScoreChanged):
        return f"{whose}{points(fact.points, lang)} ({t(fact.source, lang)})"
    if isinstance(fact, TrackMoved):
        cause = "" if fact.cause in ("card", "move") else f" ({t(fact.cause, lang)})"
        return f"{whose}{t(fact.track, lang)} {fact.before} → {fact.after}{cause}"
    if isinstance(fact, ResourceChanged):
        return f"{whose}{t(fact.resource, lang)} {fact.delta:+d}"
    if isinstance(fact, PiecesRemoved):
        return said(
            "said_removed",
            lang,
            who=who,
            count=fact.count,
            piece=t(fact.piece, lang),
            victim=players[fact.victim],
            place=fact.place,
        )
    if isinstance(fact, TrackRanked):
        if not fact.leads:
            return ""
        return said("said_leads", lang, who=who, track=t(fact.track, lang), at=fact.progress)
    return ""


def clauses(
    facts: Iterable[Fact], players: Sequence[str], actor: str | None, lang: str
) -> list[str]:
    return [c for c in (clause(f, players, actor, lang) for f in facts) if c]


def by_default(match: Match, step: Step, lang: str) -> str:
    """A sentence for an event a game has no words of its own for: who, the event's kind in
    words (`event_<kind>`), what it brought about."""
    event: Any = step.event
    kind = type(event).__struct_config__.tag
    who = getattr(event, "player", None)
    if isinstance(event, Final):  # the scores the log's recorder saw, which the replay matched
        scores = listed([f"{name} {points}" for name, points in event.scores.items()], lang)
        return joined(said("said_final", lang, scores=scores), [], lang)
    action = said("said_event", lang, who=who or t("chance", lang), what=t(f"event_{kind}", lang))
    return joined(action, clauses(step.facts, match.header.players, who, lang), lang)
