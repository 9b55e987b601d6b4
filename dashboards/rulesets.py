"""The rules a match was played under, in words: its rule set, the settings changed over it
(`--set`, a header's `rules`), the catalogue it named. The warehouse files a match under
`ruleset_key`, a rule set's id and the JSON of its changed settings
(`albus-academy/standard {"final_turns":"one_each"}`); a page says it as "Albus Academy
standard, final turns: one each".

Each game's words for these are its package's `rulesets` module beside its board
(`dashboards.boards.<package>.rulesets`): `LABELS` names its rule sets (`ruleset:<id>`), every
setting of its ruleset (`setting:<game>/<field>`), a setting's string values where they need
words of their own (`setting:<game>/<field>=<value>`) and the catalogues squire ships
(`catalogue:<game>/<name>/<version>`); `VALUES` gives, field by field ("" for any field), the
label of a string a setting holds; `SPOKEN`, where a game has it, says the strings of a field
that are written in a grammar of its own. A name it does not know (a rule set of someone's
own) is shown as it was given."""

from __future__ import annotations

import importlib
import json
from collections.abc import Mapping
from types import ModuleType
from typing import Any

import polars as pl

from dashboards.i18n import every_label, t
from replay.log import Header
from replay.registry import GAMES, PACKAGES

# Between the rule set and its changed settings, between two settings, between the items of
# a value and between a setting's name and its value, by language.
_AFTER_RULESET = {"en": ", ", "zh": "，"}
_BETWEEN = {"en": "; ", "zh": "；"}
_ITEMS = {"en": ", ", "zh": "、"}
_IS = {"en": ": ", "zh": "："}


def _words(game: str) -> ModuleType:
    return importlib.import_module(f"dashboards.boards.{PACKAGES[game]}.rulesets")


def _lang(lang: str) -> str:
    return lang if lang in _ITEMS else "en"


def game_of(ruleset: str) -> str | None:
    """The game a rule set belongs to: the one that registers it, or whose id starts it."""
    for name, game in GAMES.items():
        if ruleset in game.rulesets:
            return name
    prefix = ruleset.partition("/")[0]
    return prefix if prefix in GAMES else None


def ruleset_name(ruleset: str, lang: str, with_game: bool = True) -> str:
    """ "Knight Academy advanced" (or "advanced" alone, where the game is named already); a
    rule set no game registers, as its id."""
    game = game_of(ruleset)
    key = f"ruleset:{ruleset}"
    if game is None or key not in every_label():
        return ruleset
    own = t(key, lang)
    if not with_game:
        return own
    return t("ruleset_of_game", lang).format(game=t(game, lang), ruleset=own)


def setting_name(game: str, field: str, lang: str) -> str:
    """A setting of the game's ruleset by its name: "final turns"."""
    key = f"setting:{game}/{field}"
    return t(key, lang) if key in every_label() else field.replace("_", " ")


def value_words(game: str, field: str, value: Any, lang: str) -> str:
    """A setting's value in words: numbers as numbers (a true minus sign), lists item by item,
    a table key by key, a string by the game's word for it."""
    lang = _lang(lang)
    if isinstance(value, bool):
        return t("yes" if value else "no", lang)
    if isinstance(value, (int, float)):
        return str(value).replace("-", "−")
    if isinstance(value, str):
        return _string(game, field, value, lang)
    if isinstance(value, Mapping):
        return " / ".join(
            f"{_string(game, field, str(k), lang)} {value_words(game, field, v, lang)}"
            for k, v in value.items()
        )
    if isinstance(value, (list, tuple)):
        if any(isinstance(v, (list, tuple)) for v in value):  # pairs, e.g. (from square, points)
            return _ITEMS[lang].join(_pair(game, field, v, lang) for v in value)
        return _ITEMS[lang].join(value_words(game, field, v, lang) for v in value)
    return str(value)


def _pair(game: str, field: str, value: Any, lang: str) -> str:
    """An item of a list of pairs: "(6, 6)" / "（6，6）"."""
    if not isinstance(value, (list, tuple)):
        return value_words(game, field, value, lang)
    inner = [value_words(game, field, v, lang) for v in value]
    return f"（{'，'.join(inner)}）" if lang == "zh" else f"({', '.join(inner)})"


def _string(game: str, field: str, value: str, lang: str) -> str:
    """A string a setting holds: its own label, the game's word for it, the component it
    names, or as written."""
    own = f"setting:{game}/{field}={value}"
    if own in every_label():
        return t(own, lang)
    words = _words(game)
    spoken = getattr(words, "SPOKEN", {}).get(field)
    if spoken is not None:
        return str(spoken(value, lang))
    values: Mapping[str, Mapping[str, str]] = words.VALUES
    key = values.get(field, {}).get(value) or values.get("", {}).get(value)
    if key is not None:
        return t(key, lang)
    from dashboards.refusals import component_name  # the boards import this module's callers

    return component_name(game, value, lang) or value


def setting_words(game: str, field: str, value: Any, lang: str) -> str:
    """ "final turns: one each"."""
    said = value_words(game, field, value, lang)
    return f"{setting_name(game, field, lang)}{_IS[_lang(lang)]}{said}"


def rules_words(ruleset: str, rules: Mapping[str, Any], lang: str, with_game: bool = True) -> str:
    """A rule set and the settings changed over it: "Albus Academy standard, final turns:
    one each"."""
    named = ruleset_name(ruleset, lang, with_game)
    game = game_of(ruleset)
    if not rules:
        return named
    if game is None:  # no game's words for its settings: as the log wrote them
        return f"{named} {json.dumps(dict(rules), ensure_ascii=False)}"
    lang = _lang(lang)
    settings = _BETWEEN[lang].join(setting_words(game, f, v, lang) for f, v in rules.items())
    return f"{named}{_AFTER_RULESET[lang]}{settings}"


def key_words(key: str, lang: str, with_game: bool = True) -> str:
    """The warehouse's `ruleset_key` in words."""
    ruleset, _, changed = key.partition(" ")
    try:
        rules = json.loads(changed) if changed else {}
    except json.JSONDecodeError:
        return key
    if not isinstance(rules, dict):
        return key
    return rules_words(ruleset, rules, lang, with_game)


def catalogue_words(game: str, name: str, version: str, lang: str) -> str:
    """A catalogue by its name in words where squire ships it ("squire's sample cards"), else
    by the name and version its file gives."""
    key = f"catalogue:{game}/{name}/{version}"
    return t(key, lang) if key in every_label() else f"{name} {version}"


def keys_in_words(frame: pl.DataFrame, column: str, lang: str) -> pl.DataFrame:
    """The frame with `column`'s `ruleset_key`s in words."""
    if column not in frame.columns or frame.is_empty():
        return frame
    keys = frame[column].cast(pl.String)
    said = {k: key_words(k, lang) for k in keys.drop_nulls().unique()}
    return frame.with_columns(keys.replace_strict(said, default=keys).alias(column))


def played_under(header: Header, catalogue: str | None, lang: str) -> list[str]:
    """What a match's header says of its rules, in words, for a caption: its variant, its rule
    set where it is not the game's standard one or changes settings over it, the options it
    switches on, and the catalogue it was played with (`catalogue`: "name version")."""
    game = GAMES.get(header.game)
    parts = [t(header.variant, lang)]
    ruleset = header.ruleset or (game.standard_ruleset if game else "")
    if ruleset and (header.rules or game is None or ruleset != game.standard_ruleset):
        parts.append(rules_words(ruleset, header.rules, lang, with_game=False))
    parts.extend(t(f"option_{name}", lang) for name, on in header.options.items() if on is True)
    if catalogue:
        name, _, version = catalogue.rpartition(" ")
        said = catalogue_words(header.game, name, version, lang) if name else catalogue
        parts.append(f"{t('catalogue', lang)} {said}")
    return parts
