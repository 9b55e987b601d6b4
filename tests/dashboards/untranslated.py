"""Every word a page shows, read from its element tree (AppTest), and the English ones left on
a Chinese page: a word of three Latin letters or more that is not a name or an id.

Names and ids are what the matches and catalogues hold (players, bots, game ids, rule sets,
a catalogue's own name) and the few words that read the same in both languages (file formats,
rule ids).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from google.protobuf.message import Message

WORD = re.compile(r"[A-Za-z][A-Za-z'’]{2,}")
# Not text a reader sees: template fields, markup, entities, addresses, formats of numbers.
NOT_SHOWN = re.compile(
    r"%\{[^}]*\}|\{[a-z_]+\}|<[^>]*>|&[a-z]+;|https?://\S+|:material/[a-z_]+:"
    r"|`[^`]*`|\{\"[^}]*\}"  # a command as code; a rule set's changed numbers (JSON)
    r"|\b[a-z]+(?:[-_][a-z0-9]+)*/[a-z0-9_-]+"  # a rule set's id: game/ruleset
    r"|\b[a-z]+(?:[-_][a-z0-9]+)+"  # ids: game-id, rule_key
)
# Read the same in every language.
NOTATION = {
    "CSV", "HTML", "Parquet", "DuckDB", "SQL", "JSON", "JSONL", "squire",
    "Elo", "TrueSkill", "Plackett", "Luce", "ELO", "API", "URL", "UTC", "gzip", "jsonl",
    "Mann", "Whitney", "Wilson", "Wald", "Bonferroni", "Holm", "SPRT", "vs", "MiB",
    "English", "Language",  # the language switch names each language in its own
}  # fmt: skip

# The figure's fields a reader sees (the rest is plotly's own vocabulary).
FIGURE_TEXT = {"text", "hovertext", "name", "ticktext", "hovertemplate", "texttemplate"}


def _figure_strings(node: Any, key: str = "") -> Iterator[str]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "title" and isinstance(v, dict):
                yield from _figure_strings(v.get("text", ""), "text")
            elif k == "title" and isinstance(v, str):
                yield v
            else:
                yield from _figure_strings(v, k)
    elif isinstance(node, list):
        for v in node:
            yield from _figure_strings(v, key)
    elif isinstance(node, str) and key in FIGURE_TEXT:
        yield node


def _repeated(field: Any) -> bool:
    return bool(getattr(field, "is_repeated", False))


# The fields of Streamlit's elements a reader sees (the rest are ids, formats and styles).
SHOWN = {"body", "label", "help", "options", "placeholder", "caption", "display_value", "title"}


def _columns(config: str) -> Iterator[str]:
    """The labels and help of a table's column configuration (JSON)."""
    for column in json.loads(config or "{}").values():
        if isinstance(column, dict):
            yield from (str(column[k]) for k in ("label", "help") if column.get(k))


def _proto_strings(message: Message) -> Iterator[str]:
    for field, value in message.ListFields():
        if field.name == "spec" and isinstance(value, str):  # a plotly figure, as JSON
            yield from _figure_strings(json.loads(value))
        elif field.name == "columns" and isinstance(value, str):
            yield from _columns(value)
        elif field.type == field.TYPE_MESSAGE:
            for item in value if _repeated(field) else [value]:
                if isinstance(item, Message):
                    yield from _proto_strings(item)
        elif field.type == field.TYPE_STRING and field.name in SHOWN:
            yield from (value if _repeated(field) else [value])


def shown(node: Any) -> Iterator[str]:
    """Every string of every element under `node`: texts, labels, help, options, figure
    text, and the column names and cells of tables."""
    if getattr(node, "type", "") == "html":  # style sheets, not text
        return
    proto = getattr(node, "proto", None)
    if isinstance(proto, Message):
        yield from _proto_strings(proto)
    table = getattr(node, "type", "") == "arrow_data_frame"
    value = getattr(node, "value", None) if table else None
    if value is not None:  # a table: its columns and its cells
        yield from (str(c) for c in value.columns)
        for column in value.columns:
            yield from (str(v) for v in value[column].tolist())
    for child in (getattr(node, "children", None) or {}).values():
        yield from shown(child)


def untranslated(texts: Iterable[str], names: set[str]) -> set[str]:
    """The English words in `texts` that are not among `names` (or their parts)."""
    known = {part for name in names for part in WORD.findall(name)} | NOTATION
    found: set[str] = set()
    for text in texts:
        for word in WORD.findall(NOT_SHOWN.sub(" ", text)):
            if word not in known:
                found.add(word)
    return found
