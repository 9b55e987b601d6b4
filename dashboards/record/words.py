"""The Record page's buttons in words: each token of an event as the game names it (a card by
its name, a hex by its place), with the field it sets where the value alone would not say."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dashboards.boards import board
from dashboards.i18n import every_label, t

from .menu import Token

# Field words every game may use (a field's name in the log, its words on a button).
FIELDS: dict[str, dict[str, str]] = {
    "from": {"en": "from", "zh": "从"},
    "to": {"en": "to", "zh": "到"},
    "hex": {"en": "at", "zh": "位于"},
    "at": {"en": "at", "zh": "位于"},
    "city": {"en": "city", "zh": "城市"},
    "knights": {"en": "knights", "zh": "骑士"},
    "loot": {"en": "loot", "zh": "掠夺"},
    "pay": {"en": "pay", "zh": "支付"},
    "workers": {"en": "workers", "zh": "工人"},
    "keep": {"en": "keep", "zh": "保留"},
    "silver": {"en": "silver", "zh": "银币"},
    "spot": {"en": "spot", "zh": "位置"},
    "rotation": {"en": "rotation", "zh": "旋转"},
    "peek": {"en": "look at slot", "zh": "查看位置"},
    "slot": {"en": "slot", "zh": "位置"},
    "pile": {"en": "pile", "zh": "牌堆"},
    "top": {"en": "on top", "zh": "放顶部"},
    "bottom": {"en": "at the bottom", "zh": "放底部"},
    "track": {"en": "track", "zh": "轨道"},
    "ready": {"en": "ready", "zh": "就绪"},
}
NONE = {"en": "none", "zh": "无"}


def _field(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def _hex(value: list[int]) -> str:
    return "(" + ", ".join(str(v).replace("-", "−") for v in value) + ")"


def value_words(game: str, name: str, value: Any, lang: str) -> str:
    """A value alone: a component by its name, a hex by its place, a word by its label."""
    if value is None:
        return NONE.get(lang, NONE["en"])
    if isinstance(value, bool):
        return t("yes" if value else "no", lang)
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return _hex(value)
    if isinstance(value, dict):
        return " ".join(value_words(game, k, v, lang) for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(value_words(game, name, v, lang) for v in value) or NONE[lang]
    if isinstance(value, str):
        named = getattr(board(game), "component", None)
        if named is not None:
            try:
                said = named(value, lang)
            except (KeyError, ValueError, IndexError):  # a word, not a component
                said = value
            if said != value:
                return str(said)
        labels = every_label()
        for key in (f"{_field(name)}_{value}", value, f"track_{value}", f"terrain_{value}"):
            if key in labels:
                return t(key, lang)
    return str(value)


def token_words(game: str, token: Token, lang: str, players: Sequence[str] = ()) -> str:
    if token.name == "player":
        # a seat none of the header's players is (a lancelot colour) is named by its game
        seat_name = getattr(board(game), "seat_name", None)
        if seat_name is not None and players:
            return str(seat_name(str(token.value), players, lang))
        return str(token.value)
    if token.name == "kind":
        return t(f"event_{token.value}", lang)
    said = value_words(game, token.name, token.value, lang)
    field = FIELDS.get(_field(token.name))
    if field is not None and not isinstance(token.value, str | dict):
        return f"{field.get(lang, field['en'])} {said}"
    if field is not None and _field(token.name) in ("from", "to", "hex", "at", "city"):
        return f"{field.get(lang, field['en'])} {said}"
    return said


def button_words(
    game: str, tokens: tuple[Token, ...], lang: str, players: Sequence[str] = ()
) -> str:
    """A button's tokens in words; `players`, the match's, to tell a seat from a colour."""
    return " · ".join(token_words(game, token, lang, players) for token in tokens)
