"""`squire review`: each seat's chance to win after every step, the turning points, and the
calibration script's report (its figures are not asserted here, only what it reports)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from ingest.analyses.outlook import Facts, calibration, fit, predict, sampled_steps, turning_points
from ingest.analyses.review import LEAST_MATCHES, fit_stored, review
from ingest.cli import main
from ingest.files.catalogues import Library
from ingest.pipeline.pipeline import ingest
from replay.registry import GAMES
from replay.replayer import open_log

ROOT = Path(__file__).parents[3]
EXAMPLES = {
    "knight-academy": ["ka-example-4p", "ka-example-gawain", "ka-example-lancelot"],
    "heraldry": ["he-example-3p"],
    "paladins": ["pa-example-3p"],
    "albus-academy": ["aa-example-3p"],
}


@pytest.fixture(scope="module")
def warehouse(samples_and_examples) -> Path:
    return samples_and_examples  # read only: a test that changes it changes a copy


def _log(name: str) -> Path:
    game = next(g for g, names in EXAMPLES.items() if name in names)
    return ROOT / "tests" / game.replace("-", "_") / "logs" / f"{name}.jsonl"


def test_turning_points_are_the_biggest_moves_first_each_for_the_seat_it_moved_most():
    timeline = [
        (0, {"Ann": 0.5, "Bob": 0.5}),
        (1, {"Ann": 0.55, "Bob": 0.45}),  # 5 points: at the threshold
        (2, {"Ann": 0.2, "Bob": 0.8}),  # 35 points, Ann named first of an equal pair
        (3, {"Ann": 0.22, "Bob": 0.78}),  # 2 points: too small
        (4, {"Ann": 0.9, "Bob": 0.1}),  # 68 points
    ]
    assert turning_points(timeline) == [
        (4, "Ann", 0.22, 0.9),
        (2, "Ann", 0.55, 0.2),
        (1, "Ann", 0.5, 0.55),
    ]
    assert turning_points(timeline, count=1) == [(4, "Ann", 0.22, 0.9)]
    three = [(0, {"A": 0.4, "B": 0.3, "C": 0.3}), (1, {"A": 0.35, "B": 0.05, "C": 0.6})]
    assert turning_points(three) == [(1, "C", 0.3, 0.6)]  # C moved 30, B 25, A 5


def _facts(rows: list[tuple[str, str, int, bool]], length: int = 10) -> Facts:
    """Two-seat matches where each seat scores `points` at step 5 and `won` says who won."""
    ids = sorted({r[0] for r in rows})
    return Facts(
        seats=pl.DataFrame(
            {
                "game_id": [r[0] for r in rows],
                "player": [r[1] for r in rows],
                "neutral": [False] * len(rows),
                "position": [0 if r[1] == "Ann" else 1 for r in rows],
                "won": [r[3] for r in rows],
            }
        ),
        lengths=pl.DataFrame({"game_id": ids, "event_count": [length] * len(ids)}),
        scores=pl.DataFrame(
            {
                "game_id": [r[0] for r in rows],
                "event_index": [5] * len(rows),
                "player": [r[1] for r in rows],
                "points": [r[2] for r in rows],
            }
        ),
        tracks=pl.DataFrame(
            schema={
                "game_id": pl.String,
                "event_index": pl.Int64,
                "player": pl.String,
                "track": pl.String,
                "progress_after": pl.Int64,
            }
        ),
        resources=pl.DataFrame(
            schema={
                "game_id": pl.String,
                "event_index": pl.Int64,
                "player": pl.String,
                "resource": pl.String,
                "delta": pl.Int64,
            }
        ),
    )


def test_the_model_learns_that_the_seat_ahead_on_points_usually_wins():
    # 40 matches: the seat 4 points ahead at step 5 wins three times in four, and each seat
    # (Ann starts every one) wins half of them
    rows = []
    for i in range(40):
        ahead, behind = ("Ann", "Bob") if i % 2 else ("Bob", "Ann")
        ahead_won = i % 8 not in (0, 1)
        rows += [(f"m{i:02}", ahead, 10, ahead_won), (f"m{i:02}", behind, 6, not ahead_won)]
    facts = _facts(rows)
    model = fit(facts, "test")
    chances = predict(model, facts.only(["m01"]), sampled_steps(facts.only(["m01"]).lengths, None))
    before = chances.filter(pl.col("step") == 4)["p"].to_list()
    after = chances.filter(pl.col("step") == 8).sort("player")["p"].to_list()  # Ann is ahead
    assert before == pytest.approx([0.5, 0.5], abs=0.05)  # nothing scored yet: a coin
    assert 0.65 < after[0] < 0.85 and sum(after) == pytest.approx(1.0)


@pytest.mark.parametrize("name", [n for names in EXAMPLES.values() for n in names])
def test_the_last_step_is_the_result_and_every_step_sums_to_one(warehouse, name):
    path = _log(name)
    match = open_log(path.read_bytes(), str(path), catalogues=Library(warehouse))
    reviewed = review(match, fit_stored(warehouse, match.game.name))
    game = match.game
    from replay.replayer import replay

    outcome = replay(match)
    winners = {match.header.players[s] for s in game.result(outcome.state).winners}
    steps, last = [s for s, _ in reviewed.timeline], reviewed.timeline[-1][1]
    assert steps == list(range(len(outcome.steps) + 1))
    assert last == {who: (1 / len(winners) if who in winners else 0.0) for who in last}
    neutral = getattr(match.header, "neutral", None)
    for _, p in reviewed.timeline:
        assert neutral not in p and sum(p.values()) == pytest.approx(1.0, abs=1e-3)
    for point in reviewed.turning_points:
        at = dict(reviewed.timeline)
        assert at[point["step"]][point["player"]] == point["after"]
        assert at[point["step"] - 1][point["player"]] == point["before"]


@pytest.mark.parametrize(
    "game_id",
    [
        *(f"ka-05163fd8-{i:06d}" for i in range(1, 13)),
        "pa-74d8ee29-000000",
        "he-08b08927-000002",
        "aa-0a002478-000000",
    ],
)
def test_from_the_event_that_ends_the_game_the_chances_are_its_result(warehouse, game_id):
    from ingest.analyses.review import over_at, stored_log
    from replay.log import Final
    from replay.replayer import replay

    match = open_log(stored_log(warehouse, game_id), game_id, catalogues=Library(warehouse))
    outcome = replay(match)
    game = match.game
    over = over_at(match)
    assert over is not None and over <= len(outcome.steps)
    # The engine itself: over after that event and not before.
    assert all(type(s.event) is not Final for s in outcome.steps[: over - 1])
    winners = {match.header.players[s] for s in game.result(outcome.state).winners}
    reviewed = review(match, fit_stored(warehouse, game.name), outcome)
    for step, p in reviewed.timeline:
        if step >= over:
            assert p == {who: (1 / len(winners) if who in winners else 0.0) for who in p}
    claims = {s.index for s in outcome.steps if type(s.event) is Final}
    assert not claims & {t["step"] for t in reviewed.turning_points}
    assert all(t["step"] <= over for t in reviewed.turning_points)


@pytest.mark.parametrize("game_id", ["ka-05163fd8-000015", "aa-fa5616c0-000014"])
def test_a_tie_the_rules_leave_standing_is_shared_at_the_last_step(warehouse, capsys, game_id):
    from ingest.warehouse.warehouse import open_reader

    winners = {
        who
        for (who,) in open_reader(warehouse)
        .execute("SELECT player FROM seats WHERE game_id = $id AND won", {"id": game_id})
        .fetchall()
    }
    assert len(winners) == 2  # a sample that ends in a shared win
    assert main(["review", game_id, "--db", str(warehouse), "--json"]) == 0
    last = json.loads(capsys.readouterr().out)["timeline"][-1]["p"]
    assert last == {who: (0.5 if who in winners else 0.0) for who in last}


def test_review_json_of_a_log_and_of_a_stored_match_agree(warehouse, capsys):
    path = _log("ka-example-4p")
    assert main(["review", str(path), "--db", str(warehouse), "--json"]) == 0
    of_log = json.loads(capsys.readouterr().out)
    assert set(of_log) == {"game_id", "timeline", "turning_points", "method"}
    assert of_log["game_id"] == "ka-example-4p"
    assert all(set(e) == {"step", "p"} for e in of_log["timeline"])
    assert all(
        set(t) == {"step", "player", "before", "after", "what"} for t in of_log["turning_points"]
    )
    stored = next((ROOT / "data" / "samples" / "heraldry").iterdir())
    game_id = stored.name.split(".")[0]
    assert main(["review", game_id, "--db", str(warehouse), "--json"]) == 0
    of_id = json.loads(capsys.readouterr().out)
    assert main(["review", str(stored), "--db", str(warehouse), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == of_id
    assert main(["review", game_id, "--db", str(warehouse)]) == 0
    text = capsys.readouterr().out
    assert "turning points:" in text and "after each round:" in text


def test_review_says_why_it_cannot(warehouse, tmp_path, capsys):
    assert main(["review", "no-such-match", "--db", str(warehouse)]) == 2
    assert "neither a log file nor a match stored" in capsys.readouterr().err
    empty = tmp_path / "empty"
    assert main(["review", str(_log("he-example-3p")), "--db", str(empty)]) == 2
    assert f"at least {LEAST_MATCHES} complete" in capsys.readouterr().err
    broken = tmp_path / "broken.jsonl"
    lines = _log("ka-example-4p").read_text().splitlines()
    broken.write_text("\n".join([*lines[:5], lines[5].replace('"pick"', '"pik"'), *lines[6:]]))
    assert main(["review", str(broken), "--db", str(warehouse)]) == 1
    assert "broken.jsonl:6:" in capsys.readouterr().err


def test_the_calibration_script_reports_each_game_against_the_naive_baselines(warehouse):
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "calibration.py"), "--db", str(warehouse), "--json"],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    ).stdout
    reports = {r["game"]: r for r in json.loads(out)}
    assert set(reports) == set(GAMES)
    for r in reports.values():
        assert r["train_matches"] > 0 and r["test_matches"] > 0
        for key in ("brier_model", "brier_leader", "brier_uniform"):
            assert 0.0 <= r[key] <= 2.0
        for name in ("model", "leader"):
            rows = r["reliability"][name]
            assert sum(row["n"] for row in rows) >= 2 * r["predictions"]  # a row a seat
            assert all(0.0 <= row["won"] <= 1.0 for row in rows)


def test_calibration_measures_on_matches_it_did_not_fit():
    rows = []
    for i in range(20):
        rows += [(f"m{i:02}", "Ann", 10, True), (f"m{i:02}", "Bob", 5, False)]
    facts = _facts(rows)
    report = calibration(facts.only([f"m{i:02}" for i in range(12)]), facts.only(["m15"]), "t")
    assert report["train_matches"] == 12 and report["test_matches"] == 1
    # Ann, who starts, scores more at step 5 and wins every match. The measured match's steps
    # are 0 to 9: the leader rule says 50/50 at steps 0-4 (a table's Brier 0.25 + 0.25) and
    # is right from step 5, so 5 × 0.5 / 10; everyone-alike is 0.5 throughout; the model
    # has learnt that the start player wins.
    assert report["predictions"] == 10
    assert report["brier_leader"] == 0.25 and report["brier_uniform"] == 0.5
    assert report["brier_model"] < 0.05


def test_every_ingest_keeps_each_games_model_and_fits_again_only_what_changed(warehouse, tmp_path):
    from ingest.analyses.review import MODELS, model_of

    kept = {p.stem: p for p in (warehouse / MODELS).glob("*.json")}
    assert set(kept) == {"knight-academy", "heraldry", "paladins", "albus-academy"}
    for game in kept:  # what the viewer reads is what it would fit itself
        assert model_of(warehouse, game) == fit_stored(warehouse, game)
    copy = tmp_path / "warehouse"
    shutil.copytree(warehouse, copy)
    before = {g: (copy / MODELS / f"{g}.json").stat().st_mtime_ns for g in kept}
    ingest([ROOT / "data" / "samples" / "paladins"], db=copy, jobs=1)  # nothing new
    assert {g: (copy / MODELS / f"{g}.json").stat().st_mtime_ns for g in kept} == before
    (copy / MODELS / "heraldry.json").write_text("{")  # unreadable: fitted again on demand
    assert model_of(copy, "heraldry") == fit_stored(copy, "heraldry")


def test_a_review_as_of_a_version_is_read_with_the_model_of_that_version(
    warehouse, tmp_path, capsys
):
    """Who was winning, quoted from a version, reads the same after more matches have had the
    game's model fitted again."""
    from ingest.warehouse import store

    copy = tmp_path / "warehouse"
    shutil.copytree(warehouse, copy)
    then = store.snapshot(copy).version
    game_id = "pa-74d8ee29-000000"
    assert main(["review", game_id, "--db", str(copy), "--json"]) == 0
    quoted = capsys.readouterr().out
    more = tmp_path / "more"  # a fifth more Paladins matches: the model is fitted again
    assert main(["simulate", "paladins", "-n", "30", "--bots", "random", "--seed", "3",
                 "--jobs", "1", "--out", str(more)]) == 0  # fmt: skip
    ingest([more], db=copy, jobs=1)
    capsys.readouterr()
    assert main(["review", game_id, "--db", str(copy), "--json"]) == 0
    assert capsys.readouterr().out != quoted
    assert main(["review", game_id, "--db", str(copy), "--json", "--as-of", str(then)]) == 0
    assert capsys.readouterr().out == quoted
    # a warehouse whose fits an older squire kept without their versions: fitted at it
    shutil.rmtree(copy / "models" / "paladins")
    assert main(["review", game_id, "--db", str(copy), "--json", "--as-of", str(then)]) == 0
    assert capsys.readouterr().out == quoted
    assert main(["review", game_id, "--db", str(copy), "--as-of", str(then), "--analyse"]) == 2


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_a_match_with_no_events_or_cut_before_its_first_score_is_reviewed(
    warehouse, tmp_path, capsys, game
):
    lines = _log(EXAMPLES[game][0]).read_text().splitlines()
    for kept, says in ((1, "the log holds no events: at the start, "), (3, "the log stops")):
        log = tmp_path / f"short-{kept}.jsonl"
        log.write_text("\n".join(lines[:kept]) + "\n")
        assert main(["review", str(log), "--db", str(warehouse)]) == 0
        out = capsys.readouterr().out
        assert says in out and "Traceback" not in out
        assert main(["review", str(log), "--db", str(warehouse), "--json"]) == 0
        reviewed = json.loads(capsys.readouterr().out)
        assert [t["step"] for t in reviewed["timeline"]] == list(range(kept))
        assert all(abs(sum(t["p"].values()) - 1) < 1e-3 for t in reviewed["timeline"])


def test_review_text_escapes_names_so_none_forges_a_line(warehouse, tmp_path, capsys):
    forged = "Ann\nx.jsonl:1: KA-1: forged\u2028"
    log = tmp_path / "forged.jsonl"
    log.write_text(_log("ka-example-4p").read_text().replace('"Ann"', json.dumps(forged)))
    assert main(["review", str(log), "--db", str(warehouse)]) == 0
    out = capsys.readouterr().out
    assert not any(line.startswith("x.jsonl:1:") for line in out.splitlines())
    assert "Ann\\nx.jsonl:1: KA-1: forged\\u2028" in out
    assert len(out.splitlines()) == len(out.split("\n")) - 1  # no other line break either
