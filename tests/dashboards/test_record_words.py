"""The Record page says a seat as its game names it: a Lancelot colour in the page's words,
in the buttons and in the heading of whose entry it is (KA-20)."""

from __future__ import annotations

import gzip

import msgspec
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.i18n import every_label
from dashboards.record.scribe import enter_log
from ingest.files.catalogues import Library
from ingest.warehouse import drafts

from .conftest import ROOT

COLOURS = ("blue", "yellow", "green", "red")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_lancelot_colour_is_named_in_the_pages_words(warehouse, monkeypatch, lang) -> None:
    sample = next(
        path
        for path in sorted((ROOT / "data" / "samples" / "knight-academy").glob("*-000000.*"))
        if b'"lancelot"' in gzip.decompress(path.read_bytes()).split(b"\n", 1)[0]
    )
    lines = gzip.decompress(sample.read_bytes()).splitlines()
    header = msgspec.json.decode(lines[0])
    name = f"ka-20261207-1900-{lang}cc"
    header.update(game_id=name, source="human")
    header.pop("agents", None)
    # after the colours are assigned: the next entries are the colours' plays
    data = b"\n".join([msgspec.json.encode(header), *lines[1:10]]) + b"\n"
    entry = enter_log(data, Library()).entry
    drafts.save(warehouse, name, entry.draft())
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(warehouse))
    try:
        at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60)
        at.query_params.update(lang=lang, draft=name)
        at.run()
        at.switch_page("app_pages/record.py")
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        shown = [b.label for b in at.button] + [m.value for m in at.markdown]
        said = {every_label()[f"ka_colour_{c}"][lang] for c in COLOURS}
        assert any(word in text for text in shown for word in said), shown
        if lang == "zh":
            left = [text for text in shown if any(c in text for c in COLOURS)]
            assert not left, left
    finally:
        drafts.remove(warehouse, name)
