"""Balance, for designers: seat advantage with a significance test, the draft card by card,
each source's share of winners' points, two rule sets side by side, and the stored experiments:
what each measured, A − B with its interval, the matches played and why it stopped."""

from __future__ import annotations

from typing import Any, cast

import plotly.express as px
import polars as pl
import streamlit as st

from dashboards import queries
from dashboards.boards import board
from dashboards.common import filters, has_matches, literals, measured, named, plain, where
from dashboards.data import Filters, query
from dashboards.i18n import language, t
from dashboards.ratings import explained
from dashboards.rulesets import key_words, keys_in_words
from dashboards.stats import chi_square_p, with_error_bars, with_wilson
from dashboards.tables import show

st.title(t("balance"))
if not has_matches():
    st.stop()
flt = filters()

st.subheader(f"{t('seat')} — {t('win_rate')}")
st.caption(t("rates_caption"))
sql, params = where(flt, queries.SEAT_TABLE)
seats = query(sql, params)
tests = []
for (count,), group in seats.group_by("player_count", maintain_order=True):
    wins = group["wins"].cast(pl.Float64).to_list()
    # With no advantage every seat wins an equal share of the decided matches.
    expected = [sum(wins) / len(wins)] * len(wins)
    stat, p, dof = chi_square_p(wins, expected)
    tests.append(
        {
            "players": count,
            "matches": int(cast("int | None", group["matches"].max()) or 0),
            "chi_square": round(stat, 2),
            "dof": dof,
            "p": p,
            "verdict": t("seat_advantage") if p < 0.05 else t("no_evidence"),
        }
    )
# A seat's n is its matches: each match has one seat at each place in the turn order.
seats = with_wilson(
    seats.with_columns(
        (pl.col("wins") / pl.col("matches")).alias("win_rate"), (pl.col("seat") + 1).alias("seat")
    ),
    "wins",
    "matches",
)
st.plotly_chart(
    px.bar(
        with_error_bars(seats, "win_rate")
        .with_columns(pl.col("player_count").cast(pl.Utf8))
        .to_pandas(),
        x="seat",
        y="win_rate",
        color="player_count",
        barmode="group",
        error_y="above",
        error_y_minus="below",
        hover_data={"matches": True, "above": False, "below": False},
        labels={
            "seat": t("seat"),
            "win_rate": t("win_rate"),
            "player_count": t("players"),
            "matches": t("matches"),
        },
    ).update_layout(height=300, yaxis_tickformat=".0%", xaxis_dtick=1),
    key="seat-advantage",
)
show(pl.DataFrame(tests), "seat-advantage-test")
show(seats, "seat-win-rates")

# A game's own section on its components (Knight Academy's cards and draft), or else what
# seats took, for every game alike.
own = getattr(board(flt.game), "balance", None) if flt.game else None
if own is not None:
    own(flt)
else:
    sql, params = where(flt, queries.COMPONENTS)
    components = with_wilson(query(sql, params), "wins", "seats")
    # Each component by its name where the game's package names it (a catalogue's card, a
    # tile by what it does), and the action that took it in words.
    naming = getattr(board(flt.game), "component", None) if flt.game else None
    lang = language()
    if not components.is_empty():
        components = components.with_columns(
            pl.col("action").replace_strict(
                {a: t(f"event_{a}") for a in components["action"].unique()}
            ),
            pl.col("item")
            .replace_strict({i: naming(i, lang) for i in components["item"].unique()})
            .alias("name")
            if naming is not None
            else pl.col("item").alias("name"),
        )
    if not components.is_empty():
        st.subheader(t("components"))
        st.caption(t("components_caption"))
        common = components.filter(pl.col("seats") >= 20)
        if not common.is_empty():
            top = common.sort("win_rate_of_takers", descending=True).head(20)
            st.plotly_chart(
                px.bar(
                    literals(
                        with_error_bars(top, "win_rate_of_takers").with_columns(
                            (pl.col("name") + " (" + pl.col("action") + ")").alias("label")
                        ),
                        "label",
                    ).to_pandas(),
                    x="label",
                    y="win_rate_of_takers",
                    error_y="above",
                    error_y_minus="below",
                    hover_data={"seats": True, "above": False, "below": False},
                    labels={"label": "", "win_rate_of_takers": t("win_rate"), "seats": t("seats")},
                ).update_layout(height=300, yaxis_tickformat=".0%"),
                key="components",
            )
        show(
            components.select(
                "action",
                "name",
                "item",
                "taken",
                "seats",
                "mean_first_round",
                "wins",
                "win_rate_of_takers",
                "interval_low",
                "interval_high",
            ),
            "components",
        )

st.subheader(f"{t('source')} — {t('share')} ({t('winners')})")
st.caption(t("winner_share_caption"))
sql, params = where(flt, queries.SOURCE_SHARE_OF_WINNERS)
shares = query(sql, params)
if not shares.is_empty():
    shares = shares.with_columns(
        pl.col("source").replace_strict({s: t(s) for s in shares["source"].unique()}).alias("label")
    )
    shares = keys_in_words(shares, "ruleset_key", language())
    st.plotly_chart(
        px.bar(
            literals(shares, "ruleset_key").to_pandas(),
            x="ruleset_key",
            y="share",
            color="label",
            labels={"ruleset_key": t("ruleset"), "share": t("share"), "label": t("source")},
        ).update_layout(height=320, yaxis_tickformat=".0%", xaxis_title=None),
        key="source-share",
    )
    show(named(shares.drop("label"), "source"), "source-share-of-winners")

st.subheader(t("ruleset"))
# A side is a rule set, or a variant under it (Knight Academy's lancelot against gawain).
VARIANT = " · "


# A side's tables stand beside the other side's, in half the page: their numbers' columns
# are held narrow, so that neither scrolls sideways at a laptop's width.
NARROW = {
    "seats": 58,
    "wins": 52,
    "win_rate": 64,
    "mean_score": 72,
    "mean_points": 84,
    "share": 58,
    "matches": 56,
    "interval_low": 60,
    "interval_high": 60,
}


def _side(one: Filters, name: str) -> None:
    """One side of a comparison: its bots' win rates (and its people's, together: the seats
    no bot played) and the sources of its winners' points."""
    sql, params = where(one, queries.RULESET_SUMMARY)
    summary = with_wilson(
        query(sql, params).with_columns(
            (pl.col("wins") / pl.col("seats")).alias("win_rate"),
            pl.col("agent").fill_null(t("people_seats")).alias("played_by"),
        ),
        "wins",
        "seats",
    )
    show(
        summary.select(
            "played_by", "seats", "wins", "win_rate", "interval_low", "interval_high", "mean_score"
        ),
        f"{name}-bots",
        helps={"played_by": "help_played_by"},
        widths=NARROW,
        formats={"mean_score": "%.1f"},
    )
    sql, params = where(one, queries.SOURCE_SHARE_OF_WINNERS)
    show(
        named(query(sql, params).drop("ruleset_key"), "source"),
        f"{name}-sources",
        widths=NARROW,
        formats={"mean_points": "%.1f"},
    )


def _side_words(choice: str) -> str:
    """A side in words: its variant, then its rule set."""
    variant, _, key = choice.rpartition(VARIANT)
    ruleset = key_words(key, language())
    return f"{t(variant)}{VARIANT}{ruleset}" if variant else ruleset


choices = [
    key if variant == "base" else f"{variant}{VARIANT}{key}"
    for variant, key in query(queries.RULESETS_OF_GAME, {"game": flt.game}).iter_rows()
]
if len(choices) >= 2:
    st.caption(t("sides_caption"))
    left, right = st.columns(2)
    a = left.selectbox("A", choices, index=0, format_func=_side_words, key="ruleset-a")
    b = right.selectbox("B", choices, index=1, format_func=_side_words, key="ruleset-b")
    # The same rule set may be chosen on both sides: each side's tables keep their own keys.
    for column, choice, side in ((left, a, "a"), (right, b, "b")):
        variant, _, key = choice.rpartition(VARIANT)
        one = Filters(
            game=flt.game,
            variants=[variant or "base"],
            rulesets=[key],
            player_counts=flt.player_counts,
            dates=flt.dates,
            origins=flt.origins,
        )
        with column:
            _side(one, f"ruleset-{side}")
else:
    st.caption(t("one_ruleset"))

# Stored experiments (`squire experiment`): what each measured and what it found, then each
# arm's bots and sources, side by side.
EXPERIMENT_COLUMNS = {
    "experiment": "help_experiment",
    "metric": "help_metric",
    "measured": "help_measured",
    "rules_a": "help_rules_a",
    "rules_b": "help_rules_b",
    "mean_a": "help_mean_a",
    "mean_b": "help_mean_b",
    "a_minus_b": "help_a_minus_b",
    "a_minus_b_low": "help_a_minus_b_low",
    "a_minus_b_high": "help_a_minus_b_high",
    "matches": "help_experiment_matches",
    "pairs_measured": "help_pairs_measured",
    "stopped": "help_stopped",
}
# A metric's values: shares of a win or of points, or points (the margin): four decimals
# tell a difference of a hundredth of a percent.
EXPERIMENT_FORMATS = {
    "mean_a": "%.4f",
    "mean_b": "%.4f",
    "a_minus_b": "%+.4f",
    "a_minus_b_low": "%+.4f",
    "a_minus_b_high": "%+.4f",
}


def _number(x: float | None) -> str:
    return t("no_interval") if x is None else f"{x:.4g}"


def why_stopped(row: dict[str, Any]) -> str:
    """The stopping rule that ended the experiment's run, in words."""
    if not row["recorded"]:
        return t("not_recorded")
    low, high = row["a_minus_b_low"], row["a_minus_b_high"]
    width = None if low is None or high is None else high - low
    asked = {"width": _number(width), "precision": f"{row['precision']:g}"}
    if row["stopped"] == "precision":
        return t("stopped_precision").format(**asked)
    if row["stopped"] == "max":
        return t("stopped_max").format(most=f"{row['most']:,}", **asked)
    if row["stopped"] is None:
        return t("stopped_unfinished").format(matches=f"{row['matches']:,}")
    return str(row["stopped"])


def experiment_table(results: pl.DataFrame) -> pl.DataFrame:
    """A row an experiment: what it measured, each arm's rules and mean, A − B with its 95%
    interval, the matches played an arm and the pairs measured, why it stopped."""
    rows = list(results.iter_rows(named=True))
    return results.select(
        "experiment",
        pl.col("metric").fill_null(t("not_recorded")),
        pl.Series("measured", [measured(r["metric"]) for r in rows], pl.String),
        "rules_a",
        "rules_b",
        "mean_a",
        "mean_b",
        "a_minus_b",
        "a_minus_b_low",
        "a_minus_b_high",
        # an experiment an older squire stored: the matches it stored of each arm
        pl.coalesce("matches", pl.min_horizontal("stored_a", "stored_b")).alias("matches"),
        "pairs_measured",
        pl.Series("stopped", [why_stopped(r) for r in rows], pl.String),
    )


def found(row: dict[str, Any]) -> str:
    """An experiment's result in one sentence."""
    if not row["recorded"]:
        return t("experiment_not_recorded").format(a=row["stored_a"], b=row["stored_b"])
    if row["a_minus_b"] is None:
        return t("experiment_no_difference").format(
            metric=measured(row["metric"]), pairs=row["pairs_measured"], stopped=why_stopped(row)
        )
    return t("experiment_found").format(
        metric=measured(row["metric"]),
        difference=f"{row['a_minus_b']:+.4f}",
        low=f"{row['a_minus_b_low']:+.4f}",
        high=f"{row['a_minus_b_high']:+.4f}",
        matches=f"{row['matches']:,}",
        pairs=f"{row['pairs_measured']:,}",
        stopped=why_stopped(row),
    )


arms = query(queries.EXPERIMENTS_OF_GAME, {"game": flt.game})
if not arms.is_empty():
    st.subheader(t("experiments"))
    st.caption(t("experiments_caption"))
    results = query(queries.EXPERIMENT_RESULTS, {"game": flt.game})
    explained(
        experiment_table(results), "experiments", EXPERIMENT_COLUMNS, formats=EXPERIMENT_FORMATS
    )
    labels = {
        exp: " · ".join(
            f"{row['arm'].upper()}: {key_words(row['rules'], language())} ({row['matches']})"
            for row in arms.filter(pl.col("experiment") == exp).iter_rows(named=True)
        )
        for exp in dict.fromkeys(arms["experiment"].to_list())
    }
    chosen = st.selectbox(
        t("experiment"),
        list(labels),
        format_func=lambda exp: f"{exp} — {labels[exp]}",
        key="experiment",
    )
    chosen_row = results.filter(pl.col("experiment") == chosen)
    if not chosen_row.is_empty():
        st.markdown(plain(found(chosen_row.row(0, named=True))))
    st.caption(t("sides_caption"))
    for column, side in zip(st.columns(2), ("a", "b")):
        with column:
            st.caption(side.upper())
            _side(Filters(game=flt.game, experiment=chosen, arm=side), f"experiment-{side}")
