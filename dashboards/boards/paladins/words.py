"""Paladins' components in words, for the sentences, the board and the tables alike: a card by
its catalogue name ("Aldric", "Stone Ring"; in Chinese as its names file gives it), a square
by where it lies and what it gives ("region 2, square 4 (2 VP)"), a reward in words
("1 silver, 2 provisions · 1 VP"), workers by colour ("two red workers"), and what each card
costs and does, for a hover or a table."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from dashboards.i18n import t
from dashboards.names import in_language
from dashboards.sentences import listed
from dashboards.spacing import written
from replay.games.paladins import RULES
from replay.games.paladins.catalogue import Catalogue
from replay.games.paladins.words import COLOURS

from .labels import LABELS

GAME = RULES.name
KINDS = ("paladin", "townsfolk", "outsider", "order", "favour", "tavern", "wall", "suspicion")
_TERM = re.compile(r"^([0-9]+)([a-z_]+)$")


def number(n: int, lang: str) -> str:
    """A small count in words ("two", "两"), larger ones in digits."""
    spelled = t("pa_numbers", lang).split()
    return spelled[n] if 0 <= n < len(spelled) else str(n)


def amount(count: int, unit: str, lang: str) -> str:
    """A count of one unit of the catalogue's grammar: "2 silver", "1 VP", "2 red workers",
    "1 debt repaid"."""
    if unit in COLOURS:
        key = "pa_worker_one" if count == 1 else "pa_workers"
        return t(key, lang).format(n=count, colour=t(f"pa_colour_{unit}", lang))
    one = f"pa_unit_{unit}_one"
    key = one if count == 1 and one in LABELS else f"pa_unit_{unit}"
    if key not in LABELS:  # a unit this version does not know: as written
        return f"{count}{unit}"
    return t(key, lang).format(n=count)


def _terms(reward: str | Mapping[str, int]) -> list[list[tuple[int, str]]]:
    """A reward as terms, each a list of alternatives (count, unit). A mapping is the engine's
    parsed reward; a string is as the catalogue writes it ("2silver 1vp", "-"), where "a/b"
    would offer a choice."""
    if not isinstance(reward, str):
        return [[(n, unit)] for unit, n in reward.items()]
    if not reward.strip() or reward.strip() == "-":
        return []
    out = []
    for term in reward.split():
        choices = []
        for choice in term.split("/"):
            found = _TERM.match(choice)
            choices.append((int(found.group(1)), found.group(2)) if found else (1, choice))
        out.append(choices)
    return out


def gives_parts(reward: str | Mapping[str, int], lang: str) -> list[str]:
    """A reward in words, what it gives first and its VP last: ["1 silver, 2 provisions",
    "1 VP"]; nothing for "-"."""
    things: list[str] = []
    points: list[str] = []
    for choices in _terms(reward):
        said = t("pa_or", lang).join(amount(n, unit, lang) for n, unit in choices)
        (points if all(unit == "vp" for _, unit in choices) else things).append(said)
    return [written(part, lang) for part in (t("pa_comma", lang).join(things), *points) if part]


def gives(reward: str | Mapping[str, int], lang: str) -> str:
    """A reward in words, e.g. a square's "1 silver, 2 provisions · 1 VP"; "nothing" for "-"."""
    return " · ".join(gives_parts(reward, lang)) or t("pa_nothing", lang)


def cost(price: str | Mapping[str, int], lang: str) -> str:
    """A cost in words ("1 silver, 1 provision"), "free" where it is nothing."""
    parts = [amount(n, unit, lang) for choices in _terms(price) for n, unit in choices]
    return t("pa_comma", lang).join(parts) or t("pa_free", lang)


def workers(colours: Iterable[str], lang: str) -> str:
    """Workers by colour, counted: "a black worker", "two red workers", "two white, green and
    blue workers"; "no worker" for none."""
    counts: dict[str, int] = {}
    for colour in colours:
        counts[colour] = counts.get(colour, 0) + 1
    if not counts:
        return t("pa_no_worker", lang)
    if len(counts) == 1:
        [(colour, n)] = counts.items()
        key = "pa_crew_one" if n == 1 else "pa_crew_same"
        return t(key, lang).format(n=number(n, lang), colour=_colour(colour, lang))
    items = [
        t("pa_crew_item" if n == 1 else "pa_crew_items", lang).format(
            n=number(n, lang), colour=_colour(colour, lang)
        )
        for colour, n in counts.items()
    ]
    return t("pa_crew_mixed", lang).format(items=listed(items, lang))


def offer(colours: Sequence[str], lang: str) -> str:
    """A tavern card's workers, short: "two blue, red and white" / "蓝×2、红、白"."""
    counts: dict[str, int] = {}
    for colour in colours:
        counts[colour] = counts.get(colour, 0) + 1
    items = [
        (t("pa_short_many", lang) if n > 1 else "{colour}").format(
            n=number(n, lang), count=n, colour=t(f"pa_short_{colour}", lang)
        )
        for colour, n in counts.items()
    ]
    return listed(items, lang) if lang != "zh" else "、".join(items)


def slots(text: str | Sequence[str], lang: str) -> str:
    """A favour's slots: "workers: white and any", "workers: two red"."""
    counts: dict[str, int] = {}
    for slot in text.split() if isinstance(text, str) else text:
        counts[slot] = counts.get(slot, 0) + 1
    items = [
        (
            "{colour}"
            if n == 1
            else t("pa_slot_many_any" if slot == "any" else "pa_slot_many", lang)
        ).format(
            n=number(n, lang),
            colour=t("pa_slot_any", lang) if slot == "any" else _colour(slot, lang),
        )
        for slot, n in counts.items()
    ]
    return t("pa_slots", lang).format(items=listed(items, lang))


def _colour(colour: str, lang: str) -> str:
    key = f"pa_colour_{colour}"
    return t(key, lang) if key in LABELS else colour


def act(name: str, lang: str) -> str:
    """A personal-board space or an act of the abilities in words: "build a wall"."""
    key = f"pa_act_{name}"
    return t(key, lang) if key in LABELS else name


def ability(found: Any, lang: str) -> str:
    """An ability (the engine's parsed `Ability`) in words."""
    kind = found.kind
    if kind == "none":
        return ""
    if kind == "bonus":
        return t("pa_ability_bonus", lang).format(attrs=_plus(found.attrs, lang))
    if kind == "discount":
        return t("pa_ability_discount", lang).format(
            act=act(found.act, lang), cost=cost(found.cost, lang)
        )
    return t(f"pa_ability_{kind}", lang).format(
        act=act(found.act or "", lang), reward=gives(found.reward, lang)
    )


def _plus(amounts: Mapping[str, int], lang: str) -> str:
    return t("pa_comma", lang).join(f"+{amount(n, unit, lang)}" for unit, n in amounts.items())


def counted(counter: str, n: int, lang: str, per: bool = False) -> str:
    """One of the end game's counters, with its count: "5 walls", "6 in every attribute";
    `per` one of them: "wall" ("1 VP per wall")."""
    key = f"pa_counter_{counter}" + ("_one" if per and n == 1 else "")
    return t(key, lang).format(n=n) if key in LABELS else f"{n} {counter}"


def condition(clauses: Sequence[tuple[str, int]], lang: str) -> str:
    """An order's or an end effect's condition: "at least 5 walls"."""
    return t("pa_at_least", lang).format(
        what=listed([counted(c, n, lang) for c, n in clauses], lang)
    )


def end(found: Any, lang: str) -> str:
    """An outsider's end effect (the engine's parsed `End`) in words."""
    if found.kind == "none":
        return ""
    points = amount(found.vp, "vp", lang)
    if found.kind == "flat":
        return points
    if found.kind == "per":
        return t("pa_end_per", lang).format(
            vp=points, per=counted(found.counter, found.per, lang, per=True)
        )
    return t("pa_end_if", lang).format(vp=points, condition=condition(found.condition, lang))


@functools.cache
def _candidates() -> tuple[Catalogue, ...]:
    from dashboards.data import warehouse_path
    from ingest.files.catalogues import Library

    library = Library(warehouse_path())
    assert RULES.catalogue is not None
    default = RULES.catalogue.default
    found = []
    for pair in sorted(library.known(GAME), key=lambda pair: pair != default):
        try:
            found.append(library.find(GAME, *pair))
        except ValueError:  # a file that no longer reads: another may hold the card
            continue
    return tuple(found)


def catalogue(given: Catalogue | None = None) -> Sequence[Catalogue]:
    """The catalogues to look a card up in: the match's own first, then those on disk."""
    return ((given,) if given is not None else ()) + _candidates()


def entry(card: str, given: Catalogue | None = None) -> tuple[str, Catalogue] | None:
    """The kind of the card with id `card`, and the catalogue that holds it."""
    for cat in catalogue(given):
        for kind in (*KINDS, "square"):
            if card in cat.entries.get(kind, {}):
                return kind, cat
    return None


def place(card: str, cat: Catalogue) -> tuple[int, int]:
    """A square's region and its number within the region, as the board counts them."""
    region = cat.entry("square", card).region
    n = [sq for sq in cat.ids("square") if cat.entry("square", sq).region == region].index(card)
    return region, n + 1


def name(card: str, lang: str, given: Catalogue | None = None) -> str:
    """A card by its catalogue name; a square by where it lies and what it gives; a wall by
    what it gives; a tavern card by its workers; a suspicion card by its tax. The id where no
    catalogue holds it."""
    found = entry(card, given)
    if found is None:
        return card
    kind, cat = found
    data = cat.entry(kind, card)
    if getattr(data, "name", ""):
        return in_language(GAME, cat.name, cat.version, kind, card, lang) or str(data.name)
    if kind == "square":
        region, n = place(card, cat)
        return t("pa_square", lang).format(region=region, n=n, gives=gives(data.reward, lang))
    if kind == "wall":
        return t("pa_wall", lang).format(gives=gives(data.reward, lang))
    if kind == "tavern":
        return offer(data.workers.split(), lang)
    if kind == "suspicion":
        return suspicion(card, lang, cat)
    return card


def suspicion(card: str, lang: str, given: Catalogue | None = None) -> str:
    """A suspicion card by its tax, and the inquisition where it carries one (PA-58)."""
    found = entry(card, given)
    if found is None:
        return card
    data = found[1].entry("suspicion", card)
    said = t("pa_tax", lang).format(n=data.tax)
    return said + (t("pa_with_inquisition", lang) if data.inquisition else "")


def price(card: str, lang: str, given: Catalogue | None = None) -> str:
    """What taking the card costs, as printed ("" for a card with no cost of its own)."""
    found = entry(card, given)
    if found is None:
        return ""
    kind, cat = found
    data = cat.entry(kind, card)
    if kind == "townsfolk":
        return amount(data.cost, "silver", lang) if data.cost else t("pa_free", lang)
    if kind == "favour":
        return t("pa_semicolon", lang).join((slots(data.slots, lang), cost(data.cost, lang)))
    if kind == "outsider":
        return t("pa_needs", lang).format(strength=data.strength, faith=data.faith)
    if kind == "paladin":
        return workers(data.workers.split(), lang)
    if kind == "tavern":
        return workers(data.workers.split(), lang)
    return ""


def effect(card: str, lang: str, given: Catalogue | None = None, vp: int | None = None) -> str:
    """What the card does, in words: a townsfolk's quest, its reward on joining and its
    ability; an outsider's attack, convert and end rewards; an order's goal (`vp`: what it
    scores, where known); a favour's effect; a paladin's bonus and ability; a square's or a
    wall's reward."""
    found = entry(card, given)
    if found is None:
        return ""
    kind, cat = found
    data = cat.entry(kind, card)
    parsed = cat.parsed[kind][card]
    parts: list[str] = []

    def add(label: str, text: str) -> None:
        if text:
            parts.append(t(label, lang).format(text=text))

    if kind == "townsfolk":
        add("pa_eff_quest", gives(parsed["quest"], lang))
        add("pa_eff_recruit", gives(parsed["recruit"], lang) if parsed["recruit"] else "")
        add("pa_eff_ability", ability(parsed["ability"], lang))
    elif kind == "outsider":
        add("pa_eff_attack", gives(parsed["attack"], lang))
        add("pa_eff_convert", gives(parsed["convert"], lang))
        add("pa_eff_end", end(parsed["end"], lang))
    elif kind == "order":
        goal = condition(parsed["condition"], lang)
        if vp is not None:
            goal = t("pa_order_vp", lang).format(goal=goal, vp=amount(vp, "vp", lang))
        add("pa_eff_order", goal)
    elif kind == "favour":
        done = parsed["effect"]
        add(
            "pa_eff_favour",
            t(f"pa_favour_{done}", lang) if isinstance(done, str) else gives(done, lang),
        )
    elif kind == "paladin":
        add("pa_eff_bonus", _plus(parsed["bonus"], lang))
        add("pa_eff_ability", ability(parsed["ability"], lang))
    elif kind in ("square", "wall"):
        add("pa_eff_gives", gives(data.reward, lang))
    elif kind == "suspicion":
        add("pa_eff_gives", suspicion(card, lang, cat))
    return t("pa_semicolon", lang).join(parts)
