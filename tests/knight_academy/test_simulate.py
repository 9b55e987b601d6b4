"""Simulated Knight Academy matches: bots, determinism, overrides, and the bundled samples."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from ingest.cli import main
from ingest.read import find_logs, read_log
from ingest.simulate import Spec, simulate_chunk
from replay.games import knight_academy as ka
from replay.playout import playout
from replay.replayer import open_log, replay
from tests.support import Checked, greedy_win_share, sample_tables_and_bots

SAMPLES = Path(__file__).parents[2] / "data" / "samples" / "knight-academy"
ALL_BOTS = ("greedy", "random", "focus", "denier")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_simulated_log_replays_cleanly_to_the_simulators_scores(players):
    spec = Spec(game="knight-academy", players=players, bots=ALL_BOTS, seed=players)
    for written in simulate_chunk((spec, 0, 12)):
        data = gzip.decompress(written.data)
        outcome = replay(open_log(data, written.game_id))
        assert outcome.result.complete
        assert outcome.final_claim is not None and outcome.final_claim.scores == written.scores
        header = json.loads(data.splitlines()[0])
        assert header["source"] == "squire simulate"
        assert set(header["agents"].values()) <= set(ALL_BOTS)
        assert set(header["agents"]) == set(header["players"]) - {header.get("neutral")}


def legal(state, seat, event, options):
    """The bots only choose what the engine allows."""
    return event in options


@pytest.mark.parametrize("bot", ALL_BOTS)
def test_bots_only_choose_among_the_legal_options(bot):
    for seed in range(8):
        rng = random.Random(seed)
        players = 3 + seed % 3
        header = ka.Header(
            format="squire-log/1", game="knight-academy", game_id="b", **ka.bots.table(players)
        )
        state = ka.new_game(ka.STANDARD, header)
        bots = [Checked(ka.BOTS[bot](), legal) for _ in header.players]
        playout(ka.RULES, state, bots, rng)
        assert ka.is_over(state)


def test_set_overrides_are_applied_and_recorded(tmp_path):
    out = tmp_path / "quest"
    assert (
        main(
            [
                "simulate",
                "knight-academy",
                "-n",
                "20",
                "--bots",
                "greedy",
                "--set",
                "quest_prizes=[30,20,10]",
                "--set",
                "king_cap=15",
                "--out",
                str(out),
                "--jobs",
                "1",
            ]
        )
        == 0
    )
    quests = set()
    for path in find_logs([str(out)]):
        data = read_log(path)
        assert json.loads(data.splitlines()[0])["rules"] == {
            "quest_prizes": [30, 20, 10],
            "king_cap": 15,
        }
        outcome = replay(open_log(data, str(path)))
        assert outcome.match.config.king_cap == 15
        quests.update(sources["quest"] for sources in outcome.result.sources)
    assert 30 in quests and quests <= {0, 10, 20, 30}


def test_a_bad_set_is_refused_before_any_match(tmp_path, capsys):
    assert (
        main(
            [
                "simulate",
                "knight-academy",
                "-n",
                "2",
                "--set",
                "quest_prize=[1]",
                "--out",
                str(tmp_path),
            ]
        )
        == 2
    )
    assert "LOG-3" in capsys.readouterr().err and not any(tmp_path.iterdir())


def test_greedy_beats_random_by_a_wide_margin():
    spec = Spec(
        game="knight-academy", players=4, bots=("greedy", "random", "random", "random"), seed=11
    )
    assert greedy_win_share(spec, 200) > 0.6  # one seat in four: a random bot would win about 0.25


def test_the_bundled_samples_cover_every_table_and_bot_and_replay_cleanly():
    count, tables, bots = sample_tables_and_bots(SAMPLES)
    assert count >= 300
    assert tables == {2, 3, 4, 5} and bots == set(ALL_BOTS)
