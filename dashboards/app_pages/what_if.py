"""What if, for designers: the stored matches the filters pick, re-scored under changed rule
numbers (`squire rescore`): who would have won, how ranks move, what each source would give."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import polars as pl
import streamlit as st

from dashboards.common import filters, has_matches
from dashboards.data import Filters, signature, warehouse_path
from dashboards.i18n import t
from dashboards.tables import show
from ingest.rescore import Selection, match_json, rescore_stored
from ingest.simulate import parse_settings
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
    )
    report = rescore_stored(warehouse_path(), selection, json.loads(changes), finish)
    return {
        "summary": report.summary(),
        "matches": [match_json(m) for m in report.matches],
        "sources": report.sources(),
        "estimated_sources": report.sources("estimated"),
        "ranks": report.rank_moves(),
    }


defaults = msgspec.to_builtins(game.rulesets[game.standard_ruleset])
scoring = sorted(game.scoring_only)
st.caption(t("what_if_help"))
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
    asked = st.form_submit_button(t("rescore"))
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

if asked or st.session_state.get("what-if-done"):
    st.session_state["what-if-done"] = True
    try:
        changes = parse_settings([line.strip() for line in text.splitlines() if line.strip()])
        game.resolve(None, changes)
    except (ValueError, RulesError) as err:
        st.error(str(err))
        st.stop()
    with st.spinner(t("rescoring")):
        found = _rescored(flt, json.dumps(changes, sort_keys=True), finish, signature())
    summary = found["summary"]
    kind = t("scoring_only") if summary["scoring_only"] else t("changes_play")
    st.caption(f"{kind} · {', '.join(f'{k}={v}' for k, v in changes.items()) or t('no_change')}")
    cols = st.columns(4)
    cols[0].metric(t("matches"), summary["matches"])
    cols[1].metric(t("exact"), summary["exact"])
    cols[2].metric(t("changed_winner"), summary["changed_winner"])
    cols[3].metric(t("estimated"), summary["estimated"])
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
