"""Every game's simulator: logs that replay to the scores it claims, the same files whatever
the number of jobs, `--set` applied and recorded, bots of known strength, and the samples."""

from __future__ import annotations

import gzip
import json

import pytest

from ingest.cli import main
from ingest.files.read import find_logs, read_log
from ingest.simulation.simulate import Spec, simulate_chunk
from replay.registry import GAMES
from replay.replayer import open_log, replay
from tests.support import CATALOGUES, files, greedy_win_share, sample_tables_and_bots

from .play import NAMES, PROFILES, SAMPLES

TABLES = [(name, table) for name in NAMES for table in PROFILES[name].all_tables]


@pytest.mark.parametrize("name, table", TABLES)
def test_every_simulated_log_replays_to_the_simulators_scores(name, table):
    sim = GAMES[name].simulation
    assert sim is not None
    seating = PROFILES[name].seating(table)
    spec = Spec(game=name, bots=tuple(sim.bots), seed=seating["players"], **seating)
    for written in simulate_chunk((spec, 0, 4)):
        data = gzip.decompress(written.data)
        outcome = replay(open_log(data, written.game_id, catalogues=CATALOGUES))
        header = outcome.match.header
        assert dict(zip(header.players, outcome.result.scores)) == written.scores
        claim = outcome.final_claim
        assert (claim is not None and claim.scores == written.scores) or not (
            outcome.result.complete
        )  # a match the simulator cut short (max_events) claims nothing
        assert header.source == "squire simulate"
        assert set(header.agents) == set(header.players) - {getattr(header, "neutral", None)}
        assert set(header.agents.values()) <= set(sim.bots)


@pytest.mark.parametrize("name", NAMES)
def test_the_same_arguments_give_byte_identical_files_with_one_or_two_jobs(name, tmp_path):
    sim = GAMES[name].simulation
    assert sim is not None
    args = ["simulate", name, "-n", "8", "--players", str(PROFILES[name].tables[1]), "--bots",
            ",".join(sim.bots), "--seed", "7"]  # fmt: skip
    assert main([*args, "--jobs", "1", "--out", str(tmp_path / "one")]) == 0
    assert main([*args, "--jobs", "2", "--out", str(tmp_path / "two")]) == 0
    one, two = files(tmp_path / "one"), files(tmp_path / "two")
    assert len(one) == 8 and one == two
    assert main([*args[:-1], "8", "--jobs", "1", "--out", str(tmp_path / "other")]) == 0
    assert files(tmp_path / "other").keys().isdisjoint(one)  # another seed, other matches


@pytest.mark.parametrize("name", NAMES)
def test_set_overrides_are_applied_and_recorded(name, tmp_path):
    setting = PROFILES[name].setting
    sets = [
        a
        for key, value in setting.rules.items()
        for a in ("--set", f"{key}={json.dumps(value, separators=(',', ':'))}")
    ]
    args = ["simulate", name, "-n", str(setting.matches), "--players", str(setting.players),
            "--bots", setting.bots, "--out", str(tmp_path), "--jobs", "1"]  # fmt: skip
    assert main([*args, *sets]) == 0
    outcomes = []
    for path in find_logs([str(tmp_path)]):
        data = read_log(path)
        assert json.loads(data.splitlines()[0])["rules"] == setting.rules
        outcomes.append(replay(open_log(data, str(path), catalogues=CATALOGUES)))
    assert len(outcomes) == setting.matches and setting.shows(outcomes)


@pytest.mark.parametrize("name", NAMES)
def test_a_bad_set_or_table_is_refused_before_any_match(name, tmp_path, capsys):
    out = str(tmp_path)
    assert main(["simulate", name, "-n", "2", "--set", "no_such_rule=1", "--out", out]) == 2
    assert "LOG-3" in capsys.readouterr().err
    too_many = str(max(PROFILES[name].tables) + 1)
    assert main(["simulate", name, "-n", "2", "--players", too_many, "--out", out]) == 2
    assert capsys.readouterr().err and not any(tmp_path.iterdir())


@pytest.mark.parametrize("name", NAMES)
def test_greedy_beats_random_by_a_wide_margin(name):
    greedy = PROFILES[name].greedy
    bots = ("greedy", *["random"] * (greedy.players - 1))
    spec = Spec(game=name, players=greedy.players, bots=bots, seed=greedy.seed)
    # a random seat wins about 1 / players of the matches
    assert greedy_win_share(spec, greedy.matches) > greedy.share


@pytest.mark.parametrize("name", NAMES)
def test_the_bundled_samples_cover_every_table_and_bot_and_replay_cleanly(name):
    sim = GAMES[name].simulation
    assert sim is not None
    count, tables, bots = sample_tables_and_bots(SAMPLES[name])
    assert count >= PROFILES[name].samples
    assert tables == set(PROFILES[name].tables) and bots == set(sim.bots)
