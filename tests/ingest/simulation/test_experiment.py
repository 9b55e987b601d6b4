"""`squire experiment`: paired, sequential comparisons of two rule sets
(ingest.simulation.experiment)."""

from __future__ import annotations

import gzip
import json
import math

import msgspec
import pytest

from ingest.cli import main
from ingest.pipeline.executor import chunked
from ingest.simulation.experiment import (
    Arms,
    Tally,
    metric_names,
    play,
    play_pairs,
    result_row,
    run,
)
from ingest.warehouse.warehouse import open_reader
from replay.registry import GAMES


def _arms(**fields: object) -> Arms:
    base: dict[str, object] = {
        "game": "knight-academy",
        "players": 4,
        "bots": ("random",),
        "seed": 5,
        "a": {"quest_prizes": [17, 10, 4]},
        "b": {"quest_prizes": [12, 8, 4]},
        "metric": "source_share:quest",
    }
    return Arms(**{**base, **fields})  # type: ignore[arg-type]


def _lines(data: bytes) -> list[dict[str, object]]:
    return [msgspec.json.decode(line) for line in gzip.decompress(data).splitlines()]


def test_every_game_lists_its_metrics_and_knight_academy_its_cards(capsys):
    for name, game in GAMES.items():
        names = metric_names(game)
        assert {"start_player_win_rate", "seat_win_rate:1", "margin"} <= set(names), name
        assert {f"source_share:{s}" for s in game.sources} <= set(names)
    assert "card_win_rate:quest-5" in metric_names(GAMES["knight-academy"])
    assert main(["experiment", "heraldry", "--list-metrics"]) == 0
    listed = capsys.readouterr().out.split()
    assert listed == metric_names(GAMES["heraldry"]) and "source_share:city" in listed
    assert main(["experiment", "knight-academy", "--metric", "card_win_rate:quest-9"]) == 2
    assert "no metric" in capsys.readouterr().err


def test_a_pair_shares_its_table_and_its_deals_where_the_rules_allow():
    arms = _arms()
    _, a = play(arms, "a", 3)
    _, b = play(arms, "b", 3)
    la, lb = _lines(a), _lines(b)
    assert la[0]["agents"] == lb[0]["agents"] and la[0]["players"] == lb[0]["players"]
    deals = [
        [e for e in lines if e["kind"] == "deal" and e.get("round") == 1] for lines in (la, lb)
    ]
    assert deals[0] == deals[1] and len(deals[0]) == 4  # round 1's hands: the same luck
    assert la[0]["rules"] != lb[0]["rules"]
    _, unpaired = play(_arms(paired=False), "b", 3)
    assert [e for e in _lines(unpaired) if e["kind"] == "deal"][:4] != deals[0]


def test_pairing_narrows_the_interval_on_a_rule_that_changes_only_the_points():
    # Quest prizes change what the same deals and (random bots) plays score: paired, the luck
    # cancels almost wholly.
    paired = Tally(play_pairs((_arms(), 0, 60, False))).summary()
    apart = Tally(play_pairs((_arms(paired=False), 0, 60, False))).summary()
    assert paired["variance_saved"] > 0.4
    width = [s["ci95"][1] - s["ci95"][0] for s in (paired, apart)]
    assert width[0] < 0.7 * width[1]
    assert paired["ci95"][0] > 0  # higher quest prizes: a larger share of winners' points


def test_with_a_equal_to_b_the_interval_covers_0_about_95_times_in_100():
    # Unpaired, A = B: every interval is a fair draw. 60 experiments of 40 pairs each.
    covered = 0
    for seed in range(60):
        arms = _arms(seed=seed, b={"quest_prizes": [17, 10, 4]}, paired=False)
        low, high = Tally(play_pairs((arms, 0, 40, False))).summary()["ci95"]
        covered += low <= 0 <= high
    assert 50 <= covered <= 60, covered  # 57 expected; 50 is over 3 standard deviations off


def test_the_sequential_run_stops_at_the_precision_or_at_the_most_matches():
    def local(work):
        return map(play_pairs, work)

    def chunks(count):
        return chunked(count, 1, largest=50)

    reports = list(run(_arms(), 10.0, 400, 50, local, chunks))
    assert reports[-1]["stopped"] == "precision" and reports[-1]["matches"] == 50
    assert "estimated_matches" in reports[0]
    reports = list(run(_arms(), 1e-6, 100, 50, local, chunks))
    assert [r.get("matches") for r in reports[:-1]] == [50, 100]
    final = reports[-1]
    assert final["stopped"] == "max" and final["matches"] == 100 and final["paired"]
    low, high = final["ci95"]
    assert low < final["difference"] < high


def test_the_command_prints_a_line_a_batch_and_the_result_as_its_contract_says(tmp_path, capsys):
    args = [
        *("experiment", "knight-academy", "--metric", "start_player_win_rate"),
        *("--a", "quest_prizes=[17,10,4]", "--b", "quest_prizes=[30,10,4]"),
        *("--bots", "random", "--max", "60", "--batch", "30", "--precision", "0.0001"),
        *("--jobs", "1", "--json", "--out", str(tmp_path / "logs")),
        *("--db", str(tmp_path / "warehouse")),
    ]
    assert main(args) == 0
    *batches, final = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [b["matches"] for b in batches] == [30, 60]
    assert {"metric", "a", "b", "difference", "ci95", "matches", "paired", "stopped"} <= set(final)
    assert final["stopped"] == "max" and final["matches"] == 60 and final["paired"] is True
    assert final["a"] == {"quest_prizes": [17, 10, 4]}
    logs = tmp_path / "logs"
    assert len(list((logs / "a").iterdir())) == len(list((logs / "b").iterdir())) == 60
    # Stored, each arm tagged: Balance reads an experiment back from the warehouse.
    con = open_reader(tmp_path / "warehouse")
    rows = con.execute(
        "SELECT experiment, arm, count(*), any_value(source) FROM games GROUP BY ALL ORDER BY 2"
    ).fetchall()
    assert rows == [
        (final["experiment"], "a", 60, "squire experiment"),
        (final["experiment"], "b", 60, "squire experiment"),
    ]
    # What the experiment knew is kept beside its matches: the metric, A − B and its interval,
    # the matches played, and the stopping rule that ended it.
    [recorded] = con.execute(
        """SELECT metric, a, b, matches, pairs_measured, a_minus_b, a_minus_b_low,
        a_minus_b_high, stopped, precision, most, recorded, stored_a, stored_b FROM experiments
        WHERE experiment = $e""",
        {"e": final["experiment"]},
    ).fetchall()
    assert recorded == (
        "start_player_win_rate",
        '{"quest_prizes":[17,10,4]}',
        '{"quest_prizes":[30,10,4]}',
        60,
        final["pairs_measured"],
        final["difference"],
        *final["ci95"],
        "max",
        0.0001,
        60,
        True,
        60,
        60,
    )
    # Read at each earlier version, the experiment says what it had measured then: the record
    # after its first batch (unfinished), never one counting matches the version lacks.
    seen = set()
    for version in range(con.execute("SELECT max(version) FROM batches").fetchone()[0] + 1):
        then = (
            open_reader(tmp_path / "warehouse", version)
            .execute("SELECT recorded, matches, stored_a, stopped FROM experiments")
            .fetchall()
        )
        for was_recorded, matches, stored_a, stopped in then:
            if was_recorded:
                assert matches <= stored_a
                assert (stopped is None) == (matches == 30)
                seen.add(matches)
    assert seen == {30, 60}
    assert main(args) == 0  # the same arguments again: the same matches, already present
    capsys.readouterr()
    assert open_reader(tmp_path / "warehouse").execute("SELECT count(*) FROM games").fetchall() == [
        (120,)
    ]
    assert main([*args[:6], "--b", "quest_prizes=oops"]) == 2  # LOG-3, before any match
    assert "LOG-3" in capsys.readouterr().err


# The start player's share of each match's win (1/k of a k-way tie), by arm and match number,
# from the warehouse's seats: the metric as the matches stored give it.
START_PLAYER_SHARES = """
WITH shares AS (
    SELECT g.arm, regexp_extract(g.game_id, '(\\d+)$', 1) AS pair,
           coalesce(count(*) FILTER (WHERE s.start_player AND s.won)
                    / nullif(count(*) FILTER (WHERE s.won), 0), 0) AS share
    FROM games g JOIN seats s USING (game_id)
    WHERE g.experiment = $e AND g.complete AND NOT s.neutral GROUP BY ALL
)
SELECT a.share - b.share FROM shares a JOIN shares b USING (pair)
WHERE a.arm = 'a' AND b.arm = 'b' ORDER BY pair
"""


def test_the_stored_a_minus_b_and_its_interval_are_the_matches_own(tmp_path, capsys):
    db = tmp_path / "warehouse"
    args = [
        *("experiment", "knight-academy", "--metric", "start_player_win_rate"),
        *("--a", "quest_prizes=[17,10,4]", "--b", "quest_prizes=[30,10,4]"),
        *("--bots", "greedy,random", "--max", "40", "--batch", "20", "--jobs", "1"),
        *("--precision", "0.0001", "--json", "--db", str(db)),
    ]
    assert main(args) == 0
    final = json.loads(capsys.readouterr().out.splitlines()[-1])
    con = open_reader(db)
    differences = [
        d for (d,) in con.execute(START_PLAYER_SHARES, {"e": final["experiment"]}).fetchall()
    ]
    n = len(differences)
    mean = sum(differences) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in differences) / (n - 1) / n)
    [(shown, low, high, pairs)] = con.execute(
        "SELECT a_minus_b, a_minus_b_low, a_minus_b_high, pairs_measured FROM experiments"
    ).fetchall()
    assert pairs == n == 40
    assert shown == pytest.approx(mean) and shown == pytest.approx(final["difference"])
    assert (low, high) == pytest.approx((mean - 1.959964 * se, mean + 1.959964 * se))


def test_a_batch_is_recorded_unfinished_until_the_run_stops():
    def local(work):
        return map(play_pairs, work)

    reports = list(run(_arms(), 1e-6, 40, 20, local, lambda count: chunked(count, 1)))
    first = result_row(_arms(), reports[0], 1e-6, 40)
    assert first["stopped"] is None and first["matches"] == 20  # still running, or cut short
    assert first["pairs_measured"] == reports[0]["pairs"]
    last = result_row(_arms(), reports[-1], 1e-6, 40)
    assert last["stopped"] == "max" and last["matches"] == 40 and last["most"] == 40
    assert last["a_minus_b"] == reports[-1]["difference"]
    assert (last["a_minus_b_low"], last["a_minus_b_high"]) == tuple(reports[-1]["ci95"])
