"""A stored match whose log stops early opens in the viewer at every step it has: one of its
header alone (no events, so no steps to go through), and one cut after two events, before
any score. Each game's model is fitted, so who was winning is reckoned for them too."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboards.i18n import every_label
from ingest.analyses.review import LEAST_MATCHES
from ingest.pipeline.pipeline import ingest

from .conftest import ROOT

LABELS = every_label()  # the shared words and every game's own

APP = str(ROOT / "dashboards" / "app.py")
GAMES = ["knight-academy", "heraldry", "paladins", "albus-academy"]
EVENTS = 2  # the cut logs' events, after their header


def short(game: str, events: int) -> tuple[str, bytes]:
    """The game's first sample stopped after its header and `events` events, under an id of
    its own."""
    first = sorted((ROOT / "data" / "samples" / game).iterdir())[0]
    lines = gzip.decompress(first.read_bytes()).decode().splitlines()
    header = json.loads(lines[0])
    game_id = f"{game}-short-{events}"
    lines[0] = lines[0].replace(json.dumps(header["game_id"]), json.dumps(game_id))
    return game_id, ("\n".join(lines[: 1 + events]) + "\n").encode()


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    """Enough complete samples of each game to fit its model, and the short logs."""
    folder = tmp_path_factory.mktemp("short")
    logs = folder / "logs"
    logs.mkdir()
    for game in GAMES:
        for events in (0, EVENTS):
            game_id, data = short(game, events)
            (logs / f"{game_id}.jsonl").write_bytes(data)
    samples = [
        path
        for game in GAMES
        for path in sorted((ROOT / "data" / "samples" / game).iterdir())[:LEAST_MATCHES]
    ]
    db = folder / "warehouse"
    summary = ingest([logs, *samples], db=db, jobs=1)
    assert summary.ingested == len(samples) + 2 * len(GAMES), summary.rejects
    return db


def viewer(db: Path, monkeypatch, game_id: str, step: int, lang: str = "en") -> AppTest:
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(db))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["lang"] = lang
    at.query_params["game"] = game_id
    at.query_params["step"] = str(step)
    at.run()
    at.switch_page("app_pages/viewer.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def charts(at: AppTest) -> int:
    return len(at.get("plotly_chart"))


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("game", GAMES)
def test_a_match_of_its_header_alone_shows_its_start_and_says_it_holds_no_events(
    warehouse, monkeypatch, game, lang
):
    game_id, _ = short(game, 0)
    at = viewer(warehouse, monkeypatch, game_id, 0, lang)
    assert [w.value for w in at.warning] == [LABELS["no_events"][lang]]
    assert not at.slider  # nothing to step through
    assert charts(at) == 2  # the board as set up, and who was winning at the start


@pytest.mark.parametrize("step", range(EVENTS + 1))
@pytest.mark.parametrize("game", GAMES)
def test_a_cut_match_opens_at_every_step_and_says_where_its_log_stops(
    warehouse, monkeypatch, game, step
):
    game_id, _ = short(game, EVENTS)
    at = viewer(warehouse, monkeypatch, game_id, step)
    assert at.slider[0].value == step and at.slider[0].max == EVENTS
    assert [w.value for w in at.warning] == [LABELS["log_stops"]["en"].format(last=EVENTS)]
    assert charts(at) == 2


def test_next_walks_a_cut_match_to_its_end_and_no_further(warehouse, monkeypatch):
    game_id, _ = short("heraldry", EVENTS)
    at = viewer(warehouse, monkeypatch, game_id, 0, "zh")
    for expected in (1, 2, 2):
        next(b for b in at.button if b.label == LABELS["next"]["zh"]).click().run()
        assert not at.exception, [e.value for e in at.exception]
        assert at.slider[0].value == expected
    assert LABELS["log_stops"]["zh"].format(last=EVENTS) in [w.value for w in at.warning]
