"""What if, for designers: the stored matches the filters pick, re-scored under changed rule
numbers (`squire rescore`): who would have won, how ranks move, what each source would give."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import polars as pl
import streamlit as st

from dashboards import queries
from dashboards.common import filters, has_matches, measured
from dashboards.data import Filters, query, signature, version_in, warehouse_path
from dashboards.i18n import t
from dashboards.tables import show
from dashboards.visitor import queued, refusal, say_why_not, who
from ingest.analyses.rescore import match_json, rescore_stored
from ingest.club import gate
from ingest.club.access import Denied
from ingest.simulation.experiment import Arms, metric_names, play_pairs, run
from ingest.simulation.simulate import check, parse_settings
from ingest.warehouse.selection import Selection
from replay.errors import RulesError
from replay.registry import GAMES

st.title(t("what_if"))
if not has_matches():
    st.stop()
flt = filters()
assert flt.game is not None  # the sidebar always names one
game = GAMES[flt.game]


@st.cache_data(max_entries=16, show_spinner=False)
def _rescored(flt: Filters, changes: str, finish: str | None, signature_: str) -> dict[str, Any]:
    """The report as plain data (cached until the warehouse changes)."""
    selection = Selection(
        game=flt.game or "",
        variants=flt.variants,
        rulesets=flt.rulesets,
        players=flt.player_counts,
        since=flt.dates[0] if flt.dates else None,
        until=flt.dates[1] if flt.dates else None,
        as_of=version_in(signature_),
    )
    report = rescore_stored(warehouse_path(), selection, json.loads(changes), finish)
    return {
        "summary": report.summary(),
        "matches": [match_json(m) for m in report.matches],
        "sources": report.sources(),
        "estimated_sources": report.sources("estimated"),
        "ranks": report.rank_moves(),
        "refusal": report.refusal(),
    }


def rescored(flt: Filters, changes: str, finish: str | None) -> dict[str, Any]:
    """The rescore's report, made once for this session's question: a rerun of the page
    shows it again without queueing for the heavy slot, or counting in the hour's quota."""
    asked = (flt, changes, finish, signature())
    kept = st.session_state.get("what-if-report")
    if kept is not None and kept[0] == asked:
        found: dict[str, Any] = kept[1]
        return found
    what = {"game": game.name, "changes": changes, "finish": finish}
    with gate.heavy(warehouse_path(), VISITOR, "rescore", what, queued()):
        found = _rescored(flt, changes, finish, asked[3])
    st.session_state["what-if-report"] = (asked, found)
    return found


def _experiment(arms: Arms, most: int, batch: int, lines: Any) -> dict[str, Any]:
    """The experiment played to its end, each batch's estimate shown as it comes."""
    shown: list[str] = []
    final: dict[str, Any] = {}
    for report in run(
        arms, 0.01, most, batch, lambda work: map(play_pairs, work), lambda count: [(0, count)]
    ):
        if "stopped" in report:
            final = report
        else:
            ci = report.get("ci95") or [0.0, 0.0]
            shown.append(
                f"{report['matches']}: {report.get('difference') or 0:+.4f} "
                f"[{ci[0]:+.4f}, {ci[1]:+.4f}]"
            )
            lines.caption(" · ".join(shown))
    return final


VISITOR = who()
say_why_not(VISITOR, "rescore")  # the form stays, to read the rules by; the gate refuses it
defaults = msgspec.to_builtins(game.rulesets[game.standard_ruleset])
scoring = sorted(game.scoring_only)
st.caption(t("what_if_help"))
# One form: the change, then what to ask of it, the stored matches or new ones.
with st.form("what-if"):
    text = st.text_area(
        t("changes"),
        placeholder="\n".join(f"{k}={json.dumps(defaults[k])}" for k in scoring[:2]),
        key="what-if-changes",
    )
    bots = [None, *(game.simulation.bots if game.simulation else ())]
    finish = st.selectbox(
        t("finish_with"),
        bots,
        format_func=lambda b: t("no_bot") if b is None else b,
        key="what-if-finish",
    )
    st.caption(f"{t('what_if_experiment')} {t('what_if_experiment_help')}")
    left, middle, right = st.columns(3)
    metric = left.selectbox(
        t("metric"), metric_names(game), format_func=measured, key="experiment-metric"
    )
    counts = query(queries.FILTER_CHOICES).filter(pl.col("game") == game.name)["player_count"]
    tables = sorted(set(counts.to_list())) or [4]  # the tables its stored matches were played at
    seats = middle.selectbox(
        t("players"), tables, index=tables.index(4) if 4 in tables else 0, key="experiment-players"
    )
    most = right.number_input(t("most_matches"), 20, 2000, 200, step=20, key="experiment-max")
    buttons = st.container(horizontal=True)
    asked = buttons.form_submit_button(t("rescore"))
    run_it = buttons.form_submit_button(t("run_experiment"))
with st.expander(t("ruleset_numbers")):
    st.dataframe(
        pl.DataFrame(
            {
                t("number"): list(defaults),
                t("standard"): [json.dumps(v, ensure_ascii=False) for v in defaults.values()],
                t("changes_scoring_only"): [k in game.scoring_only for k in defaults],
            }
        ),
        hide_index=True,
    )

if asked or (st.session_state.get("what-if-done") and not run_it):
    st.session_state["what-if-done"] = True
    try:
        changes = parse_settings([line.strip() for line in text.splitlines() if line.strip()])
        game.resolve(None, changes)
    except (ValueError, RulesError) as err:
        st.error(str(err))
        st.stop()
    try:
        with st.spinner(t("rescoring")):
            found = rescored(flt, json.dumps(changes, sort_keys=True), finish)
    except Denied as denied:
        st.error(refusal(denied, "rescore"))
        st.stop()
    if found["refusal"]:
        st.error(found["refusal"])
        st.stop()
    summary = found["summary"]
    kind = t("scoring_only") if summary["scoring_only"] else t("changes_play")
    st.caption(f"{kind} · {', '.join(f'{k}={v}' for k, v in changes.items()) or t('no_change')}")
    cols = st.columns(4)
    cols[0].metric(t("matches"), summary["matches"])
    cols[1].metric(t("exact"), summary["exact"])
    cols[2].metric(t("changed_winner"), summary["changed_winner"])
    cols[3].metric(t("estimated"), summary["estimated"])
    if summary["cannot_play"]:
        st.info(t("cannot_play").format(n=summary["cannot_play"]))
    if summary["differ_unfinished"]:
        st.info(t("differ_unfinished").format(n=summary["differ_unfinished"]))
    rows = pl.DataFrame(
        [
            {
                "game_id": m["game_id"],
                "exact": m["exact"],
                "winners_before": ", ".join(m["winners_before"]),
                "winners_after": ", ".join(m["winners_after"] or []),
                "changed_winner": m["winners_after"] is not None
                and set(m["winners_after"]) != set(m["winners_before"]),
                "scores_before": json.dumps(m["scores_before"], ensure_ascii=False),
                "scores_after": json.dumps(m["scores_after"], ensure_ascii=False),
                "differs_at": m.get("differs_at"),
            }
            for m in found["matches"]
        ],
        schema_overrides={"differs_at": pl.Int64},
    )
    st.subheader(t("changed_winner"))
    show(rows.filter(pl.col("changed_winner")).drop("changed_winner"), "what-if-changed")
    st.subheader(t("source"))
    sources = pl.DataFrame(found["sources"]) if found["sources"] else pl.DataFrame()
    if not sources.is_empty():
        sources = sources.with_columns((pl.col("after") - pl.col("before")).alias("change"))
        show(sources.sort("players", "source"), "what-if-sources")
    if found["estimated_sources"]:
        st.subheader(f"{t('source')} ({t('estimated')})")
        show(pl.DataFrame(found["estimated_sources"]), "what-if-sources-estimated")
    st.subheader(t("rank_moves"))
    show(
        pl.DataFrame(
            {"places": [int(k) for k in found["ranks"]], "seats": list(found["ranks"].values())}
        ),
        "what-if-ranks",
    )
    with st.expander(t("every_match")):
        show(rows, "what-if-matches")

# A paired experiment with the same change: how many matches prove it (`squire experiment`).
if run_it:
    st.subheader(t("what_if_experiment"))
    try:
        b = parse_settings([line.strip() for line in text.splitlines() if line.strip()])
        arms = Arms(
            game=game.name,
            players=int(seats),
            bots=tuple(game.simulation.bots) if game.simulation else (),
            seed=0,
            a=b,  # A: with the change; B: the rules as they stand
            b={},
            metric=metric,
        )
        check(arms.spec("a"))
    except (ValueError, RulesError) as err:
        st.error(str(err))
        st.stop()
    batch = max(20, int(most) // 4)
    lines = st.empty()
    what = {"game": game.name, "changes": json.dumps(b, sort_keys=True), "matches": int(most)}
    try:
        with (
            gate.heavy(warehouse_path(), VISITOR, "experiment", what, queued()),
            st.spinner(t("playing")),
        ):
            final = _experiment(arms, int(most), batch, lines)
    except Denied as denied:
        st.error(refusal(denied, "experiment"))
        st.stop()
    low, high = final["ci95"] or [None, None]
    boxes = st.columns(3)
    boxes[0].metric(t("difference"), f"{final['difference']:+.4f}")
    boxes[1].metric("95%", f"[{low:+.4f}, {high:+.4f}]")
    boxes[2].metric(t("variance_saved"), f"{final['variance_saved']:.0%}")
    st.code(
        f"squire experiment {game.name} --a "
        + " ".join(f"'{k}={json.dumps(v)}'" for k, v in b.items())
        + f" --metric {metric} --players {int(seats)} --precision 0.01",
        language="bash",
    )
