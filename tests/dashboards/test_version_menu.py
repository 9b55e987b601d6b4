"""The sidebar's warehouse-version menu says what made each version, and an experiment's
versions in a row are one entry (dashboards.version_menu), in either language."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.i18n import LABELS
from dashboards.version_menu import entries
from ingest.cli import main
from ingest.pipeline.pipeline import ingest
from ingest.warehouse import store

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "dashboards" / "app.py")
AT = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)


def _versions(*made: tuple[str | None, int | None, str | None, int]) -> pl.DataFrame:
    """Versions 1, 2, … made as told (made_by, logs, experiment, matches added), the latest
    first as the dashboards read them."""
    rows = []
    held = 0
    for i, (made_by, logs, experiment, added) in enumerate(made, 1):
        held += added
        rows.append({"version": i, "committed_at": AT + timedelta(minutes=i), "held": held,
                     "added": added, "made_by": made_by, "logs": logs,
                     "experiment": experiment})  # fmt: skip
    return pl.DataFrame(rows).sort("version", descending=True)


FOUND = _versions(
    (None, None, None, 164),  # an older squire's
    ("ingest", 1310, None, 1146),
    ("experiment", None, "exp-1a2b3c4d", 40),
    ("experiment", None, "exp-1a2b3c4d", 40),
    ("experiment", None, "exp-1a2b3c4d", 20),
    ("upload", 1, None, 1),
    ("experiment", None, "exp-1a2b3c4d", 40),  # the same experiment, later: a run of its own
    ("recording", 1, None, 1),
    ("compaction", None, None, 0),
)


def test_each_entry_says_what_made_it_and_an_experiments_run_is_one():
    menu = entries(FOUND)
    assert menu == {
        "9": "9 · compaction (files merged) · 1,452 matches · 2026-12-07 12:09 UTC",
        "8": "8 · match recorded at the table · 1,452 matches · 2026-12-07 12:08 UTC",
        "7": "7 · experiment exp-1a2b3c4d · 1,451 matches · 2026-12-07 12:07 UTC",
        "6": "6 · upload of 1 file · 1,411 matches · 2026-12-07 12:06 UTC",
        "5": "5 · experiment exp-1a2b3c4d: 3 versions, 100 matches added · 1,410 matches"
        " · 2026-12-07 12:05 UTC",
        "2": "2 · ingest of 1,310 logs · 1,310 matches · 2026-12-07 12:02 UTC",
        "1": "1 · origin not recorded · 164 matches · 2026-12-07 12:01 UTC",
    }
    # a version inside a run, asked for by a link, is listed on its own beside the run
    kept = entries(FOUND, keep="3")
    assert list(kept) == ["9", "8", "7", "6", "5", "3", "2", "1"]
    assert kept["3"] == (
        "3 · experiment exp-1a2b3c4d, its version 1 of 3 · 1,350 matches · 2026-12-07 12:03 UTC"
    )
    assert entries(FOUND, keep="5") == menu


@pytest.fixture(scope="module")
def with_experiment(tmp_path_factory) -> tuple[Path, str, list[int], int]:
    """An ingest, an experiment's versions, an ingest: the warehouse, the experiment's id,
    its versions and its matches."""
    db = tmp_path_factory.mktemp("menu") / "warehouse"
    ingest([ROOT / "tests" / "knight_academy" / "logs"], db=db, jobs=1)
    before = store.snapshot(db).version
    args = [
        *("experiment", "knight-academy", "--metric", "margin", "--bots", "greedy,random"),
        *("--a", "quest_prizes=[30,20,10]", "--max", "8", "--batch", "4", "--players", "2"),
        *("--jobs", "1", "--db", str(db)),
    ]
    assert main(args) == 0
    after = store.snapshot(db).version
    ingest([ROOT / "tests" / "heraldry" / "logs"], db=db, jobs=1)
    from ingest.warehouse.warehouse import open_reader

    con = open_reader(db)
    ((experiment, played),) = con.execute(
        "SELECT experiment, count(*) FROM games WHERE experiment IS NOT NULL GROUP BY ALL"
    ).fetchall()
    con.close()
    return db, experiment, list(range(before + 1, after + 1)), played


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_menu_shows_an_experiments_versions_as_one_entry(with_experiment, monkeypatch, lang):
    db, experiment, ran, played = with_experiment
    assert len(ran) > 1, "the experiment committed a version a batch"
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(db))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception
    menu = at.sidebar.selectbox(key="as-of")
    latest = store.snapshot(db).version
    # the latest, every version but the experiment's, and the experiment's last
    shown = [v for v in menu.options if v != menu.format_func("")]
    assert len(shown) == latest - len(ran) + 1
    run = LABELS["made_experiment_run"][lang].format(id=experiment, versions=len(ran), added=played)
    (entry,) = [label for label in shown if experiment in label]
    assert entry.startswith(f"{ran[-1]} · ") and run in entry
    logs = len(list((ROOT / "tests" / "heraldry" / "logs").glob("*.jsonl")))
    assert LABELS["made_ingest"][lang].format(n=logs) in shown[0]

    # a link to a version inside the run still reads it, listed on its own
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.query_params["as-of"] = str(ran[0])
    at.run()
    assert not at.exception
    menu = at.sidebar.selectbox(key="as-of")
    assert menu.value == str(ran[0])
    part = LABELS["made_experiment_part"][lang].format(id=experiment, i=1, of=len(ran))
    assert part in menu.format_func(str(ran[0]))
    # and said whole below the menu, which a narrow sidebar cuts short
    assert part in " ".join(c.value for c in at.sidebar.caption).replace("\\", "")
