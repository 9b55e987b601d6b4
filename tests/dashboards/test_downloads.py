"""Every table a page offers as a file downloads with the warehouse's column names, whatever
the page's language shows in its headers (README: "Every table downloads as CSV and Parquet,
with the warehouse's column names")."""

from __future__ import annotations

import io
import re

import polars as pl
import pytest
from streamlit.delta_generator import DeltaGenerator
from streamlit.testing.v1 import AppTest

from .conftest import ROOT

APP = str(ROOT / "dashboards" / "app.py")
# A warehouse column's name, as DuckDB and polars are given it: no label, no space, no Han.
COLUMN = re.compile(r"[a-z][a-z0-9_]*")
EXAMPLE = {
    "knight-academy": "ka-example-4p",
    "heraldry": "he-example-3p",
    "paladins": "pa-example-3p",
    "albus-academy": "aa-example-3p",
}
STATISTICS = ["sources", "tracks", "win_rates", "balance", "what_if"]
OPENED = [
    *((page, of, {}) for page in STATISTICS for of in EXAMPLE),
    *(("viewer", of, {"game": game_id, "step": "40"}) for of, game_id in EXAMPLE.items()),
    (None, "knight-academy", {}),  # the home page
    ("player", "knight-academy", {"name": "greedy"}),
    ("player", "knight-academy", {"name": "Ann"}),
    # Balance's hate-drafts, found when asked
    ("balance", "knight-academy", {"hate-drafts": "true"}),
]


@pytest.fixture
def downloads(warehouse, monkeypatch):
    """Each download button's file name and the callable that makes its file, as the page
    handed them to Streamlit (the bytes are made when a button is clicked)."""
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(warehouse))
    offered: list[tuple[str, object]] = []
    original = DeltaGenerator.download_button

    def recording(self, label, data, file_name=None, *args, **kwargs):
        offered.append((str(file_name), data))
        return original(self, label, data, file_name, *args, **kwargs)

    monkeypatch.setattr(DeltaGenerator, "download_button", recording)
    return offered


def _open(page: str | None, of: str, params: dict[str, str], lang: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    if page in STATISTICS:
        at.session_state["filter-game"] = of
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    if page:
        at.switch_page(f"app_pages/{page}.py")
        at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize(("page", "of", "params"), OPENED)
def test_every_download_names_its_columns_as_the_warehouse_does(downloads, page, of, params, lang):
    _open(page, of, params, lang)
    tables = [(name, data) for name, data in downloads if name.endswith((".csv", ".parquet"))]
    assert tables, "the page offers its tables as files"
    labelled = {}
    for name, data in tables:
        made = data() if callable(data) else data
        frame = (
            pl.read_csv(io.BytesIO(made), n_rows=1)
            if name.endswith(".csv")
            else pl.read_parquet(io.BytesIO(made))
        )
        wrong = [c for c in frame.columns if not COLUMN.fullmatch(c)]
        if wrong:
            labelled[name] = wrong
    assert not labelled
