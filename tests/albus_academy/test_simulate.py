"""Simulated Albus Academy matches: bots, determinism, overrides, and the bundled samples."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from ingest.cli import main
from ingest.read import find_logs, read_log
from ingest.simulate import Spec, simulate_chunk
from replay.game import STOP
from replay.games import albus_academy as aa
from replay.games.albus_academy.bots import BOTS, table
from replay.games.albus_academy.legal import legal_events
from replay.playout import playout
from replay.replayer import open_log, replay
from tests.support import (
    CATALOGUES,
    Checked,
    catalogue,
    greedy_win_share,
    sample_tables_and_bots,
)

SAMPLES = Path(__file__).parents[2] / "data" / "samples" / "albus-academy"
ALL_BOTS = ("greedy", "random")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_simulated_log_replays_to_the_simulators_scores(players):
    spec = Spec(game="albus-academy", players=players, bots=ALL_BOTS, seed=players)
    for written in simulate_chunk((spec, 0, 6)):
        data = gzip.decompress(written.data)
        outcome = replay(open_log(data, written.game_id, catalogues=CATALOGUES))
        assert outcome.result.complete
        assert outcome.final_claim is not None and outcome.final_claim.scores == written.scores
        header = json.loads(data.splitlines()[0])
        assert header["catalogue"]["name"] == "albus-sample"
        assert set(header["agents"]) == set(header["players"])


def legal(state, seat, event, options):
    """The bots only choose what the engine allows."""
    return event == STOP or event in legal_events(state, seat)


@pytest.mark.parametrize("bot", ALL_BOTS)
def test_bots_only_choose_among_the_legal_events(bot):
    rng = random.Random(4)
    head = aa.Header(
        format="squire-log/1",
        game="albus-academy",
        game_id="b",
        **table(3, aa.STANDARD, rng, catalogue("albus-academy")),
    )
    state = aa.new_game(aa.STANDARD, head, catalogue("albus-academy"))
    playout(aa.RULES, state, [Checked(BOTS[bot](), legal) for _ in head.players], rng)
    assert state.phase == "over"


def test_set_overrides_are_applied_and_recorded(tmp_path):
    out = tmp_path / "short"
    assert (
        main(
            [
                "simulate",
                "albus-academy",
                "-n",
                "4",
                "--players",
                "2",
                "--bots",
                "greedy",
                "--set",
                "end_homework=3",
                "--out",
                str(out),
                "--jobs",
                "1",
            ]
        )
        == 0
    )
    for path in find_logs([str(out)]):
        data = read_log(path)
        assert json.loads(data.splitlines()[0])["rules"] == {"end_homework": 3}
        outcome = replay(open_log(data, str(path), catalogues=CATALOGUES))
        assert outcome.match.config.end_homework == 3
        assert max(len(me.spells) + len(me.items) for me in outcome.state.board) >= 3 or any(
            me.class_dismissed for me in outcome.state.board
        )


def test_greedy_beats_random_by_a_wide_margin():
    spec = Spec(
        game="albus-academy", players=4, bots=("greedy", "random", "random", "random"), seed=11
    )
    assert greedy_win_share(spec, 30) > 0.6  # one seat in four: a random bot would win about 0.25


def test_the_bundled_samples_cover_every_table_and_bot_and_replay_cleanly():
    count, tables, bots = sample_tables_and_bots(SAMPLES)
    assert count >= 150
    assert tables == {2, 3, 4} and bots == set(ALL_BOTS)
