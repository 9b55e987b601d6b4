"""A player's name (or any string from a log) is shown as the text it is in every figure and
in the exported match: Plotly reads a subset of HTML in a figure's strings, so a name written
as markup must reach it escaped, and the export's page must keep it out of its HTML and its
scripts."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.boards import board as board_of
from dashboards.common import literal
from dashboards.export import match_html
from dashboards.timeline import figure as chances_figure
from ingest.analyses.review import Review
from ingest.pipeline.pipeline import ingest
from replay.replayer import Match, open_log, replay, start, steps
from tests.support import CATALOGUES

from .conftest import ROOT

APP = str(ROOT / "dashboards" / "app.py")
# Markup Plotly would draw (a link, bold, a line break, a style), an entity it would turn into
# a character, a script's end, and a template's field.
HOSTILE = (
    '<b>x</b><br><a href="https://example.invalid">y</a><span style="color:red">z</span>'
    '<a href="javascript:alert(1)">j</a>&amp;</script><script>alert(1)</script>%{y}'
)
MARKUP = ("<b>x", "<br><a", "<a href", "<span style", "</script><script", "<script>alert")
EXAMPLES = [
    "knight_academy/logs/ka-example-3p.jsonl",
    "knight_academy/logs/ka-example-lancelot.jsonl",  # the colours' owners in their names
    "knight_academy/logs/ka-example-gawain.jsonl",  # a neutral seat
    "heraldry/logs/he-example-2p.jsonl",
    "paladins/logs/pa-example-2p.jsonl",
    "albus_academy/logs/aa-example-2p.jsonl",  # the players' names as the boards' titles
]
EVERY = 10  # the board drawn at every tenth step (and the last): a name is on it from the start


def renamed(example: str) -> tuple[str, bytes]:
    """The worked example's game id and log with its first player named HOSTILE throughout."""
    lines = (ROOT / "tests" / example).read_text().splitlines()
    header = json.loads(lines[0])
    first = json.dumps(header["players"][0])
    game_id = f"{header['game_id']}-hostile"
    lines[0] = lines[0].replace(json.dumps(header["game_id"]), json.dumps(game_id))
    data = "\n".join(line.replace(first, json.dumps(HOSTILE)) for line in lines) + "\n"
    return game_id, data.encode()


def opened(example: str) -> Match:
    game_id, data = renamed(example)
    return open_log(data, game_id, catalogues=CATALOGUES)


def strings(node: Any) -> Iterator[str]:
    """Every string in a figure's JSON, keys and values, however deep."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield key
            yield from strings(value)
    elif isinstance(node, (list, tuple)):
        for item in node:
            yield from strings(item)


def assert_literal(figure: dict[str, Any]) -> None:
    """No markup from the name in the figure, and the name there as escaped text."""
    shown = list(strings(figure))
    smuggled = [s for s in shown if any(tag in s for tag in MARKUP)]
    assert not smuggled, smuggled[:3]
    assert any(literal(HOSTILE) in s for s in shown), "the name is in the figure, escaped"
    templates = [trace.get("hovertemplate") or "" for trace in figure.get("data", [])]
    assert not any(literal(HOSTILE) in t or HOSTILE in t for t in templates), templates


def test_literal_escapes_what_plotly_reads_as_markup_and_nothing_else():
    assert literal('<b>A&amp;B</b> "C" 骑士') == '&lt;b&gt;A&amp;amp;B&lt;/b&gt; "C" 骑士'
    assert literal("Ann") == "Ann"


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_board_draws_a_name_as_the_text_it_is(example):
    match = opened(example)
    board = board_of(match.game.name)
    players = match.header.players
    last = len(replay(match).steps)
    state = start(match)
    assert_literal(board.figure(match.game.snapshot(state), players, None).to_plotly_json())
    for step in steps(match, state):
        if step.index % EVERY == 0 or step.index == last:
            event = {"raw": msgspec.to_builtins(step.event)}
            figure = board.figure(match.game.snapshot(state), players, event)
            assert_literal(figure.to_plotly_json())


def _review(players: list[str]) -> Review:
    """Who was winning, with the hostile name leading and turning the match."""
    return Review(
        game_id="g",
        method="<b>m</b>",
        timeline=[
            (0, {p: 1 / len(players) for p in players}),
            (1, {p: float(p == HOSTILE) for p in players}),
        ],
        turning_points=[
            {"step": 1, "player": HOSTILE, "before": 0.5, "after": 1.0, "what": HOSTILE},
        ],
    )


def test_who_was_winning_names_each_line_as_the_text_it_is():
    figure = chances_figure(_review([HOSTILE, "Bob"]), [HOSTILE, "Bob"], 1).to_plotly_json()
    assert_literal(figure)
    for trace in figure["data"]:  # the name is the trace's, never read as a template
        assert trace["hovertemplate"].startswith("%{fullData.name} ")


def _scripts(page: str) -> list[list[Any]]:
    """The arguments of each Plotly.newPlot in the page (id, data, layout, config), decoded."""
    calls = re.findall(r"Plotly\.newPlot\(\s*(.*?)\s*\)\s*};\s*</script>", page, re.DOTALL)
    return [json.loads(f"[{call}]") for call in calls]


@pytest.mark.parametrize("example", EXAMPLES[::3])
def test_the_exported_match_shows_a_name_as_the_text_it_is(example):
    match = opened(example)
    outcome = replay(match)
    players = list(match.header.players)
    board = board_of(match.game.name).figure(
        match.game.snapshot(outcome.state), players, {"raw": {}}
    )
    reviewed = _review(players)
    page = match_html(
        title=f"Game · {HOSTILE}",
        caption=f"Step 1 / 1 · Perspective: {HOSTILE}",
        board=board,
        chances=chances_figure(reviewed, players, 1),
        reviewed=reviewed,
        result=match.game.result(outcome.state),
        players=players,
        sources=list(match.game.scored_sources(match.config)),
        lang="en",
    ).decode()
    # The page's own HTML: the name escaped wherever it is written, no markup of its own.
    outside = re.sub(r"<script\b.*?</script>", "", page, flags=re.DOTALL)
    assert html.escape(HOSTILE) in outside
    assert not any(tag in outside for tag in MARKUP), [t for t in MARKUP if t in outside]
    assert '<a href="javascript' not in page
    # No string closes a script early: each figure's script is whole, its data as written.
    figures = _scripts(page)
    assert len(figures) == 2
    assert "<script>alert(1)" not in page and "alert(1)</script>" not in page
    for _id, data, layout, _config in figures:
        assert not any(tag in s for s in strings([data, layout]) for tag in MARKUP)
    assert any(literal(HOSTILE) in s for s in strings(figures))


@pytest.fixture(scope="module")
def hostile(tmp_path_factory) -> Path:
    """A warehouse of the worked examples with their first players named HOSTILE."""
    folder = tmp_path_factory.mktemp("hostile")
    for example in EXAMPLES:
        game_id, data = renamed(example)
        (folder / f"{game_id}.jsonl").write_bytes(data)
    db = folder / "warehouse"
    summary = ingest([folder], db=db, jobs=1)
    assert summary.ingested == len(EXAMPLES), summary.rejects
    return db


def _charts(at: AppTest) -> list[dict[str, Any]]:
    assert not at.exception, [e.value for e in at.exception]
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def _page(db: Path, monkeypatch, page: str, game: str | None = None, **params: str) -> AppTest:
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(db))
    at = AppTest.from_file(APP, default_timeout=60)
    if game:
        at.session_state["filter-game"] = game
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    at.switch_page(f"app_pages/{page}.py").run()
    return at


@pytest.mark.parametrize("example", EXAMPLES)
def test_the_viewer_draws_a_name_as_the_text_it_is(hostile, monkeypatch, example):
    game_id, _ = renamed(example)
    at = _page(hostile, monkeypatch, "viewer", game=game_id, step="12")
    [board] = _charts(at)  # too few matches for who was winning
    assert_literal(board)


@pytest.mark.parametrize("page", ["win_rates", "sources", "tracks", "balance"])
@pytest.mark.parametrize("game", ["knight-academy", "heraldry", "paladins", "albus-academy"])
def test_the_statistics_draw_a_name_as_the_text_it_is(hostile, monkeypatch, page, game):
    charts = _charts(_page(hostile, monkeypatch, page, game=game))
    assert charts
    for chart in charts:
        assert not any(tag in s for s in strings(chart) for tag in MARKUP), page
    if page in ("win_rates", "sources", "tracks"):  # a chart by player
        assert any(literal(HOSTILE) in s for s in strings(charts))


def test_a_players_page_draws_as_text(hostile, monkeypatch):
    charts = _charts(_page(hostile, monkeypatch, "player", name=HOSTILE))
    for chart in charts:
        assert not any(tag in s for s in strings(chart) for tag in MARKUP)


def test_plain_leaves_streamlit_no_address_to_turn_into_a_link():
    # Escaped punctuation is not enough: Streamlit's Markdown still links https://…, a@b.c and
    # www.… (seen in Chromium); a word joiner inside each leaves nothing to find.
    from dashboards.common import plain

    shown = plain('Ann <a href="https://example.com">x</a> y@z.co WWW.a.com')
    for address in ("://", ":\\/\\/", "y\\@", "WWW\\.", "www\\."):
        assert address not in shown
    assert shown.replace("\u2060", "").replace("\\", "") == (
        'Ann <a href="https://example.com">x</a> y@z.co WWW.a.com'
    )


def test_a_link_with_a_hostile_name_opens_that_players_page_and_perspective(hostile, monkeypatch):
    at = _page(hostile, monkeypatch, "player", name=HOSTILE)
    assert at.selectbox(key="name").value == HOSTILE and not at.info
    game_id, _ = renamed(EXAMPLES[0])
    at = _page(hostile, monkeypatch, "viewer", game=game_id, step="12", perspective=HOSTILE)
    assert at.radio(key="perspective").value == HOSTILE
    assert at.query_params["perspective"] == HOSTILE
