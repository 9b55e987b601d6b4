"""Paladins' components in words, for the sentences, the board and the tables alike: a card by
its catalogue name ("Aldric", "Stone Ring"), a square or a reward by what it gives ("1 silver
or 2 provisions, 1 VP"), workers by colour, and each card's cost and effect for a hover."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from dashboards.i18n import t
from dashboards.sentences import listed
from replay.games.paladins import RULES
from replay.games.paladins.catalogue import Catalogue

from .labels import LABELS

GAME = RULES.name
KINDS = ("paladin", "townsfolk", "outsider", "order", "favour", "tavern", "wall", "suspicion")


def amount(count: int, unit: str, lang: str) -> str:
    """ "2 silver", "1 VP", "2 red workers"."""
    if unit in ("white", "green", "blue", "red", "black", "purple"):
        key = "pa_worker_one" if count == 1 else "pa_workers"
        return t(key, lang).format(n=count, colour=t(f"pa_colour_{unit}", lang))
    one = f"pa_unit_{unit}_one"
    key = one if count == 1 and one in LABELS else f"pa_unit_{unit}"
    return f"{count} {t(key, lang)}"


def gives(text: str, lang: str) -> str:
    """A catalogue's reward as written ("1silver/2prov 1vp") in words: "1 silver or 2
    provisions, 1 VP"; "-" is nothing."""
    if not text or text == "-":
        return t("pa_nothing", lang)
    parts = []
    for term in text.split(" "):
        choices = []
        for choice in term.split("/"):
            digits = "".join(c for c in choice if c.isdigit())
            unit = choice[len(digits) :]
            choices.append(amount(int(digits or 1), unit, lang) if unit else choice)
        parts.append(t("pa_or", lang).join(choices))
    return t("pa_comma", lang).join(parts)


def workers(colours: Iterable[str], lang: str) -> str:
    """Workers by colour, counted: "2 red workers and 1 white worker"."""
    counts: dict[str, int] = {}
    for colour in colours:
        counts[colour] = counts.get(colour, 0) + 1
    return listed([amount(n, c, lang) for c, n in counts.items()], lang) or t("pa_nothing", lang)


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


def entry(card: str, given: Catalogue | None = None) -> tuple[str, dict[str, Any]] | None:
    """The kind and the entry (as written) of the card with id `card`."""
    for cat in catalogue(given):
        for kind in (*KINDS, "square"):
            found = cat.entries.get(kind, {}).get(card)
            if found is not None:
                return kind, msgspec.to_builtins(found)
    return None


def name(card: str, lang: str, given: Catalogue | None = None) -> str:
    """A card by its name, a square or a wall by what it gives, a tavern card by its workers;
    the id where no catalogue holds it."""
    found = entry(card, given)
    if found is None:
        return card
    kind, data = found
    if data.get("name"):
        return str(data["name"])
    if kind in ("square", "wall"):
        return gives(str(data.get("reward", "-")), lang)
    if kind == "tavern":
        return workers(str(data["workers"]).split(), lang)
    if kind == "suspicion":
        return t("pa_tax", lang).format(n=data.get("tax", 0))
    return card


def detail(card: str, lang: str, given: Catalogue | None = None) -> str:
    """What a card costs and does, for a hover: each field of its entry in words."""
    found = entry(card, given)
    if found is None:
        return ""
    kind, data = found
    fields = []
    for field, value in data.items():
        if field in ("id", "name"):
            continue
        shown = str(value)
        if field in ("reward", "quest", "recruit", "attack", "convert", "effect", "cost"):
            shown = gives(shown, lang)
        elif field == "workers":
            shown = workers(shown.split(), lang)
        fields.append(f"{t(f'pa_field_{field}', lang)}: {shown}")
    return f"{t(f'pa_kind_{kind}', lang)} · " + t("pa_semicolon", lang).join(fields)
