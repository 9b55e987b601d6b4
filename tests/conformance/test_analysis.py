"""Move analysis: every decision with a choice is judged from its seat's view, the same way
twice, and flagged only where the interval of what it gave up clears the threshold."""

from __future__ import annotations

import gzip
import itertools

import msgspec
import pytest

from ingest.files.catalogues import Library
from replay.analysis import LABELS, decisions, judge, label_of
from replay.registry import GAMES
from replay.replayer import open_log, replay

from .play import NAMES, SAMPLES

ENCODE = msgspec.json.Encoder().encode


def test_a_move_is_flagged_only_when_its_whole_interval_clears_the_threshold():
    assert [label_of(x) for x in (4.9, 5.0, 9.99, 10.0, 14.9, 15.0, 60.0)] == [
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]
    assert [threshold for threshold, _ in LABELS] == [15.0, 10.0, 5.0]


@pytest.mark.parametrize("name", NAMES)
def test_decisions_are_judged_from_the_move_played_and_the_same_twice(name):
    game = GAMES[name]
    path = sorted(SAMPLES[name].glob("*.jsonl.gz"))[0]
    match = open_log(gzip.decompress(path.read_bytes()), str(path), catalogues=Library())
    outcome = replay(match)
    judged = 0
    for index, seat, state, event in itertools.islice(decisions(match, outcome), 12):
        if judged == 3:
            break
        assert len(game.legal_events(state, seat)) > 1  # a choice, and the seat's own
        one = judge(game, state, seat, event, index, samples=3, quick=2, keep=2, policy="random")
        if one is None:
            continue  # its view dealt again never leaves the move played open
        again = judge(game, state, seat, event, index, samples=3, quick=2, keep=2,
                      policy="random")  # fmt: skip
        assert one == again
        assert ENCODE(one.played) == ENCODE(event) and one.seat == seat
        assert one.loss >= 0 and one.low <= one.loss <= one.high
        assert one.label == (label_of(one.low) if one.loss > 0 else None)
        judged += 1
    assert judged > 0


def test_blunders_planted_are_flagged_and_moves_alike_are_not():
    """Late decisions of a Knight Academy sample (where moves differ most) rated by a
    reference of 256 playouts a move (confirmed on 1,024): each move 20 points below the best,
    planted, is flagged; where every move is within 2 points of the others, none is. Random
    playouts keep it to seconds; bench/planted_blunders.py measures more matches."""
    from replay.analysis import cases, judge_cases

    path = sorted(SAMPLES["knight-academy"].glob("*.jsonl.gz"))[9]
    match = open_log(gzip.decompress(path.read_bytes()), str(path), catalogues=Library())
    outcome = replay(match)
    rated = cases(match, outcome, after=225, reference=256, policy="random")
    found = judge_cases(match, outcome, rated, samples=16, policy="random")
    assert found.planted >= 3 and found.equal >= 10  # the test has something to measure
    assert found.caught >= 0.9 * found.planted
    assert found.false <= 0.05 * found.equal


def test_a_cut_playout_runs_through_the_rounds_it_is_given():
    """judge's `rounds`: the runs a scorer is handed end at that many rounds' ends on."""
    from replay.analysis import Cut, _shares

    name = "albus-academy"
    game = GAMES[name]
    path = sorted(SAMPLES[name].glob("*.jsonl.gz"))[0]
    match = open_log(gzip.decompress(path.read_bytes()), str(path), catalogues=Library())
    index, seat, state, _ = next(itertools.islice(decisions(match, replay(match)), 20, None))
    moves = list(game.legal_events(state, seat))[:2]
    ended: dict[int, list[int]] = {}

    def scorer(seat_, start, runs):
        return [0.5] * len(runs)

    for rounds in (1, 3):
        seen: list[int] = []

        def counting(seat_, start, runs, seen=seen):
            seen.extend(len(run) for run in runs)
            return scorer(seat_, start, runs)

        _shares(game, game.view(state, seat), seat, moves, 4, "rounds", "greedy",
                Cut(counting, index, rounds))  # fmt: skip
        ended[rounds] = seen
    assert len(ended[1]) == len(ended[3]) == 8
    assert sum(ended[3]) > 2 * sum(ended[1])  # three rounds' events, not one's


def test_a_loss_is_measured_on_more_samples_while_its_interval_holds_both_none_and_a_flag(
    monkeypatch,
):
    """The first 16 paired samples of a move 25 points worse can come out even (for two
    blunders planted early in an Albus Academy match they did): an interval from -50 to 50
    has settled nothing, so the pair is played out again, whatever the sign of its mean."""
    import replay.analysis as analysis

    name = "knight-academy"
    game = GAMES[name]
    path = sorted(SAMPLES[name].glob("*.jsonl.gz"))[0]
    match = open_log(gzip.decompress(path.read_bytes()), str(path), catalogues=Library())
    index, seat, state, event = next(decisions(match, replay(match)))
    asked: list[str] = []

    def shares(game_, seen, seat_, moves, samples, stream, policy, cut=None):
        asked.append(stream)
        if ":again:" not in stream:  # the pruning and the halving: every move alike
            return [[0.5] * samples for _ in moves]
        if stream.endswith(":again:0"):  # even: the best won half, the move played the other
            return [[1.0, 0.0] * (samples // 2), [0.0, 1.0] * (samples // 2)]
        return [[0.0] * samples, [1.0] * samples]  # then the best wins every one

    monkeypatch.setattr(analysis, "_shares", shares)
    one = judge(game, state, seat, event, index, samples=16)
    assert sum(":again:" in s for s in asked) > 1
    assert one is not None and one.samples > 16 and one.label == "blunder"


@pytest.mark.parametrize(
    ("best", "played", "flagged", "samples"),
    [
        # 0 points, differences of 30 either way: at 128 samples (half the cap) its interval
        # (-5.3 to 5.3) still holds both none and a flag, but at the cap of 256 it would be
        # 3.7 points either side: even a 5.3-point loss would not be told from a 5-point one
        # there, so it stops at 128 (the interval alone would have gone on to 144)
        ((0.65, 0.35), (0.35, 0.65), None, 128),
        # 10 points, differences of 40 and -20: at 128 samples its interval runs from 4.8 to
        # 15.2; its top could clear a flag, so it goes on until the interval clears 5 points
        ((0.7, 0.3), (0.3, 0.5), "inaccuracy", None),
    ],
)
def test_a_loss_stops_being_measured_once_more_samples_could_not_flag_it(
    monkeypatch, best, played, flagged, samples
):
    import replay.analysis as analysis

    name = "knight-academy"
    game = GAMES[name]
    path = sorted(SAMPLES[name].glob("*.jsonl.gz"))[0]
    match = open_log(gzip.decompress(path.read_bytes()), str(path), catalogues=Library())
    index, seat, state, event = next(decisions(match, replay(match)))

    def shares(game_, seen, seat_, moves, count, stream, policy, cut=None):
        if ":again:" not in stream:  # the pruning and the halving: every move alike
            return [[0.5] * count for _ in moves]
        return [list(played) * (count // 2), list(best) * (count // 2)]

    monkeypatch.setattr(analysis, "_shares", shares)
    one = judge(game, state, seat, event, index, samples=16)
    assert one is not None and one.label == flagged
    if samples is not None:
        assert one.samples == samples
    else:
        assert 128 < one.samples < 16 * analysis.GROW and one.low >= 5


def test_the_quick_pass_plays_one_move_of_each_kind_where_the_game_says_which_are_alike(
    monkeypatch,
):
    """A Paladins turn offers each action paid with workers of every colour that fits: the
    quick pass plays one of each (Simulation.alike), and every kind has its one."""
    import replay.analysis as analysis

    game = GAMES["paladins"]
    alike = game.simulation.alike
    path = sorted(SAMPLES["paladins"].glob("*.jsonl.gz"))[0]
    match = open_log(gzip.decompress(path.read_bytes()), str(path), catalogues=Library())

    def many_kinds(decision) -> bool:
        _, seat, state, _ = decision
        moves = list(game.legal_events(state, seat))
        kinds = {alike(m) for m in moves}
        return len(kinds) > 5 and len(moves) > 2 * len(kinds)

    index, seat, state, event = next(filter(many_kinds, decisions(match, replay(match))))
    moves = list(game.legal_events(state, seat))
    quick: list[list] = []

    def shares(game_, seen, seat_, moves_, samples, stream, policy, cut=None):
        if stream.endswith(":quick"):
            quick.append(list(moves_))
        return [[0.5] * samples for _ in moves_]

    monkeypatch.setattr(analysis, "_shares", shares)
    judge(game, state, seat, event, index, samples=4)
    (played,) = quick
    assert {alike(m) for m in played} == {alike(m) for m in moves}
    assert len(played) == len({alike(m) for m in played}) < len(moves)
