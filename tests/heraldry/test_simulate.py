"""Simulated Heraldry matches: maps, bots, determinism, overrides, and the bundled samples."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest

from ingest.cli import main
from ingest.read import find_logs, read_log
from ingest.simulate import Spec, simulate_chunk
from replay.games import heraldry as he
from replay.games.heraldry.bots import table
from replay.games.heraldry.legal import canonical
from replay.playout import playout
from replay.replayer import open_log, replay
from tests.support import Checked, greedy_win_share, sample_tables_and_bots

SAMPLES = Path(__file__).parents[2] / "data" / "samples" / "heraldry"
ALL_BOTS = ("greedy", "random")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_maps_are_legal_and_every_simulated_log_replays_to_the_simulators_scores(players):
    spec = Spec(game="heraldry", players=players, bots=ALL_BOTS, seed=players)
    maps = set()
    for written in simulate_chunk((spec, 0, 6)):
        data = gzip.decompress(written.data)
        outcome = replay(open_log(data, written.game_id))  # the header's map checks included
        assert dict(zip(outcome.match.header.players, outcome.result.scores)) == written.scores
        if outcome.result.complete:
            assert outcome.final_claim is not None
        else:  # nobody could make duke any more: cut short, claiming nothing (HE-15)
            assert outcome.final_claim is None and len(outcome.steps) == he.MAX_EVENTS
        header = outcome.match.header
        assert len(header.map) == 27 * players and all(h.tile is not None for h in header.map)
        assert set(header.agents) == set(header.players)
        maps.add(json.dumps(json.loads(data.splitlines()[0])["map"]))
    assert len(maps) == 6  # a fresh map for every match


def legal(state, seat, event, options):
    """The bots only choose what the engine allows."""
    return canonical(state, event) in he.legal_events(state, seat)


@pytest.mark.parametrize("bot", ALL_BOTS)
def test_bots_only_choose_among_the_legal_actions(bot):
    for seed in range(3):
        rng = random.Random(seed)
        fields = table(2 + seed % 3, he.STANDARD, rng)
        head = he.Header(format="squire-log/1", game="heraldry", game_id="b", **fields)
        state = he.new_game(he.STANDARD, head)
        playout(he.RULES, state, [Checked(he.bots.BOTS[bot](), legal) for _ in head.players], rng)
        assert he.is_over(state)


def test_set_overrides_are_applied_and_recorded(tmp_path):
    out = tmp_path / "cheap"
    assert (
        main(
            [
                "simulate",
                "heraldry",
                "-n",
                "6",
                "--bots",
                "greedy",
                "--players",
                "2",
                "--set",
                "promotion_cost=10",
                "--set",
                "city_points=7",
                "--out",
                str(out),
                "--jobs",
                "1",
            ]
        )
        == 0
    )
    cities = set()
    for path in find_logs([str(out)]):
        data = read_log(path)
        assert json.loads(data.splitlines()[0])["rules"] == {"promotion_cost": 10, "city_points": 7}
        outcome = replay(open_log(data, str(path)))
        assert outcome.match.config.promotion_cost == 10
        cities.update(sources["city"] for sources in outcome.result.sources)
    assert cities and all(points % 7 == 0 for points in cities) and max(cities) > 0


def test_a_bad_set_or_table_is_refused_before_any_match(tmp_path, capsys):
    assert (
        main(
            [
                "simulate",
                "heraldry",
                "-n",
                "2",
                "--set",
                "promotion_costs=10",
                "--out",
                str(tmp_path),
            ]
        )
        == 2
    )
    assert main(["simulate", "heraldry", "-n", "2", "--players", "5", "--out", str(tmp_path)]) == 2
    assert "LOG-3" in capsys.readouterr().err and not any(tmp_path.iterdir())


def test_greedy_beats_random_by_a_wide_margin():
    spec = Spec(game="heraldry", players=4, bots=("greedy", "random", "random", "random"), seed=11)
    assert greedy_win_share(spec, 40) > 0.5  # one seat in four: a random bot would win about 0.25


def test_the_bundled_samples_cover_every_table_and_bot_and_replay_cleanly():
    count, tables, bots = sample_tables_and_bots(SAMPLES)
    assert count >= 200
    assert tables == {2, 3, 4} and bots == set(ALL_BOTS)
