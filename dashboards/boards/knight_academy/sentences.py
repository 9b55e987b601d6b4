"""Knight Academy's move log in words: the deal, the draft with the hands passed on, the plays
with the discs they pass, the courage bonuses, the round's scoring and resets, the lancelot
rounds (KA-20) and the variant boards (KA-22).

The state is replayed alongside the steps, so that a sentence can say what the event changed
beyond its facts: the hand a pick passes on and to whom (KA-5), the discs a move overtakes
(KA-8), the courage place a bonus is owed for (KA-10), the grail's side (KA-22a), the shield a
codex slot held (KA-22c).

What a seat is told is what its view shows (`view.view`): a card kept in the draft lies face
down until it is played, and the hand passed on is seen by the seat that passed it and, once
the hands move, by the seat that receives it (KA-5); a hand dealt is its holder's; lancelot's
piles lie face down until both players have split, the cards laid under the colours until
they are played (KA-20); the codex's shields are seen by those who looked, and the shield a
seat keeps is its own, as is its total while the codex holds points back (KA-22c); a codex
shield mercy gives changes hands face down, known to its giver and its receiver, and the
swaps' points are each seat's own (KA-22f)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from dashboards.i18n import every_label, t
from dashboards.sentences import by_default, listed, said
from replay.facts import Fact, ScoreChanged, TrackMoved, TrackRanked
from replay.games.knight_academy.boards import mercy_terms
from replay.games.knight_academy.cards import card_type_value, moves_with
from replay.games.knight_academy.scoring import result
from replay.games.knight_academy.state import State
from replay.games.knight_academy.view import SECRET_SOURCES
from replay.log import Final
from replay.replayer import Match, Step, start, state_at

# The phases in which the round's scoring (phase 4) may still be ahead.
BEFORE_SCORING = ("play", "lift", "bonus")
# A space the templates leave after a name, where the name ends in Chinese ("Ann 的蓝色").
_CJK_GAP = re.compile(r"(?<=[\u4e00-\u9fff）]) (?=[\u4e00-\u9fff（])")


def card(name: str, lang: str) -> str:
    """ "Sword 4" / "剑 4": a card by its type and value."""
    kind, value = card_type_value(name)
    return f"{t(f'ka_card_{kind}', lang)} {value}"


def cards(names: Sequence[str], lang: str) -> str:
    return listed([card(c, lang) for c in names], lang)


def signed(n: int) -> str:
    """ "+3" / "−3" / "0", with a true minus sign."""
    return f"{n:+d}".replace("-", "−") if n else "0"


def colour(name: str, lang: str) -> str:
    """A lancelot colour in words: the seed's four by their labels, any other as the header
    names it."""
    key = f"ka_colour_{name}"
    return t(key, lang) if key in every_label() else name


def ordinal(place: int, lang: str) -> str:
    """A podium place (at most 3rd, KA-10): "2nd" / "第 2"."""
    if lang == "zh":
        return f"第 {place}"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
    return f"{place}{suffix}"


def pts(n: int, lang: str) -> str:
    """ "3 points", "−1 point" / "3 分"."""
    number = str(n).replace("-", "−")
    if lang == "zh":
        return f"{number} 分"
    return f"{number} {'point' if abs(n) == 1 else 'points'}"


def sentences(match: Match, steps: Sequence[Step], lang: str, seat: int | None) -> list[str]:
    """One sentence per step, in `lang`, as the header's player `seat` saw it (None: all)."""
    out: list[str] = []
    state: State | None = None
    done = -1  # the index of the last event applied to `state`
    for n, step in enumerate(steps):
        if state is None or step.index - 1 != done:
            state = start(match) if step.index <= 1 else state_at(match, step.index - 1)
        teller = Teller(match, state, lang, seat)
        if isinstance(step.event, Final):
            out.append(teller.final(step))
            done = step.index
            continue
        last = n == len(steps) - 1
        out.append(teller.tell(step, last))
        done = step.index
    if lang == "zh":
        return [_CJK_GAP.sub("", text) for text in out]
    return out


class Teller:
    """The words of one step: read from the state before the event, which `tell` then applies."""

    def __init__(self, match: Match, state: State, lang: str, seat: int | None) -> None:
        self.match = match
        self.state = state
        self.lang = lang
        self.seat = seat
        self.persons = list(match.header.players)  # the facts' seats (KA-20: a colour's player)
        # The state's seats the perspective plays: its own, or its two lancelot colours.
        self.mine = (
            set(range(len(state.players)))
            if seat is None
            else {s for s, owner in enumerate(state.owners) if owner == seat}
        )

    # --- names and what the perspective sees -----------------------------------------------

    def name(self, s: int) -> str:
        """A state seat: its player, or in lancelot "Ann's blue"."""
        state = self.state
        if not state.persons:
            return state.players[s]
        person = state.persons[state.owners[s]]
        return said(
            "ka_colour_of", self.lang, who=person, colour=colour(state.players[s], self.lang)
        )

    def sees(self, s: int) -> bool:
        return s in self.mine

    @property
    def secret_sources(self) -> tuple[str, ...]:
        """The sources whose points only their seat is told: those another seat's view hides
        while the codex is in play (KA-22c, KA-22f)."""
        return SECRET_SOURCES if "codex" in self.state.config.boards else ()

    def sees_person(self, person: int) -> bool:
        return self.seat is None or self.seat == person

    def track(self, track: str) -> str:
        return t(track, self.lang)

    def sep(self) -> str:
        return "。" if self.lang == "zh" else ". "

    # --- one step --------------------------------------------------------------------------

    def tell(self, step: Step, last: bool) -> str:
        event: Any = step.event
        kind = type(event).__struct_config__.tag
        state = self.state
        phase, rnd = state.phase, state.round
        told = getattr(self, f"_{kind}", None)
        if told is None:
            self.match.game.apply(state, event)
            return by_default(self.match, step, self.lang)
        action, used = told(event, step.facts)  # applies the event
        parts = [action]
        rest = [f for i, f in enumerate(step.facts) if i not in used]
        scored = phase in BEFORE_SCORING and state.phase not in BEFORE_SCORING
        parts += self.aftermath(rest, rnd, scored, last)
        return self.sep().join(p for p in parts if p)

    def aftermath(self, facts: list[Fact], rnd: int, scored: bool, last: bool) -> list[str]:
        """What the event brought about beyond its own move: the wagers paid and the courage
        discs stepped back (KA-22b, KA-21b), the round's scoring, the resets, the lead."""
        lang = self.lang
        parts: list[str] = []
        moves: dict[str, list[str]] = {}
        for fact in facts:
            if isinstance(fact, TrackMoved) and fact.cause in ("wager", "step_back"):
                # a wager moves the wagered track; a step back always courage (KA-21b)
                track = f"{self.track(fact.track)} " if fact.cause == "wager" else ""
                moves.setdefault(fact.cause, []).append(
                    f"{self.persons[fact.seat]} {track}{fact.before} → {fact.after}"
                )
        for cause, said_ in moves.items():
            parts.append(said(f"ka_said_{cause}", lang, moves=self.items(said_)))
        points = self.points(facts)
        if scored:
            parts.append(
                said("ka_said_scoring", lang, round=rnd, points=points or t("ka_no_points", lang))
            )
        elif points:
            parts.append(points)
        parts.append(self.resets(facts))
        if any(isinstance(f, TrackRanked) for f in facts):  # the round has ended
            parts.append(self.standing(rnd, last))
        return parts

    def names(self, who: list[str]) -> str:
        """Names in a row within an item: "Ann and Bob" / "Ann、Bob"."""
        return "、".join(who) if self.lang == "zh" else listed(who, self.lang)

    def items(self, parts: list[str]) -> str:
        return "、".join(parts) if self.lang == "zh" else ", ".join(parts)

    def points(self, facts: list[Fact]) -> str:
        """Points by source in the order scored, each seat once a source: "Joust: Fay +3,
        Cid +2; Education: Ann −3". A codex shield another seat keeps is not told (KA-22c),
        nor another seat's mercy points while the codex is in play (KA-22f)."""
        by_source: dict[str, dict[int, int]] = {}
        for fact in facts:
            if not isinstance(fact, ScoreChanged):
                continue
            secret = fact.source in self.secret_sources and self.seat is not None
            if secret and fact.seat != self.seat:
                continue
            row = by_source.setdefault(fact.source, {})
            row[fact.seat] = row.get(fact.seat, 0) + fact.points
        groups = []
        for source, row in by_source.items():
            alike: dict[int, list[str]] = {}  # equal points said once: "Ann and Bob −3"
            for s, p in row.items():
                alike.setdefault(p, []).append(self.persons[s])
            said_ = [f"{self.names(who)} {signed(p)}" for p, who in alike.items()]
            groups.append(
                said(
                    "ka_said_source",
                    self.lang,
                    source=t(source, self.lang),
                    points=self.items(said_),
                )
            )
        return ("；" if self.lang == "zh" else "; ").join(groups)

    def resets(self, facts: list[Fact]) -> str:
        """KA-16, KA-21c, KA-22a, KA-22d: the tracks that go back, to 0 or by rank."""
        tracks: dict[str, bool] = {}  # track → every disc to 0
        for fact in facts:
            if isinstance(fact, TrackMoved) and fact.cause == "reset":
                tracks[fact.track] = tracks.get(fact.track, True) and fact.after == 0
        if not tracks:
            return ""
        lang = self.lang
        out = []
        zero = [self.track(k) for k, flat in tracks.items() if flat]
        ranked = [self.track(k) for k, flat in tracks.items() if not flat]
        for key, named in (("ka_said_reset_ranked", ranked), ("ka_said_reset", zero)):
            if named:
                key += "_one" if len(named) == 1 else ""
                out.append(said(key, lang, tracks=listed(named, lang)))
        if "white" in tracks or "black" in tracks:  # KA-22a
            out.append(t("ka_said_grail_reset", lang))
        if "king" in tracks and "scrolls" in self.state.config.boards:  # KA-22d
            out.append(t("ka_said_scrolls_back", lang))
        return ("，" if lang == "zh" else ", ").join(out)

    def totals(self) -> list[int] | None:
        """Each header player's total, or None where the codex keeps others' points from the
        perspective (KA-22c)."""
        state = self.state
        if self.seat is not None and "codex" in state.config.boards:
            return None
        totals = [0] * len(self.persons)
        for s, owner in enumerate(state.owners):
            totals[owner] += sum(state.points[s].values())
        return totals

    def standing(self, rnd: int, last: bool) -> str:
        """Where a round ends: who leads, or at the match's end who won."""
        lang = self.lang
        totals = self.totals()
        if self.state.phase == "over":
            if not last or totals is None:  # a final line follows and says who won
                return t("ka_said_over", lang)
            return said("ka_said_over_won", lang, result=self.winners(totals))
        if totals is None:
            return ""
        best = max(totals)
        leaders = [self.persons[s] for s, p in enumerate(totals) if p == best]
        key = "ka_said_leads" if len(leaders) == 1 else "ka_said_lead"
        return said(key, lang, round=rnd, who=listed(leaders, lang), points=pts(best, lang))

    def winners(self, totals: list[int]) -> str:
        """KA-18, KA-19: the highest total wins (the neutral seat never does); equal share."""
        won = result(self.state).winners
        who = listed([self.persons[s] for s in won], self.lang)
        key = "ka_said_wins" if len(won) == 1 else "ka_said_share"
        return said(key, self.lang, who=who, points=pts(totals[won[0]] if won else 0, self.lang))

    def final(self, step: Step) -> str:
        """The log's last line: the scores its recorder saw (the replay agreed) and who won."""
        state = self.state
        if state.phase != "over":
            return by_default(self.match, step, self.lang)
        event: Final = step.event
        scores = self.items(
            [f"{who} {signed(p) if p < 0 else p}" for who, p in event.scores.items()]
        )
        totals = [0] * len(self.persons)
        for s, owner in enumerate(state.owners):
            totals[owner] += sum(state.points[s].values())
        return said("ka_say_final", self.lang, scores=scores, result=self.winners(totals))

    def move(self, fact: TrackMoved, squares: int, named: bool = True) -> str:
        """A disc's move: "Quest 4 → 9", at the king's cap (KA-7), into a new lap."""
        lang = self.lang
        where = f"{self.track(fact.track)} " if named else ""
        if fact.after == fact.before:  # KA-7: already at the king's cap
            if named:
                return said("ka_said_stays", lang, track=self.track(fact.track), at=fact.after)
            return said("ka_said_stays_here", lang, at=fact.after)
        text = f"{where}{fact.before} → {fact.after}"
        if fact.after - fact.before < squares:  # KA-7: the king's track stops at its cap
            text += t("ka_said_capped", lang)
        length = self.state.config.track_length
        lap = (fact.after - 1) // length
        if fact.after > length and lap > max(fact.before - 1, 0) // length:
            text += said("ka_said_lap", lang, lap=lap + 1)
        return text

    def passed(self, s: int, track: str, before: int, after: int, stamps: list[int]) -> list[str]:
        """KA-8, KA-9: the discs a move from `before` to `after` overtakes: ahead of it before
        (further on, or above it on its square) and not beyond where it lands (on top)."""
        row = self.state.progress[track]
        mine = stamps[s]
        ahead = [
            (row[o], stamps[o], o)
            for o in range(len(row))
            if o != s
            and row[o] > 0
            and (row[o] > before or (row[o] == before and stamps[o] > mine))
            and row[o] <= after
        ]
        return [self.name(o) for _, _, o in sorted(ahead)]

    def moved(self, s: int, track: str, squares: int, cause: str) -> tuple[TrackMoved, list[str]]:
        """A disc's move as `move_disc` will make it (its seat the state's, a colour in
        lancelot, where the fact's is the player's), and the discs it will pass, read from
        the state before the event."""
        row = self.state.progress[track]
        before = row[s]
        stamps = list(self.state.arrival[track])
        after = before + squares
        if track == "king":
            after = min(after, self.state.config.king_cap)
        passed = self.passed(s, track, before, after, stamps)
        fact = TrackMoved(
            round=self.state.round, seat=s, track=track, before=before, after=after, cause=cause
        )
        return fact, passed

    def with_passes(self, text: str, passed: list[str]) -> str:
        if not passed:
            return text
        return (
            text
            + ("，" if self.lang == "zh" else ", ")
            + said("ka_said_passes", self.lang, whom=listed(passed, self.lang))
        )

    @staticmethod
    def own(facts: Sequence[Fact], cause: str) -> set[int]:
        """The index of the event's own move among its facts (the first of its cause)."""
        for i, fact in enumerate(facts):
            if isinstance(fact, TrackMoved) and fact.cause == cause:
                return {i}
        return set()

    def apply(self, event: Any) -> None:
        self.match.game.apply(self.state, event)

    # --- the events --------------------------------------------------------------------------

    def _deal(self, event: Any, facts: Sequence[Fact]) -> tuple[str, set[int]]:
        state, lang = self.state, self.lang
        lancelot = bool(state.persons)
        first = not any(state.dealt)
        starter = self.name(state.start_player)
        size = len(event.cards)
        reshuffle = first and sum(state.deck.values()) < size * len(state.dealt)
        person = self.persons.index(event.player) if lancelot else state.seats[event.player]
        seen = self.sees_person(person) if lancelot else self.sees(person)
        self.apply(event)
        if seen:
            text = said("ka_say_deal", lang, who=event.player, cards=cards(event.cards, lang))
        else:
            text = said("ka_say_deal_hidden", lang, who=event.player, n=size)
        if reshuffle:  # KA-4
            text = t("ka_said_reshuffle", lang) + text
        if first:
            text = said("ka_say_round", lang, round=state.round, who=starter) + text
        return text, set()

    def _pick(self, event: Any, facts: Sequence[Fact]) -> tuple[str, set[int]]:
        state, lang = self.state, self.lang
        s = state.seats[event.player]
        rest = list(state.hands[s])
        rest.remove(event.card)
        n = len(state.players)
        direction = state.config.pass_directions[state.round - 1]
        to = (s + direction) % n
        step = state.step
        self.apply(event)
        moved = state.step != step or state.phase != "draft"  # every seat has picked: KA-5
        who = event.player
        if self.sees(s):
            text = said("ka_say_pick", lang, who=who, card=card(event.card, lang))
        else:
            text = said("ka_say_pick_hidden", lang, who=who)
        if not rest:
            return text, set()
        if self.sees(s) or (moved and self.sees(to)):
            text += said("ka_said_pass", lang, cards=cards(rest, lang), whom=self.name(to))
        else:
            key = "ka_said_pass_hidden" if len(rest) > 1 else "ka_said_pass_hidden_one"
            text += said(key, lang, n=len(rest), whom=self.name(to))
        if moved and self.seat is not None:  # the hands have moved: what reached the seat
            for v in sorted(self.mine):
                giver = (v - direction) % n
                if giver != s and not self.sees(giver) and state.hands[v]:
                    text += said(
                        "ka_said_receives",
                        lang,
                        who=self.name(v),
                        cards=cards(state.hands[v], lang),
                        giver=self.name(giver),
                    )
        return text, set()

    def _play(self, event: Any, facts: Sequence[Fact]) -> tuple[str, set[int]]:
        state, lang = self.state, self.lang
        s = state.seats[event.player]
        value, tracks = moves_with(event.card, "knights" in state.config.boards)
        track = event.track or tracks[0]
        fact, passed = self.moved(s, track, value, "card")
        grail = state.grail
        shield = state.codex[event.peek - 1] if event.peek else None
        self.apply(event)
        who, shown = self.name(s), card(event.card, lang)
        if len(tracks) > 1:  # a sword says the track it chose (KA-6, KA-22a)
            text = said(
                "ka_say_play_on",
                lang,
                who=who,
                card=shown,
                track=self.track(track),
                move=self.move(fact, value, named=False),
            )
        else:
            text = said("ka_say_play", lang, who=who, card=shown, move=self.move(fact, value))
        text = self.with_passes(text, passed)
        comma = "，" if lang == "zh" else ", "
        if state.grail != grail:  # KA-22a
            text += comma + self.grail(state.grail)
        if event.peek:  # KA-22c: what the slot holds, to those who see it
            text += comma + said("ka_said_peek", lang, slot=event.peek)
            if self.sees(s) and shield is not None:
                text += said("ka_said_peek_saw", lang, shield=signed(shield))
        if event.scrolls:  # KA-22d
            squares = listed([str(q) for q in event.scrolls], lang)
            key = "ka_said_scroll" if len(event.scrolls) == 1 else "ka_said_scrolls"
            text += comma + said(key, lang, squares=squares)
        return text, self.own(facts, "card")

    def grail(self, at: int) -> str:
        if at == 0:
            return t("ka_said_grail_middle", self.lang)
        side = "white" if at > 0 else "black"
        return said("ka_said_grail", self.lang, knight=self.track(side), squares=abs(at))

    def _bonus(self, event: Any, facts: Sequence[Fact]) -> tuple[str, set[int]]:
        state, lang = self.state, self.lang
        s = state.seats[event.player]
        squares = state.bonuses[0][1]
        rewarded = state.rewarded  # KA-10: 3rd, then 2nd, then 1st; not ranked again
        place = len(rewarded) - rewarded.index(s) if s in rewarded else 1
        who, at = self.name(s), ordinal(place, lang)
        if event.track is None:
            self.apply(event)
            return said("ka_say_bonus_none", lang, who=who, place=at, squares=squares), set()
        fact, passed = self.moved(s, event.track, squares, "bonus")
        self.apply(event)
        text = said(
            "ka_say_bonus",
            lang,
            who=who,
            place=at,
            squares=squares,
            track=self.track(event.track),
            move=self.move(fact, squares, named=False),
        )
        return self.with_passes(text, passed), self.own(facts, "bonus")

    def _lift(self, event: Any, facts: Sequence[Fact]) -> tuple[str, set[int]]:
        state, lang = self.state, self.lang
        s = state.seats[event.player]
        who = self.name(s)
        if event.track is None:
            self.apply(event)
            return said("ka_say_lift_none", lang, who=who), set()
        row, stamps = state.progress[event.track], state.arrival[event.track]
        above = [
            self.name(o)
            for o in range(len(row))
            if o != s and row[o] == row[s] and stamps[o] > stamps[s]
        ]
        self.apply(event)
        text = said(
            "ka_say_lift",
            lang,
            who=who,
            track=self.track(event.track),
            whom=listed(above, lang),
        )
        return text, set()

    def _wager(self, event: Any, facts: Sequence[Fact]) -> tuple[str, set[int]]:
        who = self.name(self.state.seats[event.player])
        self.apply(event)
        return said("ka_say_wager", self.lang, who=who, track=self.track(event.track)), set()

    def _codex(self, event: Any, facts: Sequence[Fact]) -> tuple[str, set[int]]:
        self.apply(event)
        if self.seat is None:
            shields = self.items([signed(v) for v in event.shields])
            return said("ka_say_codex", self.lang, shields=shields), set()
        return said("ka_say_codex_hidden", self.lang, n=len(event.shields)), set()

    def _shield(self, event: Any, facts: Sequence[Fact]) -> tuple[str, set[int]]:
        state, lang = self.state, self.lang
        s = state.seats[event.player]
        value = state.codex[event.slot - 1] or 0
        self.apply(event)
        text = said("ka_say_shield", lang, who=self.name(s), slot=event.slot)
        if self.sees(s):
            text += (
                said("ka_said_shield", lang, points=pts(value, lang))
                if value
                else t("ka_said_blank", lang)
            )
        used = {
            i
            for i, f in enumerate(facts)
            if isinstance(f, ScoreChanged) and f.source == "codex" and f.seat == state.owners[s]
        }
        return text, used

    def _mercy(self, event: Any, facts: Sequence[Fact]) -> tuple[str, set[int]]:
        state, lang = self.state, self.lang
        s = state.seats[event.player]
        other = state.seats[event.other]
        first, _, receiver = mercy_terms(state, s)
        if first:
            receiver = other
        self.apply(event)
        deeds = []
        if event.give is not None and receiver is not None:
            # KA-22f: a codex shield changes hands face down; its giver and its receiver know it.
            open_ = "codex" not in state.config.boards or self.sees(s) or self.sees(receiver)
            deeds.append(
                said("ka_said_gives", lang, shield=signed(event.give), whom=self.name(receiver))
                if open_
                else said("ka_said_gives_hidden", lang, whom=self.name(receiver))
            )
        if event.take:
            taken = listed([str(v) for v in event.take], lang)
            key = "ka_said_takes_one" if len(event.take) == 1 else "ka_said_takes"
            deeds.append(said(key, lang, shields=taken))
        if not deeds:
            deeds.append(t("ka_said_swaps_nothing", lang))
        text = said(
            "ka_say_mercy",
            lang,
            who=self.name(s),
            other=self.name(other),
            deeds=("，" if lang == "zh" else ", ").join(deeds),
        )
        return text, set()

    def _split(self, event: Any, facts: Sequence[Fact]) -> tuple[str, set[int]]:
        state, lang = self.state, self.lang
        person = self.persons.index(event.player)
        other = 1 - person
        self.apply(event)
        opened = state.phase == "choose"  # KA-20: both have split, the piles lie open
        if self.sees_person(person) or opened:
            text = said("ka_say_split", lang, who=event.player, piles=self.piles(event.piles))
        else:
            text = said("ka_say_split_hidden", lang, who=event.player)
        if opened:
            text += said("ka_said_opened", lang)
            if self.seat == person:  # the other's piles, face down to this player until now
                text += said(
                    "ka_said_their_piles",
                    lang,
                    who=self.persons[other],
                    piles=self.piles(state.piles[other]),
                )
        return text, set()

    def piles(self, piles: Sequence[Sequence[str]]) -> str:
        return listed(
            [
                said("ka_said_pile", self.lang, n=i, cards=cards(pile, self.lang))
                for i, pile in enumerate(piles, 1)
            ],
            self.lang,
        )

    def _choose(self, event: Any, facts: Sequence[Fact]) -> tuple[str, set[int]]:
        state, lang = self.state, self.lang
        person = self.persons.index(event.player)
        other = 1 - person
        pile = state.piles[other][event.pile - 1] if state.piles[other] else []
        self.apply(event)
        text = said(
            "ka_say_choose",
            lang,
            who=event.player,
            other=self.persons[other],
            pile=event.pile,
            cards=cards(pile, lang),
        )
        if state.phase != "choose":  # both have chosen: KA-20
            text += t("ka_said_keep_other", lang)
        return text, set()

    def _assign(self, event: Any, facts: Sequence[Fact]) -> tuple[str, set[int]]:
        lang = self.lang
        person = self.persons.index(event.player)
        self.apply(event)
        if self.sees_person(person):
            laid = ("；" if lang == "zh" else "; ").join(
                said("ka_said_under", lang, colour=colour(c, lang), cards=cards(under, lang))
                for c, under in event.colours.items()
            )
            return said("ka_say_assign", lang, who=event.player, laid=laid), set()
        counts = {len(under) for under in event.colours.values()}
        n = counts.pop() if len(counts) == 1 else sum(len(u) for u in event.colours.values())
        return said("ka_say_assign_hidden", lang, who=event.player, n=n), set()
