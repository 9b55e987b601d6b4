"""The viewer's move analysis (ingest.analyses.moves): run from its button with a progress
bar, kept in the warehouse, and shown on the chances chart, in the move log and beside the
step's sentence, with the better move in the game's own words."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import plotly.graph_objects as go
import polars as pl
import streamlit as st

from dashboards.common import plain
from dashboards.data import signature, warehouse_path
from dashboards.i18n import t
from dashboards.match import Replayed, load, log_bytes
from dashboards.sentences import told
from dashboards.visitor import queued, refusal
from ingest.analyses import moves
from ingest.analyses.review import Review
from ingest.club import gate
from ingest.club.access import Denied, Who
from ingest.warehouse.location import Place
from replay.log import decoder_for
from replay.replayer import Step, state_at

MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}  # as chess annotates them
COLOURS = {"inaccuracy": "#e6b800", "mistake": "#ff7f0e", "blunder": "#d62728"}
SAMPLES = 16  # paired playouts a move (what `squire review --analyse` takes by default)
POLICY = "greedy"
JOBS: int | None = None  # local worker processes: every core
CUT = True  # playouts cut at the round's end and scored by the model, where there is one


def cut_words(rounds: int | None) -> str:
    """How far a cut playout runs, told in the help and the caption (nothing where the
    playouts are played to the end)."""
    if rounds is None:
        return ""
    return t("cut_playouts") if rounds == 1 else t("cut_playouts_rounds").format(rounds=rounds)


def kept(game_id: str) -> moves.Analysis | None:
    """The analysis the warehouse keeps for the match as stored now, if any."""
    loaded = load(game_id)
    if loaded is None:
        return None
    return moves.load(warehouse_path(), game_id, loaded.match)


def run(game_id: str, reviewed: Review | str | None, who: Who) -> moves.Analysis | str:
    """Analyse the match now, with a progress bar, and keep it; a string says why not (the
    visitor's role or quota, or another analysis running on this machine)."""
    db = warehouse_path()
    data = log_bytes(game_id)  # as the viewer read it: no reader of the warehouse of its own
    loaded = load(game_id)
    if data is None or loaded is None:
        return t("no_match")
    players = list(loaded.match.header.players)
    prior = None
    if isinstance(reviewed, Review) and reviewed.timeline:
        first = reviewed.timeline[0][1]
        prior = [first.get(p, 0.0) for p in players]
    try:
        with gate.heavy(db, who, "analysis", {"game_id": game_id}, queued()):
            return _analysed(db, data, game_id, prior)
    except Denied as denied:
        return refusal(denied, "analysis")


def _analysed(
    db: Place, data: bytes, game_id: str, prior: list[float] | None
) -> moves.Analysis | str:
    from ingest.pipeline.executor import ANALYSIS_PRELOAD, make_executor

    bar = st.progress(0.0, text=t("analysing"))

    def note(done: int, total: int) -> None:
        text = t("analysing_progress").format(done=done, total=total)
        bar.progress(done / total if total else 1.0, text=text)

    executor = make_executor(JOBS, preload=ANALYSIS_PRELOAD)
    try:
        with moves.running(db):
            analysis = moves.analyse_log(data, game_id, db, executor, samples=SAMPLES,
                                         policy=POLICY, prior=prior, on_progress=note,
                                         cut=CUT and prior is not None)  # fmt: skip
    except moves.Busy:
        return t("analysis_busy")
    finally:
        executor.close()  # also when the reader leaves the page: the workers stop
        bar.empty()
    moves.save(db, analysis)
    return analysis


def flagged(analysis: moves.Analysis) -> dict[int, moves.Decision]:
    """The decisions the analysis flags, by step."""
    return {d.index: d for d in analysis.decisions if d.label}


def marked(said: Sequence[str], analysis: moves.Analysis | None) -> list[str]:
    """The sentences, each flagged step's ending in its mark (?!, ?, ??)."""
    if analysis is None:
        return list(said)
    marks = {i: MARKS[d.label] for i, d in flagged(analysis).items() if d.label}
    return [f"{s} {marks[i]}" if i in marks else s for i, s in enumerate(said, 1)]


@st.cache_data(max_entries=256, show_spinner=False)
def _better(
    game_id: str, signature_: str, index: int, best: str, lang: str, seat: int | None
) -> str:
    loaded = load(game_id)
    assert loaded is not None
    return better_sentence(loaded, index, msgspec.json.decode(best), lang, seat)


def better_sentence(
    loaded: Replayed, index: int, best: dict[str, Any], lang: str, seat: int | None
) -> str:
    """The move `best` told as the step `index` would have been, had it been played there."""
    match = loaded.match
    game = match.game
    event = decoder_for(game.event_type).decode(msgspec.json.encode(best))
    state = state_at(match, index - 1)
    step = Step(index, loaded.steps[index - 1].line, state.round, event, game.apply(state, event))
    return told(match, [*loaded.steps[: index - 1], step], lang, seat)[-1]


def better(game_id: str, decision: moves.Decision, lang: str, seat: int | None) -> str:
    best = msgspec.json.encode(decision.best).decode()
    return _better(game_id, signature(), decision.index, best, lang, seat)


def verdict(decision: moves.Decision, lang: str | None = None) -> str:
    """ "Blunder ??: gave up 18.0 points of win chance (95%: 12.1 to 23.9)"."""
    assert decision.label is not None
    return t("move_verdict", lang).format(
        label=t(f"label_{decision.label}", lang),
        mark=MARKS[decision.label],
        loss=f"{decision.loss:.1f}",
        low=f"{decision.low:.1f}",
        high=f"{decision.high:.1f}",
    )


def add_marks(
    fig: go.Figure, analysis: moves.Analysis, reviewed: Review, players: Sequence[str]
) -> None:
    """A mark on the chances chart at each flagged step, on its seat's line."""
    at = dict(reviewed.timeline)
    for label, mark in MARKS.items():
        found = [d for d in analysis.decisions if d.label == label]
        if not found:
            continue
        fig.add_trace(
            go.Scatter(
                x=[d.index for d in found],
                y=[at.get(d.index, {}).get(players[d.seat], 0.0) for d in found],
                mode="markers",
                marker={"size": 11, "symbol": "x", "color": COLOURS[label]},
                showlegend=False,  # the seats' legend stays one line; a mark says itself on hover
                name=f"{t(f'label_{label}')} {mark}",
                customdata=[[players[d.seat], f"{d.loss:.1f}"] for d in found],
                hovertemplate=f"%{{customdata[0]}} · {t(f'label_{label}')} −%{{customdata[1]}} · "
                f"{t('step')} %{{x}}<extra></extra>",
            )
        )


def seats_table(analysis: moves.Analysis) -> pl.DataFrame:
    """A row a seat: its accuracy, its flagged decisions by kind, and how its result came
    about (points of win chance moved by chance and by the choices)."""
    rows = []
    for seat, player in enumerate(analysis.players):
        mine = [d for d in analysis.decisions if d.seat == seat]
        moved = analysis.swings[seat] if analysis.swings else None
        rows.append(
            {
                t("player"): plain(player),
                t("decisions_judged"): len(mine),
                t("accuracy"): analysis.accuracy[seat],
                **{t(f"label_{k}_count"): sum(d.label == k for d in mine) for k in MARKS},
                t("by_chance"): None if moved is None else moved.chance,
                t("by_choices"): None if moved is None else moved.choices,
                t("chance_share"): None if moved is None or moved.share is None
                else 100 * moved.share,
            }
        )  # fmt: skip
    return pl.DataFrame(rows)
