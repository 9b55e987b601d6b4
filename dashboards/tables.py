"""Tables on the pages: shown, and downloadable as CSV and Parquet."""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

import polars as pl
import streamlit as st

from dashboards.i18n import t


def csv_bytes(frame: pl.DataFrame) -> bytes:
    return frame.write_csv().encode()


def parquet_bytes(frame: pl.DataFrame) -> bytes:
    buffer = io.BytesIO()
    frame.write_parquet(buffer)
    return buffer.getvalue()


# Columns that hold a share of 1, shown as percentages (the files keep the fractions).
RATES = (
    "win_rate",
    "share",
    "early_pick_rate",
    "win_rate_when_picked",
    "win_rate_when_played",
    "win_rate_of_takers",
    "winner_leads_share",
    "interval_low",
    "interval_high",
    "hate_rate",
    "fair_share",
    "win_rate_low",
    "win_rate_high",
    "early_pick_rate_low",
    "early_pick_rate_high",
    "win_rate_when_picked_low",
    "win_rate_when_picked_high",
    "win_rate_when_played_low",
    "win_rate_when_played_high",
)


def _header(
    column: str, rates: set[str], help_: str | None, fmt: str | None, width: int | None = None
) -> Any:
    """A column's config (a dict Streamlit reads): its name in the reader's language, rates as
    percentages, `fmt` a number format, `help_` the header's tooltip, `width` in pixels."""
    if column in rates:
        return st.column_config.NumberColumn(t(column), format="percent", help=help_, width=width)
    if fmt is not None:
        return st.column_config.NumberColumn(t(column), format=fmt, help=help_, width=width)
    return st.column_config.Column(t(column), help=help_, width=width)


def show(
    frame: pl.DataFrame,
    name: str,
    height: int | None = None,
    links: Mapping[str, str] | None = None,
    helps: Mapping[str, str] | None = None,
    formats: Mapping[str, str] | None = None,
    files: pl.DataFrame | None = None,
    widths: Mapping[str, int] | None = None,
    row_height: int | None = None,
) -> None:
    """The table with its columns named in the reader's language, then its two download
    buttons (file names say what it holds; the files keep the warehouse's column names).
    `files`: what the files hold where the table is shaped for reading (a column a player),
    a row a fact with named columns. `widths`: columns held to so many pixels, their text
    wrapped in rows `row_height` tall (Streamlit wraps a cell's text only in rows above 64 px),
    so that a table of long cells fits the page's width rather than scrolling sideways.
    `links`: columns of addresses within the app, drawn as links showing what the pattern's
    group matches (e.g. the `name` of `/player?name=Ann`); `helps`: a label key by column,
    its header's tooltip saying what the column holds; `formats`: a number format by column
    (`%.1f`)."""
    rates = {*RATES, *map(t, RATES)}  # named as in the warehouse, or already labelled
    helps, formats, widths = helps or {}, formats or {}, widths or {}

    def help_of(column: str) -> str | None:
        return t(helps[column]) if column in helps else None

    headers = {
        column: _header(column, rates, help_of(column), formats.get(column), widths.get(column))
        for column in frame.columns
    }
    for column, shown in (links or {}).items():
        headers[column] = st.column_config.LinkColumn(
            t(column), display_text=shown, help=help_of(column)
        )
    st.dataframe(
        frame,
        hide_index=True,
        column_config=headers,
        height="auto" if height is None else height,
        row_height=row_height,
    )
    row = st.container(horizontal=True)
    kept = frame if files is None else files
    # The files are made only when a button is clicked.
    row.download_button(
        f"⬇ {t('download_csv')}",
        lambda: csv_bytes(kept),
        f"{name}.csv",
        "text/csv",
        key=f"{name}-csv",
        on_click="ignore",
    )
    row.download_button(
        f"⬇ {t('download_parquet')}",
        lambda: parquet_bytes(kept),
        f"{name}.parquet",
        "application/octet-stream",
        key=f"{name}-parquet",
        on_click="ignore",
    )
