"""Albus Academy's components and places in words, for the sentences, the boards and the
tables alike: a tile by what it does ("will or shard"), a homework card by its catalogue name,
cost and ability, a position by where it lies on the board ("the top-left corner")."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from dashboards.i18n import t
from dashboards.names import in_language
from dashboards.sentences import listed, said
from replay.game import HIDDEN
from replay.games.albus_academy import RULES
from replay.games.albus_academy.catalogue import CORNERS, Catalogue, Homework

from .labels import LABELS

GAME = RULES.name

# A term of a card (albus-catalogue.md §3) → the label of its words (`counted`).
TERMS = {
    "shard+": "aa_term_shard_gain",
    "will+": "aa_term_will_gain",
    "shard-": "aa_term_shard_pay",
    "will-": "aa_term_will_pay",
    "ready+": "aa_term_ready",
    "tile+": "aa_term_tile",
    "prestige+": "aa_term_prestige",
    "spell_discount+": "aa_term_spell_discount",
    "item_discount+": "aa_term_item_discount",
    "shard_bonus+": "aa_term_shard_bonus",
    "will_bonus+": "aa_term_will_bonus",
    "per_spell+": "aa_term_per_spell",
    "per_item+": "aa_term_per_item",
    "per_tile+": "aa_term_per_tile",
    "per_link+": "aa_term_per_link",
    "leftover/": "aa_term_leftover",
}
FIELDS = {
    "effect": "aa_field_effect",
    "use": "aa_field_use",
    "ongoing": "aa_field_ongoing",
    "end": "aa_field_end",
}
SIDES = ("aa_side_n", "aa_side_e", "aa_side_s", "aa_side_w")  # edges N E S W (AA-25)


def counted(key: str, n: int, lang: str, **fields: object) -> str:
    """The label `key` filled with `n`, in its singular form (`key_one`) where there is one."""
    one = f"{key}_one"
    return t(one if n == 1 and one in LABELS else key, lang).format(n=n, **fields)


def low(text: str, lang: str) -> str:
    """A label in the middle of an English sentence: its capital dropped."""
    return text[:1].lower() + text[1:] if lang == "en" else text


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def every(items: Iterable[str], lang: str) -> str:
    """A list in words: "A, B and C"; in Chinese "A、B、C", which keeps a name or a number
    apart from the next one better than the shared list's 和 with no space."""
    return listed(items, lang) if lang == "en" else "、".join(items)


def action(word: str, lang: str) -> str:
    return t(f"aa_act_{word}", lang)


def _steps(actions: str) -> list[tuple[list[str], int]]:
    """A tile's steps, each its alternatives and how many times running it comes."""
    out: list[tuple[list[str], int]] = []
    for part in actions.split("+"):
        words = part.split("/")
        if out and out[-1][0] == words:
            out[-1] = (words, out[-1][1] + 1)
        else:
            out.append((words, 1))
    return out


def tile_words(actions: str | None, lang: str) -> str:
    """What a tile does (its `actions`): "will or shard", "will ×2 + shard"."""
    if not actions:
        return "?"
    either = t("aa_or", lang)
    return " + ".join(
        either.join(action(w, lang) for w in words) + (f" ×{n}" if n > 1 else "")
        for words, n in _steps(actions)
    )


def tile_label(actions: str | None, lang: str) -> str:
    """What a tile does, short, for a board's cell: a line a step, alternatives joined by /,
    capitalised (figure text: plotly's <br> breaks the line)."""
    if not actions:
        return ""
    lines = []
    for words, n in _steps(actions):
        named = [capital(action(w, lang)) for w in words]
        line = "/".join(named)
        if _width(line) > 10 and len(named) > 1:  # a phone's cell holds ten letters a line
            line = "/<br>".join(named)
        lines.append(line + (f" ×{n}" if n > 1 else ""))
    return "<br>+ ".join(lines)


def _width(text: str) -> int:
    """A line's width in Latin letters: a Chinese character is about two."""
    return sum(1 if ord(ch) < 0x2E80 else 2 for ch in text)


def position(at: Any, rows: int, cols: int, lang: str) -> str:
    """A position in words, without an article: "top-left corner", "middle row, 2nd from left"."""
    r, c = int(at[0]), int(at[1])
    last_r, last_c = rows - 1, cols - 1
    if r in (0, last_r) and c in (0, last_c):
        corner = ("n" if r == 0 else "s") + ("w" if c == 0 else "e")
        return t(f"aa_corner_{corner}", lang)
    if r == 0:
        row = t("aa_row_top", lang)
    elif r == last_r:
        row = t("aa_row_bottom", lang)
    elif rows == 3:
        row = t("aa_row_middle", lang)
    else:
        row = said("aa_row_nth", lang, n=_ordinal(r + 1, lang))
    return said("aa_at", lang, row=row, col=_ordinal(c + 1, lang))


def _ordinal(n: int, lang: str) -> str:
    if lang != "en":
        return str(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def sides(edges: str | None, lang: str) -> str:
    """The sides of a placed tile that carry a connector half ("top, right")."""
    if not edges:
        return ""
    return t("aa_comma", lang).join(
        t(SIDES[i], lang) for i, mark in enumerate(edges) if mark != "-"
    )


# Homework cards.


def card(cat: Catalogue | None, card_id: str) -> Homework | None:
    return cat.homework.get(card_id) if cat is not None else None


def name(cat: Catalogue | None, card_id: str, lang: str) -> str:
    """A homework card's name in `lang` where the catalogue's names file gives one, else its
    catalogue name (its id where the catalogue is not known)."""
    found = card(cat, card_id)
    if found is None or cat is None:
        return card_id
    own = in_language(GAME, cat.name, cat.version, "homework", card_id, lang)
    return own or found.name or card_id


def kind(cat: Catalogue | None, card_id: str, lang: str) -> str:
    found = card(cat, card_id)
    return t(f"aa_kind_{found.kind}", lang) if found is not None else ""


def cost(cat: Catalogue | None, card_id: str, lang: str) -> str:
    """A card's cost: "7 will" for a spell, "4 shards" for an item."""
    found = card(cat, card_id)
    if found is None:
        return ""
    return counted("aa_cost_will" if found.kind == "spell" else "aa_cost_shards", found.cost, lang)


def phrase(cat: Catalogue | None, card_id: str, lang: str) -> str:
    """A card by its kind and name: "the spell Tempest" / "法术 风暴术"."""
    found = card(cat, card_id)
    if found is None:
        return card_id
    return t(f"aa_the_{found.kind}", lang).format(name=name(cat, card_id, lang))


def does(cat: Catalogue | None, card_id: str, lang: str) -> str:
    """What a card does beyond its prestige, field by field: "use: pay 1 shard, +3 will"."""
    found = card(cat, card_id)
    if found is None or cat is None:
        return ""
    parts = []
    for field, terms in cat.terms.get(card_id, {}).items():
        words = t("aa_comma", lang).join(counted(TERMS[term], n, lang) for term, n in terms)
        parts.append(t(FIELDS[field], lang).format(what=words))
    return t("aa_semicolon", lang).join(parts)


def card_detail(cat: Catalogue | None, card_id: str, lang: str, ability: bool = True) -> str:
    """Cost, prestige and (with `ability`) what it does, in one line: "7 will, 6 prestige"."""
    found = card(cat, card_id)
    if found is None:
        return ""
    worth = counted("aa_prestige_n", found.prestige, lang)
    said = t("aa_comma", lang).join([cost(cat, card_id, lang), worth])
    more = does(cat, card_id, lang) if ability else ""
    return said + (t("aa_semicolon", lang) + more if more else "")


# The catalogue a view was played with.


def catalogue_for(view: dict[str, Any]) -> Catalogue | None:
    """The catalogue the components of `view` come from. A snapshot names its tiles and cards
    by id only, not the catalogue: the game's default is tried first, then every other one on
    disk, and the first that holds every id seen (and prints the actions the boards show) is
    the one. None where none fits: the ids are then shown as they are."""
    tiles: set[str] = {*view.get("public_tiles", ()), *view.get("taken", ())}
    cards: set[str] = set(view.get("public_homework", ()))
    shown: set[tuple[str, str]] = set()
    for me in view.get("seats", {}).values():
        cards.update(me["private"]["homework"], me["spells"], me["items"])
        for cell in me["board"]:
            if cell["tile"] is not None and cell["tile"] not in CORNERS:
                shown.add((cell["tile"], cell["actions"] or ""))
    cards.discard(HIDDEN)
    return _fitting(frozenset(tiles), frozenset(cards), frozenset(shown))


@functools.lru_cache(maxsize=64)
def _fitting(
    tiles: frozenset[str], cards: frozenset[str], shown: frozenset[tuple[str, str]]
) -> Catalogue | None:
    for cat in candidates():
        if (
            tiles.issubset(cat.tiles)
            and cards.issubset(cat.homework)
            and all(tile in cat.tiles and cat.tiles[tile].actions == a for tile, a in shown)
        ):
            return cat
    return None


def candidates() -> list[Catalogue]:
    from dashboards.data import warehouse_path
    from ingest.files.catalogues import Library

    library = Library(warehouse_path())
    assert RULES.catalogue is not None
    default = RULES.catalogue.default
    pairs = sorted(library.known(GAME), key=lambda pair: pair != default)
    found = []
    for pair in pairs:
        try:
            found.append(library.find(GAME, *pair))
        except ValueError:  # a file that no longer reads: another may fit
            continue
    return found
