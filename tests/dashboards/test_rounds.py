"""One round a step: the viewer's heading, the board's caption, the jump list, the HTML export
and `squire replay --step` all give the round the engine's state is in after the step's event
(docs/engines.md, "A step's round"), for a sample of each game, at every step."""

from __future__ import annotations

import json
import re

import plotly.graph_objects as go
import pytest
from streamlit.testing.v1 import AppTest

from dashboards.boards import board as board_of
from dashboards.export import match_html
from dashboards.match import event_rows
from dashboards.rounds import heading, round_words
from ingest.cli import main
from ingest.cli.report import escaped
from replay.registry import GAMES
from replay.replayer import replay, start, steps

from .boards.replayed import replayed
from .conftest import ROOT

# The first sample of each game (Heraldry's is the match whose step 30 was reported).
SAMPLES = {game: sorted((ROOT / "data" / "samples" / game).glob("*.jsonl.gz"))[0] for game in GAMES}
SAID = re.compile(r"Round (\d+)|Setup")


def _rounds_said(text: str) -> set[int]:
    """Every round a text names: "Round 8" is 8, the setup is 0."""
    return {int(number) if number else 0 for number in SAID.findall(text)}


def _walk(game: str) -> tuple[list[int], list[dict], list]:
    """The state's round after each step (0: before the first event), the snapshot after each
    and the replayed steps."""
    name = SAMPLES[game].name.removesuffix(".jsonl.gz")
    match, _ = replayed(game, name)
    state = start(match)
    rounds, views = [state.round], [match.game.snapshot(state)]
    walked = []
    for step in steps(match, state):
        rounds.append(state.round)
        views.append(match.game.snapshot(state))
        walked.append(step)
    return rounds, views, walked


@pytest.mark.parametrize("game", list(GAMES))
def test_every_step_shows_one_round_the_engine_states_own(game):
    rounds, views, walked = _walk(game)
    board = board_of(game)
    name = SAMPLES[game].name.removesuffix(".jsonl.gz")
    match, _ = replayed(game, name)
    last = len(walked)
    # The steps a round ends on: the event was played in one round, its state is in the next.
    turning = [s.index for s in walked if s.round != rounds[s.index]]
    assert turning, "the sample crosses no round"
    for step, view in enumerate(views):
        shown = {rounds[step]}
        assert view["round"] == rounds[step]
        assert _rounds_said(board.caption(view)) == shown, (step, board.caption(view))
        assert _rounds_said(heading(step, last, view, "en")) == shown, step
        printed = match.game.render(escaped(view)).splitlines()[0]
        assert re.search(rf"\bround {rounds[step]}\b", printed), (step, printed)
    # The jump list names each step it goes to by that step's round.
    for step, label in board.anchors(event_rows(replay(match))).items():
        said = _rounds_said(label)
        assert said <= {rounds[step]}, (step, label)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_export_and_replay_step_give_the_round_of_the_steps_a_round_ends_on(game, capsys):
    rounds, views, walked = _walk(game)
    last = len(walked)
    turning = [s.index for s in walked if s.round != rounds[s.index]][:3]
    for step in [0, *turning, last]:
        page = match_html(
            title="t",
            caption=heading(step, last, views[step], "zh"),
            board=go.Figure(),
            chances=None,
            reviewed=None,
            result=None,
            players=[],
            sources=[],
            lang="zh",
        ).decode()
        caption = page.split("<p>", 1)[1].split("</p>", 1)[0]
        assert round_words(views[step], "zh") in caption, (step, caption)
        assert main(["replay", "--json", "--step", str(step), str(SAMPLES[game])]) == 0
        assert json.loads(capsys.readouterr().out)["round"] == rounds[step], step


# The steps reported: each a round's last event, the state after it in the next round.
REPORTED = [("heraldry", 30, 8), ("paladins", 30, 2)]


@pytest.mark.parametrize(("game", "step", "expected"), REPORTED)
def test_the_viewer_heads_a_step_with_the_round_its_caption_and_board_give(
    warehouse, monkeypatch, game, step, expected
):
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(warehouse))
    at = AppTest.from_file(str(ROOT / "dashboards" / "app.py"), default_timeout=60)
    at.query_params["game"] = SAMPLES[game].name.removesuffix(".jsonl.gz")
    at.query_params["step"] = str(step)
    at.run()
    at.switch_page("app_pages/viewer.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    head = next(m.value for m in at.markdown if m.value.startswith(f"**Step {step} /"))
    caption = next(c.value for c in at.caption if "Start player" in c.value)
    assert _rounds_said(head) == _rounds_said(caption) == {expected}, (head, caption)
