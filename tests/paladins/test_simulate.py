"""Simulated Paladins matches: bots, determinism, overrides, and the bundled samples."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from ingest.cli import main
from ingest.read import find_logs, read_log
from ingest.simulate import Spec, simulate_chunk
from replay.games import paladins as pa
from replay.games.paladins.bots import BOTS, table
from replay.games.paladins.legal import canonical, legal_events
from replay.playout import playout
from replay.replayer import open_log, replay
from tests.support import (
    CATALOGUES,
    Checked,
    catalogue,
    greedy_win_share,
    sample_tables_and_bots,
)

SAMPLES = Path(__file__).parents[2] / "data" / "samples" / "paladins"
ALL_BOTS = ("greedy", "random")


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_every_simulated_log_replays_to_the_simulators_scores(players):
    spec = Spec(game="paladins", players=players, bots=("random",), seed=players)
    for written in simulate_chunk((spec, 0, 4)):
        data = gzip.decompress(written.data)
        outcome = replay(open_log(data, written.game_id, catalogues=CATALOGUES))
        assert outcome.result.complete
        assert outcome.final_claim is not None and outcome.final_claim.scores == written.scores
        header = json.loads(data.splitlines()[0])
        assert header["catalogue"]["name"] == "squire-sample"
        assert len(header["catalogue"]["sha256"]) == 64
        assert set(header["paladin_decks"]) == set(header["players"]) == set(header["agents"])


def legal(state, seat, event, options):
    """The bots only choose what the engine allows."""
    return canonical(event) in legal_events(state, seat)


@pytest.mark.parametrize("bot", ALL_BOTS)
def test_bots_only_choose_among_the_legal_events(bot):
    rng = random.Random(3)
    head = pa.Header(
        format="squire-log/1",
        game="paladins",
        game_id="b",
        **table(2, pa.STANDARD, rng, catalogue("paladins")),
    )
    state = pa.new_game(pa.STANDARD, head, catalogue("paladins"))
    playout(pa.RULES, state, [Checked(BOTS[bot](), legal) for _ in head.players], rng)
    assert pa.is_over(state)


def test_set_overrides_are_applied_and_recorded(tmp_path):
    out = tmp_path / "rich"
    assert (
        main(
            [
                "simulate",
                "paladins",
                "-n",
                "3",
                "--players",
                "2",
                "--set",
                "start_silver=20",
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
        assert json.loads(data.splitlines()[0])["rules"] == {"start_silver": 20}
        assert (
            replay(open_log(data, str(path), catalogues=CATALOGUES)).match.config.start_silver == 20
        )


def test_greedy_beats_random_by_a_wide_margin():
    spec = Spec(game="paladins", players=2, bots=("greedy", "random"), seed=5)
    assert greedy_win_share(spec, 10) >= 0.8  # one seat in two: a random bot would win about half


def test_the_bundled_samples_cover_every_table_and_bot_and_replay_cleanly():
    count, tables, bots = sample_tables_and_bots(SAMPLES)
    assert count >= 100
    assert tables == {1, 2, 3, 4} and bots == set(ALL_BOTS)
