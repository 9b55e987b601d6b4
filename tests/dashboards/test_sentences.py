"""The move log in sentences, for every game alike: one sentence a step in both languages and
from every seat's perspective, written from the engine's facts (no label key, no field left
unfilled, no Python value), shown by the viewer beside the board, and the match exported as one
small HTML file with the perspective's tables and the sentences."""

from __future__ import annotations

import json
import re
from pathlib import Path

import plotly.graph_objects as go
import pytest

from dashboards.boards import board
from dashboards.export import match_html
from dashboards.i18n import every_label
from dashboards.sentences import clause, joined, listed, told
from ingest.files.catalogues import Library
from replay.facts import ScoreChanged, TrackMoved, TrackRanked
from replay.replayer import open_log, replay

from .conftest import ROOT

LOGS = sorted((ROOT / "tests").glob("*/logs/*.jsonl"))
RAW = re.compile(r"\{[a-z_]*\}|\b(?:event|say|said)_[a-z_]+|\bNone\b|\[\'|\{\'|\(\'")


def _opened(path: Path):
    match = open_log(path.read_bytes(), str(path), catalogues=Library())
    return match, replay(match)


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_every_step_of_every_example_is_one_sentence_in_each_language_and_perspective(path):
    match, outcome = _opened(path)
    seats: list[int | None] = [None, *range(len(match.header.players))]
    for lang in ("en", "zh"):
        for seat in seats if match.game.secrets else [None]:
            said = told(match, outcome.steps, lang, seat)
            assert len(said) == len(outcome.steps)
            for step, sentence in zip(outcome.steps, said, strict=True):
                assert sentence.strip(), (step.index, lang, seat)
                assert not RAW.search(sentence), (step.index, lang, seat, sentence)
    # the same match told twice is told the same: the sentences are the engine's, not chance's
    assert told(match, outcome.steps, "en") == told(match, outcome.steps, "en")


def test_the_shared_words_join_a_fact_to_its_action_in_both_languages():
    players = ["Ann", "Bob"]
    moved = TrackMoved(round=1, seat=0, track="tournament", before=4, after=7, cause="card")
    scored = ScoreChanged(round=1, seat=1, source="joust", points=3)
    lead = TrackRanked(round=1, seat=1, track="joust", progress=9, place=1, leads=True)
    behind = TrackRanked(round=1, seat=0, track="joust", progress=2, place=2, leads=False)
    assert clause(moved, players, "Ann", "en") == "Tournament 4 → 7"  # the actor's own: unnamed
    assert clause(scored, players, "Ann", "en") == "Bob +3 points (Joust)"
    assert clause(scored, players, "Bob", "zh") == "+3 分 (马上比武)"
    assert clause(lead, players, "Ann", "en") == "Bob leads Joust at 9"
    assert clause(behind, players, "Ann", "en") == ""  # a round's ranking: its leaders only
    assert joined("Ann plays", ["a", "b"], "en") == "Ann plays: a, b"
    assert joined("Ann 打出", ["a", "b"], "zh") == "Ann 打出：a，b"
    assert listed(["Ann", "Bob", "Cid"], "en") == "Ann, Bob and Cid"
    assert listed(["Ann", "Bob", "Cid"], "zh") == "Ann、Bob和Cid"


def test_every_event_kind_of_every_game_has_its_words_for_what_comes_next():
    import msgspec

    from replay.registry import PACKAGES

    labels = every_label()
    for name, package in PACKAGES.items():
        events = __import__(f"replay.games.{package}.events", fromlist=["_"])
        kinds = {
            value.__struct_config__.tag
            for value in vars(events).values()
            if isinstance(value, type)
            and not value.__name__.startswith("_")  # a base of the events, not one
            and issubclass(value, msgspec.Struct)
            and isinstance(getattr(value, "__struct_config__", None), msgspec.structs.StructConfig)
            and isinstance(value.__struct_config__.tag, str)
            and value.__struct_config__.tag != "header"
        }
        missing = sorted(k for k in kinds if f"event_{k}" not in labels)
        assert not missing, (name, missing)


@pytest.mark.parametrize(
    "name", ["ka-example-4p", "he-example-3p", "pa-example-3p", "aa-example-3p"]
)
def test_a_match_exports_under_one_and_a_half_megabytes_with_the_perspectives_hands(name):
    path = next(p for p in LOGS if p.stem == name)
    match, outcome = _opened(path)
    game, players = match.game, list(match.header.players)
    seat = 1 if game.secrets else None
    from replay.replayer import state_at

    step = len(outcome.steps) // 2
    view = game.snapshot(game.view(state_at(match, step), seat))
    drawn = board(game.name)
    said = told(match, outcome.steps, "zh", seat)
    page = match_html(
        title=name,
        caption="",
        board=drawn.figure(view, players, None),
        chances=None,
        reviewed=None,
        result=game.result(outcome.state),
        players=players,
        sources=list(game.scored_sources(match.config)),
        lang="zh",
        tables=drawn.tables(view, players, "zh"),
        sentences=said,
        step=step,
    )
    assert len(page) < 1_500_000, len(page)
    text = page.decode()
    assert f"<b>{_escaped(said[step - 1])}</b>" in text  # the step's sentence, then the log
    assert text.count("<li value=") == len(said)
    # the board as drawn: the figure's data as the app's, axes given room
    data = json.loads(re.findall(r"Plotly\.newPlot\(\s*\"[^\"]+\",\s*(\[.*?\]),\s*\{", text)[0])
    assert len(data) == len(go.Figure(drawn.figure(view, players, None)).data)
    assert text.count("<table>") >= 2  # the seats' tables and the scores


def _escaped(text: str) -> str:
    import html

    return html.escape(text)
