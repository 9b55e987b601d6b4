"""Is the move analysis honest? Blunders planted in bot matches, and decisions where nothing
matters, judged as `squire review --analyse` judges them.

    python bench/planted_blunders.py GAME [--matches 6] [--every 3] [--reference 256]
                                          [--samples 16] [--policy greedy] [--jobs 2]
                                          [--analysis-policy BOT]
                                          [--cut] [--rounds 1] [--menu 8] [--late 0.5]
                                          [--early 0.5] [--cases FILE]

Each `every`-th decision of the first `matches` samples of the game is rated by a reference:
every move played out `reference` times (far above the analysis's `samples`), on samples of
its own (and a move that seems 20 points below the best is rated again, on four times the
samples). Where a move is 20 points of win chance below the best, it is planted in the
decision's place and judged: it should be flagged. Where every move is within 2 points of the
others, a move is judged: it should not be. `--menu K` rates only K moves of a larger decision
(the one played and others at random), which only plants blunders there: what Heraldry's and
Paladins' menus of fifty to a hundred moves cost otherwise. Prints how many of each, and the
shares flagged.

The reference costs far more than the judging: `--cases FILE` keeps the decisions it rated
and the moves it chose, a match at a time as each is rated, and the next runs with the same
reference read them, so settings of the analysis (`--cut`, `--rounds`, `--samples`) are
compared on the same plants. A run stopped part-way keeps the matches it finished; the next
rates only the matches the file lacks.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(HERE))  # bench/dashboards.py would stand for the package of that name

from ingest.files.catalogues import Library  # noqa: E402
from ingest.pipeline.executor import ANALYSIS_PRELOAD, make_executor  # noqa: E402
from replay.analysis import Case, Planted, cases, judge_cases  # noqa: E402
from replay.registry import GAMES  # noqa: E402

SAMPLES = HERE / "data" / "samples"


Task = tuple[
    str, int, int, int, str, str, str | None, int | None, float, float, int, list[Case] | None
]


def _one(task: Task) -> tuple[str, list[Case], Planted]:
    path, every, reference, samples, policy, judging, db, menu, late, early, rounds, kept = task
    from replay.replayer import open_log, replay

    match = open_log(gzip.decompress(Path(path).read_bytes()), path, catalogues=Library())
    outcome = replay(match)
    scorer = None
    if db is not None:  # cut playouts, scored by the model fitted on the samples
        from ingest.analyses.cut import ModelScorer
        from ingest.analyses.review import model_of

        scorer = ModelScorer(model_of(Path(db), match.game.name), match, outcome)
    after = int(late * len(match.lines))  # the decisions after this share of the events
    before = int(early * len(match.lines))  # and up to this one
    found = kept
    if found is None:
        found = cases(match, outcome, every=every, after=after, before=before,
                      reference=reference, policy=policy, menu=menu)  # fmt: skip
    judged = judge_cases(match, outcome, found, samples=samples, policy=judging, scorer=scorer,
                         rounds=rounds)  # fmt: skip
    return path, found, judged


def _keep(file: Path, made_by: dict[str, object], kept: dict[str, list[Case]]) -> None:
    """Write the cases rated so far, whole or not at all: a run stopped while writing keeps
    the file of the match before."""
    rows = {name: [[c.index, c.move, c.blunder] for c in made] for name, made in kept.items()}
    part = file.with_name(file.name + ".part")
    part.write_text(json.dumps({"made_by": made_by, "cases": rows}) + "\n")
    part.replace(file)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("game", choices=sorted(GAMES))
    p.add_argument("--matches", type=int, default=6)
    p.add_argument("--every", type=int, default=3)
    p.add_argument("--reference", type=int, default=256)
    p.add_argument("--samples", type=int, default=16)
    p.add_argument("--policy", default="greedy", help="the bot the reference's playouts play")
    p.add_argument("--analysis-policy", default=None,
                   help="the bot the analysis's playouts play (default: the reference's), so "
                        "a cheaper one can be measured against the same reference")  # fmt: skip
    p.add_argument("--jobs", type=int, default=None)
    p.add_argument("--cut", action="store_true", help="the analysis cuts its playouts (--cut)")
    p.add_argument("--rounds", type=int, default=None,
                   help="with --cut, the playouts are cut this many rounds' ends on (default: "
                        "the game's, as the analysis cuts them, or none where its analysis "
                        "plays them to the end)")  # fmt: skip
    p.add_argument("--cases", type=Path, default=None,
                   help="keep the reference's cases in this file, and judge those kept there "
                        "on the next run")  # fmt: skip
    p.add_argument("--late", type=float, default=0.0,
                   help="only the decisions after this share of a match's events (0.5: its "
                        "second half, whose playouts to the end cost half)")  # fmt: skip
    p.add_argument("--early", type=float, default=1.0,
                   help="only the decisions up to this share of a match's events (0.5: its "
                        "first half)")  # fmt: skip
    p.add_argument("--menu", type=int, default=None,
                   help="rate at most this many moves of a decision (the one played and others "
                        "at random); larger menus only plant blunders")  # fmt: skip
    args = p.parse_args()
    judging = args.analysis_policy or args.policy
    if args.rounds is None:
        sim = GAMES[args.game].simulation
        args.rounds = 1 if sim is None else sim.analysis_rounds
    if args.rounds is None:  # the game's analysis plays its playouts to the end
        args.cut, args.rounds = False, 1
    paths = sorted((SAMPLES / args.game).glob("*.jsonl.gz"))[: args.matches]
    made_by = {"game": args.game, "every": args.every, "reference": args.reference,
               "policy": args.policy, "menu": args.menu, "late": args.late}  # fmt: skip
    if args.early < 1:
        made_by["early"] = args.early
    kept: dict[str, list[Case]] = {}
    if args.cases is not None and args.cases.exists():
        saved = json.loads(args.cases.read_text())
        if saved["made_by"] != made_by:
            p.error(f"{args.cases} holds the cases of another run: {saved['made_by']}")
        kept = {path: [Case(*c) for c in found] for path, found in saved["cases"].items()}
    started = time.perf_counter()
    scratch = tempfile.TemporaryDirectory()
    db = None
    if args.cut:  # the game's samples in a warehouse of their own, for the model's fit
        from ingest.analyses.review import refresh_models
        from ingest.pipeline.pipeline import ingest

        db = str(Path(scratch.name) / "warehouse")
        ingest([SAMPLES / args.game], db=Path(db), jobs=args.jobs)
        refresh_models(Path(db))
    executor = make_executor(args.jobs, preload=ANALYSIS_PRELOAD)
    total = Planted(0, 0, 0, 0)
    try:
        tasks: list[Task] = [
            (str(f), args.every, args.reference, args.samples, args.policy, judging, db, args.menu,
             args.late, args.early, args.rounds, kept.get(f.name))
            for f in paths
        ]  # fmt: skip
        for path, made, one in executor.map_unordered(_one, tasks):
            total = Planted(*(a + b for a, b in zip(vars(total).values(), vars(one).values())))
            if args.cases is not None and Path(path).name not in kept:
                kept[Path(path).name] = made
                _keep(args.cases, made_by, kept)
    finally:
        executor.close()
        scratch.cleanup()
    caught = total.caught / total.planted if total.planted else float("nan")
    false = total.false / total.equal if total.equal else float("nan")
    print(
        f"{args.game}: {len(paths)} matches, every {args.every} decisions"
        + (f" after {args.late:.0%} of the events" if args.late else "")
        + (f" up to {args.early:.0%} of the events" if args.early < 1 else "")
        + (f", at most {args.menu} moves of a decision rated" if args.menu else "")
        + f", reference {args.reference} playouts a move ({args.policy}), analysis "
        f"{args.samples} ({judging} playouts"
        + (f", cut at the end of {args.rounds} round(s))" if args.cut else ")")
    )
    print(
        f"  planted blunders (≥20 points worse): {total.planted}, flagged {total.caught} "
        f"({caught:.0%})"
    )
    print(
        f"  decisions where every move is within 2 points: {total.equal}, flagged "
        f"{total.false} ({false:.0%})"
    )
    print(f"  {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
