"""`squire rescore`: stored matches replayed under changed rules (replay.rescore and
ingest.analyses.rescore)."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from ingest.analyses.rescore import rescore_stored
from ingest.cli import main
from ingest.files.read import find_logs, read_log
from ingest.pipeline.pipeline import ingest
from ingest.warehouse.selection import Selection
from replay.registry import GAMES
from replay.replayer import open_log, replay
from replay.rescore import rescore, with_rules
from tests.support import CATALOGUES

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "data" / "samples"
# For each game, a scoring-only number with another value (Game.scoring_only).
SCORING = {
    "knight-academy": {"quest_prizes": [12, 8, 4]},
    "heraldry": {
        "city_points": 4,
        "title_points": {"viscount": 1, "count": 2, "marquis": 3, "duke": 30},
    },
    "paladins": {"order_vp": [1, 2, 30]},
    "albus-academy": {"class_dismissed_prestige": 9},
}


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("rescore") / "warehouse"
    ingest([SAMPLES], db=db, jobs=1)
    return db


@pytest.mark.parametrize("name", sorted(GAMES))
def test_unchanged_rules_change_no_winner_and_no_score_on_every_games_samples(warehouse, name):
    report = rescore_stored(warehouse, Selection(game=name), {})
    assert report.matches and len(report.exact) == len(report.matches)
    for m in report.matches:
        assert m.after == m.before, m.game_id


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_scoring_only_change_rescores_exactly_as_the_logs_replay_with_it_written_in(
    warehouse, name
):
    changes = SCORING[name]
    assert set(changes) <= GAMES[name].scoring_only
    report = rescore_stored(warehouse, Selection(game=name), changes)
    assert len(report.exact) == len(report.matches)  # scoring only: every event still stands
    by_id = {m.game_id: m for m in report.matches}
    logs = sorted(find_logs([str(SAMPLES / name)]))[:25]
    differ = 0
    for path in logs:
        data = read_log(path)
        outcome = replay(open_log(with_rules(data, changes), str(path), catalogues=CATALOGUES))
        players = outcome.match.header.players
        m = by_id[outcome.match.header.game_id]
        assert m.after is not None
        assert m.after.scores == dict(zip(players, outcome.result.scores))
        differ += m.after.scores != m.before.scores
    assert differ, "the change moves some scores"


def test_with_rules_writes_the_changes_over_the_headers_and_drops_the_final_claim():
    data = (ROOT / "tests/knight_academy/logs/ka-example-advanced-3p.jsonl").read_bytes()
    written = with_rules(data, {"quest_prizes": [1, 1, 1]})
    header = msgspec.json.decode(written.splitlines()[0])
    assert header["ruleset"] == "knight-academy/advanced"
    assert header["rules"] == {"quest_prizes": [1, 1, 1]}
    done = read_log(sorted(find_logs([str(SAMPLES / "knight-academy")]))[0])
    assert b'"final"' in done and b'"final"' not in with_rules(done, {})


def test_a_play_changing_rule_finds_where_the_match_first_differs_and_bots_may_finish_it():
    data = (ROOT / "tests/knight_academy/logs/ka-example-4p.jsonl").read_bytes()
    # KA-21a: with a lift allowed, round 1's scoring asks its start player (Bob) first.
    alone = rescore(data, {"lifts": 1})
    assert not alone.exact and alone.after is None
    assert (alone.differs_at, alone.rule) == (41, "KA-10")
    finished = rescore(data, {"lifts": 1}, finish_with="greedy", seed=3)
    again = rescore(data, {"lifts": 1}, finish_with="greedy", seed=3)
    assert finished.after is not None and finished.after == again.after  # deterministic
    assert not finished.exact and sum(finished.after.scores.values()) != 0
    # A longer match: the log ends before the changed game does.
    longer = rescore(data, {"rounds": 7, "pass_directions": [1, -1, 1, -1, 1, -1, 1]})
    assert (longer.exact, longer.differs_at, longer.rule) == (False, 254, "LOG-4")
    # A shorter one: it ends sooner; what followed never happens, and that is exact.
    shorter = rescore(data, {"rounds": 5, "pass_directions": [1, -1, 1, -1, 1]})
    assert shorter.exact and shorter.after is not None
    assert shorter.after.scores != shorter.before.scores


def test_the_command_prints_its_contract_and_refuses_a_change_that_fits_no_ruleset(
    warehouse, capsys
):
    args = ["rescore", "knight-academy", "--db", str(warehouse), "--players", "3", "--json"]
    assert main([*args, "--set", "quest_prizes=[12,8,4]"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    *matches, summary = rows
    assert summary["summary"] is True and summary["matches"] == len(matches) > 0
    assert summary["scoring_only"] is True and summary["estimated"] == 0
    changed = [m for m in matches if set(m["winners_before"]) != set(m["winners_after"])]
    assert summary["changed_winner"] == len(changed)
    assert set(matches[0]) == {
        *("game_id", "exact", "winners_before", "winners_after"),
        *("scores_before", "scores_after"),
    }
    assert main([*args, "--set", "lifts=1", "--finish-with", "random"]) == 0
    *matches, summary = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert summary["estimated"] and all("differs_at" in m for m in matches if not m["exact"])
    assert main([*args, "--set", "quest_prices=[1]"]) == 2
    assert "LOG-3" in capsys.readouterr().err
    assert main(["rescore", "knight-academy", "--db", str(warehouse), "--set", "lifts=1"]) == 0
    out = capsys.readouterr().out
    assert "(play)" in out and "--finish-with BOT" in out


def test_the_selection_filters_like_the_statistics_pages(warehouse):
    everything = rescore_stored(warehouse, Selection(game="knight-academy"), {})
    lancelot = rescore_stored(
        warehouse, Selection(game="knight-academy", variants=["lancelot"]), {}
    )
    boards = rescore_stored(
        warehouse, Selection(game="knight-academy", rulesets=["knight-academy/all-boards"]), {}
    )
    humans = rescore_stored(warehouse, Selection(game="knight-academy", source="human"), {})
    assert 0 < len(lancelot.matches) < len(everything.matches)
    assert 0 < len(boards.matches) < len(everything.matches)
    assert humans.matches == []  # the samples were all played by bots
