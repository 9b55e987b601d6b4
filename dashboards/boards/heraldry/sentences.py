"""Heraldry's move log in words: setup cities, knights recruited and moved (with the battles
they win and the tokens they loot), villages and fortresses built, cities founded, expeditions,
promotions by title with what was paid, and the end with its scores.

Hexes are said by their axial coordinates with a true minus sign, "(−2, 0)", and by their
terrain where it says something (a setup city's hex, an expedition's landing; a build's
terrains are the tokens it brings). Who pulls ahead on the score track is said when it
happens, not at every round's ranking.
Heraldry hides nothing (`secrets` is False): every seat is told the same."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dashboards.i18n import t
from dashboards.sentences import by_default, joined, listed, said
from replay.facts import Fact, PiecesRemoved, ResourceChanged, ScoreChanged, TrackMoved
from replay.games.heraldry import TITLES, result
from replay.games.heraldry.events import (
    Build,
    Expedition,
    FoundCity,
    Move,
    Pass,
    PlaceCity,
    Promote,
    Recruit,
)
from replay.games.heraldry.state import State
from replay.log import Final
from replay.replayer import Match, Step, start, state_at

PLURAL = {"village": "he_villages", "fortress": "he_fortresses"}


def at(where: Sequence[int] | str) -> str:
    """A hex by its axial coordinates, "(−2, 0)"; a fact's place "[-2, 0]" likewise."""
    if isinstance(where, str):
        where = [int(part) for part in where.strip("[]").split(",")]
    q, r = where[0], where[1]
    return f"({q}, {r})".replace("-", "−")


def sentences(match: Match, steps: Sequence[Step], lang: str, seat: int | None) -> list[str]:
    """One sentence per step, in `lang`; `seat` changes nothing, as nothing is hidden."""
    players = list(match.header.players)
    state: State | None = None
    done = -1  # the index of the last event applied to `state`
    totals = [0] * len(players)  # the score track, as the facts move it
    out: list[str] = []
    for n, step in enumerate(steps):
        event: Any = step.event
        if state is None or step.index - 1 != done:
            state = start(match) if step.index <= 1 else state_at(match, step.index - 1)
            done = step.index - 1
            totals = [sum(points.values()) for points in state.points]
        if isinstance(event, Final):
            out.append(_final(match, step, state, lang))
            continue
        tell = Telling(state, players, lang)
        action = tell.action(event, step.facts)  # from the state before the event
        match.game.apply(state, event)
        done = step.index
        if action is None:
            out.append(by_default(match, step, lang))
            continue
        text = joined(action, tell.facts(step.facts, state.seats[event.player], totals), lang)
        ending = tell.ending(step.facts, state, last=n == len(steps) - 1)
        out.append(text if not ending else text + ("；" if lang == "zh" else "; ") + ending)
    return out


def _items(parts: list[str], lang: str) -> str:
    """Items in a row: "A, B and C" / "A、B、C"."""
    return "、".join(parts) if lang == "zh" else listed(parts, lang)


def _chain(parts: list[str], lang: str) -> str:
    """Clauses one after another: "A, B and C" / "A，B，C"."""
    if lang == "zh":
        return "，".join(parts)
    return listed(parts, lang)


class Telling:
    """The words of one step: its action from the state before it (terrains, the ruleset's
    token values), then what its facts brought about."""

    def __init__(self, state: State, players: list[str], lang: str) -> None:
        self.state = state
        self.players = players
        self.lang = lang

    def terrain(self, terrain: str) -> str:
        word = t(terrain, self.lang)
        return word.lower() if self.lang == "en" else word

    def where(self, hex_: Sequence[int]) -> str:
        """A hex with its terrain: "on the plains at (−2, 0)"."""
        board = self.state.board
        h = board.index.get((hex_[0], hex_[1]))
        if h is None:  # the engine refuses such an event before it is told
            return at(hex_)
        return said(f"he_in_{board.terrain[h]}", self.lang, at=at(hex_))

    def knights(self, n: int) -> str:
        return t("he_a_knight", self.lang) if n == 1 else said("he_knights", self.lang, n=n)

    def action(self, event: Any, facts: Sequence[Fact]) -> str | None:
        lang = self.lang
        if isinstance(event, PlaceCity):
            return said("he_say_place_city", lang, who=event.player, where=self.where(event.hex))
        if isinstance(event, Recruit):
            return said(
                "he_say_recruit",
                lang,
                who=event.player,
                knights=self.knights(event.knights),
                at=at(event.city),
            )
        if isinstance(event, Move):
            return self.move(event, facts)
        if isinstance(event, Build):
            # by piece, the hexes in a row: their terrains are the tokens the build brings
            hexes: dict[str, list[str]] = {}
            for site in event.sites:
                hexes.setdefault(site.piece, []).append(at(site.hex))
            sites = [
                said(
                    "he_site",
                    lang,
                    piece=t(f"he_a_{piece}" if len(where) == 1 else PLURAL[piece], lang),
                    at=_items(where, lang),
                )
                for piece, where in hexes.items()
            ]
            return said("he_say_build", lang, who=event.player, sites=_chain(sites, lang))
        if isinstance(event, FoundCity):
            return said("he_say_found_city", lang, who=event.player, at=at(event.hex))
        if isinstance(event, Expedition):
            text = said("he_say_expedition", lang, who=event.player, where=self.where(event.hex))
            lost = self.state.config.expedition_knights - 1
            if lost == 1:
                text += ("，" if lang == "zh" else "; ") + t("he_lost_one", lang)
            elif lost > 1:
                text += ("，" if lang == "zh" else "; ") + said("he_lost_many", lang, n=lost)
            return text
        if isinstance(event, Promote):
            return self.promote(event)
        if isinstance(event, Pass):
            return said("he_say_pass", lang, who=event.player)
        return None

    def move(self, event: Move, facts: Sequence[Fact]) -> str:
        """The legs, a knight each ("from (0, 1) to (1, 1)", said once where two knights go
        the same way), then what the battles at their ends removed."""
        lang = self.lang
        legs = [(at(s.from_), at(s.to)) for s in event.steps]
        distinct = list(dict.fromkeys(legs))
        text = said(
            "he_say_move",
            lang,
            who=event.player,
            knights=self.knights(len(legs)),
            legs=("，" if lang == "zh" else " and ").join(
                said("he_leg", lang, a=a, b=b) for a, b in distinct
            ),
        )
        battles = self.battles(facts, several=len({b for _, b in legs}) > 1)
        if not battles:
            return text
        if lang == "en" and len(distinct) > 1:  # the legs hold an "and" already
            return f"{text}, {t('and', lang)} {listed(battles, lang)}"
        return _chain([text, *battles], lang)

    def promote(self, event: Promote) -> str:
        lang, config = self.lang, self.state.config
        paid: dict[str, int] = {}
        for token in event.pay:
            paid[token] = paid.get(token, 0) + 1
        tokens = _items(
            [said("he_paid", lang, n=n, terrain=self.terrain(k)) for k, n in paid.items()], lang
        )
        title = self.state.title[self.state.seats[event.player]]
        after = TITLES[min(title + 1, len(TITLES) - 1)]
        value = sum(config.token_promotion.get(token, 0) for token in event.pay)
        return said(
            "he_say_promote",
            lang,
            who=event.player,
            title=t(after, lang),
            tokens=tokens,
            value=value,
        )

    def battles(self, facts: Sequence[Fact], several: bool) -> list[str]:
        """What each battle removed, place by place: knights driven off, a village destroyed
        and the token looted from it; the place said where the move had two ends."""
        lang, players = self.lang, self.players
        places: dict[str, dict[str, list[str]]] = {}
        last: dict[str, list[str]] | None = None  # the battle a loot follows (HE-19)
        for fact in facts:
            if isinstance(fact, PiecesRemoved):
                last = places.setdefault(fact.place, {"knights": [], "villages": [], "loot": []})
                victim = players[fact.victim]
                if fact.piece == "knight":
                    key = "he_knight_of" if fact.count == 1 else "he_knights_of"
                    last["knights"].append(said(key, lang, victim=victim, n=fact.count))
                else:
                    last["villages"].append(said("he_destroys", lang, victim=victim))
            elif (
                isinstance(fact, ResourceChanged)
                and fact.cause == "loot"
                and fact.delta > 0
                and last is not None
            ):
                last["loot"].append(said("he_a_token", lang, terrain=self.terrain(fact.resource)))
        out = []
        for place, removed in places.items():
            parts = []
            if removed["knights"]:
                parts.append(said("he_drives_off", lang, pieces=listed(removed["knights"], lang)))
            parts += removed["villages"]
            what = _chain(parts, lang) if lang == "zh" else listed(parts, lang)
            if several:
                what = said("he_there", lang, what=what, at=at(place))
            if removed["loot"]:
                looted = said("he_looting", lang, token=listed(removed["loot"], lang))
                what += looted if lang == "zh" else ", " + looted
            out.append(what)
        return out

    def facts(self, facts: Sequence[Fact], actor: int, totals: list[int]) -> list[str]:
        """What the action brought the actor: tokens built for, points with the total they make
        (and the lead, where they take it). `totals` is the score track, kept up to date."""
        lang = self.lang
        out: list[str] = []
        gained: dict[str, int] = {}
        before = list(totals)
        for fact in facts:
            if isinstance(fact, ResourceChanged) and fact.cause == "build":
                gained[fact.resource] = gained.get(fact.resource, 0) + fact.delta
            elif isinstance(fact, TrackMoved) and fact.track == "score":
                totals[fact.seat] = fact.after
            elif isinstance(fact, ScoreChanged) and fact.source != "tokens":
                total = next(
                    (
                        f.after
                        for f in facts
                        if isinstance(f, TrackMoved) and f.track == "score" and f.seat == fact.seat
                    ),
                    totals[fact.seat],
                )
                key = "he_point" if fact.points == 1 else "he_points"
                out.append(said(key, lang, n=fact.points, total=total))
        for terrain, n in gained.items():
            key = "he_gained" if n == 1 else "he_gained_many"
            out.append(said(key, lang, n=n, terrain=self.terrain(terrain)))
        if any(isinstance(f, ScoreChanged) and f.source != "tokens" for f in facts):
            ahead = _ahead(before, actor), _ahead(_played(facts, before), actor)
            if ahead == (False, True):
                out.append(t("he_leads", lang))
        return out

    def ending(self, facts: Sequence[Fact], state: State, last: bool) -> str:
        """The end the step brings (the tokens' end values, who wins where no final line
        follows) or, for the step that makes a duke, the end it brings near."""
        lang = self.lang
        if state.phase == "over":
            gains = [
                f"{self.players[f.seat]} {f.points:+d}"
                for f in facts
                if isinstance(f, ScoreChanged) and f.source == "tokens"
            ]
            text = (
                said("he_match_ends_tokens", lang, gains=_items(gains, lang))
                if gains
                else t("he_match_ends", lang)
            )
            if last:
                text += " — " if lang == "en" else "——"
                text += _result(state, self.players, lang)
            return text
        made_duke = any(
            isinstance(f, TrackMoved) and f.track == "title" and f.after == len(TITLES) - 1
            for f in facts
        )
        return t("he_last_round", lang) if made_duke else ""


def _played(facts: Sequence[Fact], totals: list[int]) -> list[int]:
    """The score track after the action's own points, before the end's token values."""
    after = list(totals)
    for fact in facts:
        if isinstance(fact, TrackMoved) and fact.track == "score" and fact.cause != "tokens":
            after[fact.seat] = fact.after
    return after


def _ahead(totals: list[int], seat: int) -> bool:
    return all(totals[seat] > points for other, points in enumerate(totals) if other != seat)


def _result(state: State, players: list[str], lang: str) -> str:
    winners = [players[s] for s in result(state).winners]
    return said("he_wins", lang, who=listed(winners, lang))


def _final(match: Match, step: Step, state: State, lang: str) -> str:
    """The log's last line: the scores its recorder saw (which the replay agreed with) and
    who won, by the rules' tie-break where the scores are level."""
    if state.phase != "over":  # a claim before the end: the shared words
        return by_default(match, step, lang)
    event: Final = step.event
    scores = _items([f"{name} {points}" for name, points in event.scores.items()], lang)
    players = list(match.header.players)
    return said("he_say_final", lang, scores=scores, result=_result(state, players, lang))
