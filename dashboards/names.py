"""A component's name in the page's language, where its catalogue's names file gives one
(`ingest.files.names`): the names a catalogue is written with are in one language, and the
file, published once with its matches' SHA-256, never changes to carry another."""

from __future__ import annotations

from ingest.files.names import translated


def in_language(game: str, catalogue: str, version: str, kind: str, card: str, lang: str) -> str:
    """The name of `card` (of `kind`) of catalogue (name, version) in `lang`; "" where none is
    given, so the catalogue's own name stands."""
    from dashboards.data import warehouse_path  # the data module reads the settings

    names = translated(game, catalogue, version, lang, warehouse_path())
    return names.get(kind, {}).get(card, "")
