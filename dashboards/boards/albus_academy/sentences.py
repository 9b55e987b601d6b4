"""An Albus Academy match in sentences: one a step, from the decoded event, the facts the
engine established and the catalogue the match was played with ("Ann completes the spell
Tempest: Will 8 → 1, +6 prestige (18 in all), Homework done 3 → 4").

Tiles are told by what they do, homework by its catalogue name, positions by where they lie.
What a step changes is read from its facts; what it touched (the tile at a position, the one a
placement covers) from the state before it, replayed alongside. A seat is told another seat's
private homework as "a homework card": the engine's view hides it (replay/games/albus_academy
/view.py), and a card swapped away on a rest leaves the game unseen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dashboards.i18n import t
from dashboards.sentences import joined, listed, said
from replay.facts import Fact, ScoreChanged, TrackMoved, TrackRanked
from replay.games.albus_academy.catalogue import Catalogue
from replay.games.albus_academy.events import (
    Cast,
    CollectShard,
    CompleteHomework,
    DrawHomework,
    DrawTile,
    GainWill,
    PlaceTile,
    Rest,
    TakeTile,
    Trigger,
    UseItem,
)
from replay.games.albus_academy.scoring import result
from replay.games.albus_academy.state import State
from replay.log import Final
from replay.replayer import Match, Step, start, state_at

from . import words


def sentences(match: Match, steps: Sequence[Step], lang: str, seat: int | None) -> list[str]:
    """One sentence per step, in `lang`, as the player in `seat` could tell it (None: all)."""
    players = list(match.header.players)
    cat: Catalogue | None = match.catalogue
    game = match.game
    state: State | None = None
    done = -1  # the index of the last event applied to `state`
    out: list[str] = []
    for n, step in enumerate(steps):
        event = step.event
        if state is None or step.index - 1 != done:
            state = start(match) if step.index <= 1 else state_at(match, step.index - 1)
            done = step.index - 1
        if type(event) is Final:
            out.append(_final(state, step, players, cat, lang))
            continue
        tell = Telling(state, players, cat, lang, seat)
        action, chosen = tell.action(event)
        # A cast or a rest first closes the cast before it: a round that ends there ended
        # before this turn began, and is told first.
        before = isinstance(event, Cast | Rest) and state.phase == "casting"
        game.apply(state, event)  # the facts are told from the state the event leaves
        done = step.index
        ended = state.phase == "over" or (n == len(steps) - 1 and game.is_over(state))
        actor = getattr(event, "player", None)  # draws are chance's
        told = joined(action, [*tell.facts(step.facts, actor), *chosen], lang)
        end = tell.ending(step.facts, ended)
        if not end:
            out.append(told)
        elif before:
            out.append(words.capital(end) + t("aa_period", lang) + told)
        else:
            out.append(told + t("aa_semicolon", lang) + end)
    return out


class Telling:
    """The words of one step: its action from the state before it, what it brought about
    from the state it leaves (the same state, which the event is applied to in between)."""

    def __init__(
        self, state: State, players: list[str], cat: Catalogue | None, lang: str, seat: int | None
    ) -> None:
        self.state = state
        self.players = players
        self.cat = cat
        self.lang = lang
        self.seat = seat
        # whose view it is: nobody's for the analysis board (None) and for the table (a seat
        # past the last)
        self.me = None if seat is None else players[seat] if seat < len(players) else ""

    def where(self, at: Sequence[int]) -> str:
        config = self.state.config
        return words.position(at, config.board_rows, config.board_cols, self.lang)

    def top(self, player: str, at: Sequence[int]) -> tuple[str, int] | None:
        """What shows at a position of the player's board: (tile or corner, rotation)."""
        return self.state.board[self.state.seats[player]].board[at[0]][at[1]]

    def does(self, tile: str) -> str:
        """What a tile or corner does, in words."""
        cat = self.cat
        found = None if cat is None else cat.corners.get(tile) or cat.tiles.get(tile)
        return tile if found is None else words.tile_words(found.actions, self.lang)

    def a_tile(self, tile: str) -> str:
        return said("aa_a_tile", self.lang, what=self.does(tile))

    def action(self, event: Any) -> tuple[str, list[str]]:
        """The event in words, and what it chose beyond that (markers removed, tiles taken)."""
        lang, cat = self.lang, self.cat
        if isinstance(event, DrawTile):
            return said("aa_say_draw_tile", lang, what=self.does(event.tile)), []
        if isinstance(event, DrawHomework):
            detail = words.card_detail(cat, event.card, lang, ability=False)
            card = words.phrase(cat, event.card, lang)
            if event.to is None:
                return said("aa_say_draw_public", lang, card=card, detail=detail), []
            if self.me is not None and self.me != event.to:
                return said("aa_say_draw_hidden", lang, who=event.to), []
            return said("aa_say_draw_private", lang, who=event.to, card=card, detail=detail), []
        who = event.player
        if isinstance(event, Cast | Trigger):
            top = self.top(who, event.at)
            what = self.does(top[0]) if top else "?"
            key = "aa_say_cast" if isinstance(event, Cast) else "aa_say_trigger"
            return said(key, lang, who=who, where=self.where(event.at), what=what), []
        if isinstance(event, CollectShard):
            return said("aa_say_collect_shard", lang, who=who), []
        if isinstance(event, GainWill):
            return said("aa_say_gain_will", lang, who=who), []
        if isinstance(event, TakeTile):
            return said("aa_say_take_tile", lang, who=who, what=self.does(event.tile)), []
        if isinstance(event, UseItem):
            item = words.name(cat, event.item, lang)
            return said("aa_say_use_item", lang, who=who, item=item), self.chosen(event)
        if isinstance(event, CompleteHomework):
            card = words.phrase(cat, event.card, lang)
            return said("aa_say_complete", lang, who=who, card=card), self.chosen(event)
        if isinstance(event, Rest):
            if event.swap is None:
                return said("aa_say_rest", lang, who=who), []
            if self.me is not None and self.me != who:
                return said("aa_say_rest_swap_hidden", lang, who=who), []
            card = words.phrase(cat, event.swap, lang)
            return said("aa_say_rest_swap", lang, who=who, card=card), []
        if isinstance(event, PlaceTile):
            text = said(
                "aa_say_place",
                lang,
                who=who,
                what=self.does(event.tile),
                where=self.where(event.at),
            )
            covered = self.top(who, event.at)
            more = []
            if covered is not None:
                if self.cat is not None and covered[0] in self.cat.corners:
                    more.append(t("aa_covering_corner", lang))
                else:
                    more.append(said("aa_covering_tile", lang, what=self.does(covered[0])))
            if event.rotation:
                more.append(said("aa_turned", lang, deg=90 * event.rotation))
            return t("aa_comma", lang).join([text, *more]), []
        kind = type(event).__struct_config__.tag
        return said("said_event", lang, who=who, what=t(f"event_{kind}", lang)), []

    def chosen(self, event: UseItem | CompleteHomework) -> list[str]:
        out = []
        if event.ready:
            out.append(words.counted("aa_readies", len(event.ready), self.lang))
        if event.tiles:
            taken = listed((self.a_tile(tile) for tile in event.tiles), self.lang)
            out.append(said("aa_takes_tiles", self.lang, tiles=taken))
        return out

    def facts(self, facts: Sequence[Fact], actor: str | None) -> list[str]:
        """What the step brought about: moves on the tracks, prestige (with the total it
        leads to), the class dismissed card, the end-of-game abilities; a seat named where
        it is not the actor."""
        lang, players = self.lang, self.players
        totals = {
            (f.seat, f.cause): f.after
            for f in facts
            if isinstance(f, TrackMoved) and f.track == "prestige"
        }
        out: list[str] = []
        ends: list[str] = []  # end-of-game prestige, seat by seat: one clause for them all
        for fact in facts:
            if isinstance(fact, ScoreChanged):
                who = players[fact.seat]
                named = "" if who == actor else f"{who} "
                total = totals.get((fact.seat, fact.source), "?")
                if fact.source == "class_dismissed":
                    out.append(said("aa_dismissed", lang, who=named, n=fact.points, total=total))
                elif fact.source == "end_ability":
                    ends.append(f"{who} {fact.points:+d}")
                else:
                    key = "aa_prestige_token" if fact.source == "token" else "aa_prestige_gain"
                    out.append(named + said(key, lang, n=fact.points, total=total))
            elif isinstance(fact, TrackMoved) and fact.track != "prestige":
                who = players[fact.seat]
                track = t(fact.track, lang)
                if who != actor:
                    owner = f"{who}'s " if lang == "en" else f"{who} 的"
                    track = owner + words.low(track, lang)
                out.append(
                    said("aa_moved", lang, track=track, before=fact.before, after=fact.after)
                )
        if ends:
            out.append(said("aa_end_ability", lang, gains=words.every(ends, lang)))
        return out

    def ending(self, facts: Sequence[Fact], ended: bool) -> str:
        """The end of the match with its scores, or of a round with the tracks' leaders."""
        lang = self.lang
        if ended:
            return said("aa_match_ends", lang, scores=self.scores())
        ranked = [f for f in facts if isinstance(f, TrackRanked)]
        if not ranked:
            return ""
        led: dict[int, list[str]] = {}
        for fact in ranked:
            if fact.leads:
                track = words.low(t(fact.track, lang), lang)
                led.setdefault(fact.seat, []).append(f"{track} {fact.progress}")
        leaders = [
            said("aa_leads", lang, who=self.players[seat], tracks=words.every(tracks, lang))
            for seat, tracks in led.items()
        ]
        return joined(said("aa_round_ends", lang, n=ranked[0].round), leaders, lang)

    def scores(self) -> str:
        return _scores(self.state, self.players, self.lang)


def _scores(state: State, players: list[str], lang: str) -> str:
    return words.every((f"{p} {s}" for p, s in zip(players, result(state).scores)), lang)


def _final(state: State, step: Step, players: list[str], cat: Catalogue | None, lang: str) -> str:
    """The final claim: the scores and who won, after what closing a cast the log stopped in
    brought (its end-of-game prestige; the last ranking is left to the scores)."""
    scores = _scores(state, players, lang)
    winners = [players[s] for s in result(state).winners]
    if len(winners) == 1:
        outcome = said("aa_wins", lang, who=winners[0])
    elif winners:
        outcome = said("aa_share_win", lang, who=listed(winners, lang))
    else:
        outcome = t("aa_no_winner", lang)
    text = said("aa_say_final", lang, scores=scores, result=outcome)
    kept = [f for f in step.facts if not isinstance(f, TrackRanked)]
    closing = Telling(state, players, cat, lang, None).facts(kept, None)
    if not closing:
        return text
    return (
        joined(t("aa_cast_ends", lang), closing, lang)
        + t("aa_semicolon", lang)
        + words.low(text, lang)
    )
