"""A match's move analysis spread over workers and kept in the warehouse (`squire review
--analyse`), and how a seat's result is split between chance and the choices."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import msgspec
import pytest

from ingest.analyses import moves
from ingest.cli import main
from ingest.files.catalogues import Library
from ingest.pipeline.executor import InProcess, LocalProcesses
from ingest.pipeline.pipeline import ingest
from replay.analysis import Judged, decisions, judge, swings
from replay.replayer import open_log, replay

ROOT = Path(__file__).parents[3]
SAMPLE = ROOT / "data" / "samples" / "knight-academy" / "ka-0bbef6a9-000012.jsonl.gz"
GAME_ID = "ka-0bbef6a9-000012"
CHEAP = {"samples": 2, "policy": "random"}  # about 2 s for its 197 decisions


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("moves") / "warehouse"
    ingest([SAMPLE], db=db, jobs=1)
    return db


def _judged(seat: int, loss: float, low: float) -> Judged:
    label = "blunder" if low >= 15 else None
    return Judged(1, seat, None, None, loss, low, loss + 5, label, 3, 3, 16)


def test_a_result_is_split_between_the_choices_flagged_and_chance():
    # Ann (seat 0) blundered 30 points and lost; Bob and Cid gave up nothing flagged (Bob's
    # 8-point loss has an interval reaching below 5); Bob won. Each started at a third.
    judged = [_judged(0, 30.0, 20.0), _judged(1, 8.0, 2.0)]
    ann, bob, cid = swings(judged, winners=[1], prior=[1 / 3] * 3)
    # Ann: 0 − 33.3 = −33.3 in all; her choices −30, the rest chance
    assert ann.choices == pytest.approx(-30.0)
    assert ann.chance == pytest.approx(-100 / 3 + 30)
    # Bob: 100 − 33.3 = 66.7; Ann's 30 shared with Cid, 15 each
    assert bob.choices == pytest.approx(15.0)
    assert bob.chance == pytest.approx(200 / 3 - 15)
    assert bob.share == pytest.approx((200 / 3 - 15) / (200 / 3))
    # Cid: −33.3; +15 from Ann's blunder, so chance cost him 48.3
    assert cid.choices == pytest.approx(15.0)
    assert cid.chance == pytest.approx(-100 / 3 - 15)
    # a tie shares the win: 50 points each
    tied = swings([], winners=[0, 1], prior=[0.5, 0.5])
    assert [(s.chance, s.choices, s.share) for s in tied] == [(0.0, 0.0, None)] * 2


def test_the_analysis_is_the_same_on_one_process_and_on_two_and_judges_every_choice():
    data = gzip.decompress(SAMPLE.read_bytes())
    progress: list[tuple[int, int]] = []
    one = moves.analyse_log(data, GAME_ID, ROOT / "none", InProcess(), **CHEAP,
                            on_progress=lambda d, t: progress.append((d, t)))  # fmt: skip
    pool = LocalProcesses(2)
    try:
        two = moves.analyse_log(data, GAME_ID, ROOT / "none", pool, **CHEAP)
    finally:
        pool.close()
    assert one.decisions == two.decisions and one.accuracy == two.accuracy
    match = open_log(data, GAME_ID, catalogues=Library())
    points = list(decisions(match, replay(match)))
    assert [d.index for d in one.decisions] == [p[0] for p in points]
    assert progress[0] == (0, len(points)) and progress[-1] == (len(points), len(points))
    assert [d for d, _ in progress] == sorted(d for d, _ in progress)
    # each decision as replay.analysis judges it alone, from the same random streams
    index, seat, state, event = points[40]
    alone = judge(match.game, state, seat, event, index, **CHEAP)
    assert alone is not None
    assert msgspec.to_builtins(one.decisions[40]) == alone.to_json()
    # accuracy: 100 less the mean loss of the seat's decisions
    mine = [d.loss for d in one.decisions if d.seat == 1]
    assert one.accuracy[1] == pytest.approx(100 - sum(mine) / len(mine))


def test_an_analysis_is_shown_only_for_the_log_it_judged(tmp_path):
    data = gzip.decompress(SAMPLE.read_bytes())
    match = open_log(data, GAME_ID, catalogues=Library())
    analysis = moves.Analysis(
        game_id=GAME_ID, fingerprint=moves.fingerprint(match), players=["A", "B", "C", "D"],
        samples=2, policy="random", seed=0, seconds=1.0, decisions=[],
        accuracy=[None] * 4, swings=None,
    )  # fmt: skip
    moves.save(tmp_path, analysis)
    assert moves.load(tmp_path, GAME_ID, match) == analysis
    lines = data.splitlines()
    changed = b"\n".join(lines[:-2] + lines[-1:]) + b"\n"  # an event fewer: another log
    other = open_log(changed, GAME_ID, catalogues=Library())
    assert moves.load(tmp_path, GAME_ID, other) is None
    assert moves.load(tmp_path, "ka-no-such-match", match) is None
    assert not list((tmp_path / moves.ANALYSES).glob(".*partial"))


@pytest.mark.parametrize(
    ("game", "now", "kept"),
    [
        # Paladins' analysis plays its cut playouts through three rounds' ends: cut at the
        # first, it flagged 5 of 8 planted blunders and 1 of 13 alike decisions, 8 and 0 at
        # the third
        ("paladins", 3, ((1, True, False), (3, True, True), (1, False, True))),
        # Albus Academy's plays them to the end: cut through eight rounds' ends, it flagged 15
        # of 20 planted in the first halves, to the end 18 (docs/review.md)
        ("albus-academy", None, ((1, True, False), (8, True, False), (1, False, True))),
    ],
)
def test_an_analysis_cut_sooner_than_its_game_cuts_now_is_not_shown(tmp_path, game, now, kept):
    """One kept from before is judged again, not shown."""
    path = sorted((ROOT / "data" / "samples" / game).glob("*.jsonl.gz"))[0]
    match = open_log(gzip.decompress(path.read_bytes()), path.name, catalogues=Library())
    game_id = match.header.game_id
    assert moves.rounds_of(match.game) == now
    for rounds, cut, shown in kept:
        analysis = moves.Analysis(
            game_id=game_id, fingerprint=moves.fingerprint(match), players=["A", "B", "C"],
            samples=2, policy="greedy", seed=0, cut=cut, rounds=rounds, seconds=1.0,
            decisions=[], accuracy=[None] * 3, swings=None,
        )  # fmt: skip
        moves.save(tmp_path, analysis)
        assert (moves.load(tmp_path, game_id, match) == analysis) is shown, (rounds, cut)
    assert (
        moves.Analysis(**{**msgspec.structs.asdict(analysis), "cut": True}).to_json()["playouts"]
        == "cut at the round's end"
    )


def test_review_analyse_keeps_the_analysis_of_a_stored_match(warehouse, capsys):
    args = ["review", GAME_ID, "--db", str(warehouse), "--analyse", "--samples", "2",
            "--policy", "random", "--jobs", "1"]  # fmt: skip
    assert main([*args, "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    data = gzip.decompress(SAMPLE.read_bytes())
    match = open_log(data, GAME_ID, catalogues=Library())
    kept = moves.load(warehouse, GAME_ID, match)
    assert kept is not None
    assert printed["decisions"] == [msgspec.to_builtins(d) for d in kept.decisions]
    assert list(printed["accuracy"]) == ["Ann", "Bob", "Cid", "Dee"]
    # the split adds up to each seat's result less its chance at the start
    winners = replay(match).result.winners
    for seat, who in enumerate(kept.players):
        moved = printed["chance"][who]
        result = 100 / len(winners) if seat in winners else 0.0
        assert moved["chance"] + moved["choices"] == pytest.approx(result - 25, abs=0.02)
    # the text names each flagged move and its better one
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "kept in the warehouse" in text
    for d in kept.decisions:
        if d.label:
            assert f"step {d.index:>4}" in text
    # while another analysis runs on the warehouse, a second says so and waits for nothing
    with moves.running(warehouse):
        assert main(args) == 2
    assert "another analysis is running" in capsys.readouterr().err


def test_review_analyse_of_a_log_elsewhere_is_printed_not_kept(tmp_path, capsys):
    log = tmp_path / "edited.jsonl"
    lines = gzip.decompress(SAMPLE.read_bytes()).splitlines()
    log.write_bytes(b"\n".join(lines[:120]) + b"\n")  # the match's first 119 events alone
    db = tmp_path / "empty"
    assert main(["review", str(log), "--db", str(db), "--analyse", "--samples", "2",
                 "--policy", "random", "--jobs", "1", "--json"]) == 0  # fmt: skip
    printed = json.loads(capsys.readouterr().out)
    assert printed["decisions"] and printed["chance"] is None  # no result to split
    assert not (db / moves.ANALYSES).exists() or not list((db / moves.ANALYSES).glob("*.json"))


def test_a_cut_playout_is_scored_as_the_review_scores_the_match_at_that_step(tmp_path):
    """The scorer of cut playouts, handed the match's own events from a decision on, gives
    each seat the chance the review's model gives it after the last of them: where each seat
    stood before the decision, summed up, reads as the whole match's facts do."""
    from ingest.analyses.cut import ModelScorer
    from ingest.analyses.review import fit_stored, review

    db = tmp_path / "warehouse"
    ingest(sorted(SAMPLE.parent.glob("*.jsonl.gz"))[:40], db=db, jobs=1)
    model = fit_stored(db, "knight-academy")
    data = gzip.decompress(SAMPLE.read_bytes())
    match = open_log(data, GAME_ID, catalogues=Library())
    outcome = replay(match)
    timeline = dict(review(match, model, outcome).timeline)
    scorer = ModelScorer(model, match, outcome)
    steps = outcome.steps
    for start, ends in ((1, (1, 30)), (90, (90, 91, 130)), (150, (170, 190))):
        runs = [[(s.event, s.facts) for s in steps[start - 1 : end]] for end in ends]
        for seat, who in enumerate(match.header.players):
            scored = scorer(seat, start, runs)
            assert scored == pytest.approx([timeline[end][who] for end in ends], abs=1e-4)
