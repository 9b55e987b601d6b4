"""The catalogue's effect vocabulary (paladins-catalogue.md §3): its strings parsed into
values the engine interprets. Nothing here knows a card.

Every parser raises ValueError with what is wrong; the catalogue adds the card and field.
"""

from __future__ import annotations

import re
from typing import Literal

import msgspec

from .words import COLOURS

RESOURCE_UNITS = ("silver", "prov", "faith", "str", "inf", "vp", "repay")
UNITS = (*RESOURCE_UNITS, *COLOURS)
ATTRS = ("faith", "str", "inf")
ACTS = (
    "develop",
    "recruit",
    "hunt",
    "trade",
    "pray",
    "scheme",
    "commission",
    "build_wall",
    "garrison",
    "absolve",
    "attack",
    "convert",
    "favour",
)
COUNTERS = (
    "monks",
    "outposts",
    "walls",
    "jars",
    "workshops",
    "townsfolk",
    "attacked",
    "converted",
    "regions",
    "faith",
    "str",
    "inf",
    "lowest",
    "silver",
    "prov",
    "repaid",
)
# What each act costs, so a discount can name only what is there to lower (§3).
ACT_COSTS: dict[str, tuple[str, ...]] = {
    "develop": ("silver",),
    "recruit": ("silver",),
    "pray": ("silver",),
    "absolve": ("silver",),
    "convert": ("silver",),
    "attack": ("silver",),
    "commission": ("prov",),
    "build_wall": ("prov",),
    "garrison": ("prov",),
    "favour": ("silver", "prov"),
}

Amounts = dict[str, int]  # unit → how many


class Ability(msgspec.Struct, frozen=True, kw_only=True):
    """`kind`: action | rival | round_start | round_end | discount | bonus | none."""

    kind: Literal["action", "rival", "round_start", "round_end", "discount", "bonus", "none"]
    act: str | None = None
    reward: Amounts = {}  # action, rival, round_start, round_end
    cost: Amounts = {}  # discount: how much less
    attrs: Amounts = {}  # bonus


class End(msgspec.Struct, frozen=True, kw_only=True):
    """An outsider's end effect: `vp` flat, per `per` of `counter`, or if `condition` holds."""

    kind: Literal["none", "flat", "per", "if"]
    vp: int = 0
    per: int = 1
    counter: str | None = None
    condition: tuple[tuple[str, int], ...] = ()


_TERM = re.compile(r"^([1-9][0-9]*)([a-z_]+)$")


def _terms(text: str, allowed: tuple[str, ...], what: str) -> Amounts:
    if text != text.strip() or "  " in text or not text:
        raise ValueError(f"{what} {text!r}: words are separated by single spaces")
    out: Amounts = {}
    for word in text.split(" "):
        match = _TERM.match(word)
        if not match:
            raise ValueError(f"{what} {text!r}: {word!r} is not a count and a unit, e.g. 2silver")
        count, unit = int(match.group(1)), match.group(2)
        if unit not in allowed:
            raise ValueError(f"{what} {text!r}: unknown unit {unit!r}; known: {', '.join(allowed)}")
        if unit in out:
            raise ValueError(f"{what} {text!r}: {unit} appears twice")
        out[unit] = count
    return out


def reward(text: str) -> Amounts:
    """`-` or `N unit {N unit}`, e.g. `2silver 1inf 1red`."""
    return {} if text == "-" else _terms(text, UNITS, "reward")


def cost(text: str) -> Amounts:
    """`-` or silver and/or provisions, e.g. `1silver 1prov`."""
    return {} if text == "-" else _terms(text, ("silver", "prov"), "cost")


def attrs(text: str) -> Amounts:
    """`N attr {N attr}` of faith, str, inf, e.g. `1faith 2inf`."""
    return _terms(text, ATTRS, "attributes")


def colours(text: str, allow_any: bool) -> tuple[str, ...]:
    """Worker colours (`slots` may also say `any`), e.g. `blue any`."""
    allowed = (*COLOURS, "any") if allow_any else COLOURS
    words = tuple(text.split(" "))
    bad = [w for w in words if w not in allowed]
    if bad or not text:
        raise ValueError(
            f"{text!r}: {', '.join(repr(b) for b in bad) or 'nothing'} "
            f"is not one of {', '.join(allowed)}"
        )
    return words


def ability(text: str) -> Ability:
    if text == "-":
        return Ability(kind="none")
    if text.startswith("bonus: "):
        return Ability(kind="bonus", attrs=attrs(text.removeprefix("bonus: ")))
    for kind in ("round_start", "round_end"):
        if text.startswith(kind + ": "):
            return Ability(kind=kind, reward=reward(text.removeprefix(kind + ": ")))
    head, sep, tail = text.partition(": ")
    words = head.split(" ")
    if not sep or len(words) != 2 or words[0] not in ("action", "rival", "discount"):
        raise ValueError(
            f"ability {text!r}: not one of 'action ACT: reward', 'rival ACT: "
            "reward', 'discount ACT: cost', 'round_start: reward', "
            "'round_end: reward', 'bonus: attrs', '-'"
        )
    kind, act = words
    if act not in ACTS:
        raise ValueError(f"ability {text!r}: unknown act {act!r}; known: {', '.join(ACTS)}")
    if kind == "discount":
        return Ability(kind="discount", act=act, cost=cost(tail))
    return Ability(kind=kind, act=act, reward=reward(tail))  # type: ignore[arg-type]


def condition(text: str) -> tuple[tuple[str, int], ...]:
    """`counter >= N {and counter >= N}`."""
    clauses = []
    for clause in text.split(" and "):
        parts = clause.split(" ")
        if len(parts) != 3 or parts[1] != ">=" or not parts[2].isdigit():
            raise ValueError(f"condition {text!r}: {clause!r} is not 'counter >= N'")
        if parts[0] not in COUNTERS:
            raise ValueError(
                f"condition {text!r}: unknown counter {parts[0]!r}; known: {', '.join(COUNTERS)}"
            )
        clauses.append((parts[0], int(parts[2])))
    return tuple(clauses)


_FLAT = re.compile(r"^([1-9][0-9]*)vp$")
_PER = re.compile(r"^([1-9][0-9]*)vp per ([1-9][0-9]*) ([a-z_]+)$")
_IF = re.compile(r"^([1-9][0-9]*)vp if (.+)$")


def end(text: str) -> End:
    """`-`, `N vp`, `N vp per K counter` or `N vp if condition` (written `3vp if …`)."""
    if text == "-":
        return End(kind="none")
    if match := _FLAT.match(text):
        return End(kind="flat", vp=int(match.group(1)))
    if match := _PER.match(text):
        counter = match.group(3)
        if counter not in COUNTERS:
            raise ValueError(
                f"end {text!r}: unknown counter {counter!r}; known: {', '.join(COUNTERS)}"
            )
        return End(kind="per", vp=int(match.group(1)), per=int(match.group(2)), counter=counter)
    if match := _IF.match(text):
        return End(kind="if", vp=int(match.group(1)), condition=condition(match.group(2)))
    raise ValueError(f"end {text!r}: not '-', 'Nvp', 'Nvp per K counter' or 'Nvp if condition'")


def effect(text: str) -> Amounts | str:
    """A favour's effect: a reward, or the words `recruit` or `pray` (PA-51, PA-52)."""
    return text if text in ("recruit", "pray") else reward(text)
