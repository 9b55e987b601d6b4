"""A match as one self-contained HTML file to share: the board at the step the viewer shows,
drawn as the app draws it, the seats' tables as the chosen perspective saw them, the move log
up to that step in words, who was winning and the turning points, and the final scores by
source.

The file opens anywhere, offline: plotly's script is inlined. Not the whole of plotly.js
(4.8 MB) but its official "basic" bundle (scatter, bar, pie: every trace the board and the
chances draw), shipped under `dashboards/static/` with its licence, the version of plotly.js
that the installed plotly writes figures for (`PLOTLY_JS`)."""

from __future__ import annotations

import html
from collections.abc import Sequence
from importlib import resources
from typing import Any

import plotly.graph_objects as go
import polars as pl

from dashboards.i18n import t
from ingest.analyses.review import Review
from replay.game import Result

PLOTLY_JS = "4.1.1"  # the bundle's version: the plotly.js of the plotly the project installs

STYLE = """body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;
color:#222}table{border-collapse:collapse;margin:1rem 0;display:block;overflow-x:auto}
td,th{border:1px solid #ccc;padding:.3rem .6rem}th{background:#f3f3f3}td.n{text-align:right}
caption{text-align:left;color:#555}ol.log{max-height:24rem;overflow-y:auto;padding-left:3.2rem}
ol.log li.now{font-weight:600}"""


def plotly_script() -> str:
    """plotly.js's basic bundle, as the page's first script."""
    return (resources.files("dashboards") / "static" / "plotly-basic.min.js").read_text("utf-8")


def _cell(value: object) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f'<td class="n">{value}</td>'
    return f"<td>{html.escape('' if value is None else str(value))}</td>"


def table(title: str, frame: pl.DataFrame) -> str:
    """A titled table as the page shows it; every value escaped."""
    head = "".join(f"<th>{html.escape(column)}</th>" for column in frame.columns)
    rows = "".join("<tr>" + "".join(_cell(v) for v in row) + "</tr>" for row in frame.iter_rows())
    caption = f"<caption>{html.escape(title)}</caption>" if title else ""
    return f"<table>{caption}<tr>{head}</tr>{rows}</table>"


def _scores(result: Result, players: list[str], sources: list[str], lang: str) -> str:
    head = "".join(f"<th>{html.escape(t(s, lang))}</th>" for s in sources)
    rows = "".join(
        f"<tr><td>{html.escape(player)}</td>"
        + "".join(f'<td class="n">{result.sources[seat].get(s, 0)}</td>' for s in sources)
        + f'<td class="n"><b>{result.scores[seat]}</b></td></tr>'
        for seat, player in enumerate(players)
    )
    return (
        f"<table><caption>{html.escape(t('score_by_source', lang))}</caption>"
        f"<tr><th>{html.escape(t('player', lang))}</th>{head}"
        f"<th>{html.escape(t('score', lang))}</th></tr>"
        f"{rows}</table>"
    )


def _figure(fig: go.Figure) -> str:
    """A copy of the figure as the app draws it, its axes given room for their labels outside
    Streamlit's theme, as a div and the script that draws it."""
    # Streamlit's theme draws no zero lines; plotly.js alone draws them dark, across the board.
    copy = (
        go.Figure(fig)
        .update_xaxes(automargin=True, zeroline=False)
        .update_yaxes(automargin=True, zeroline=False)
    )
    return str(copy.to_html(full_html=False, include_plotlyjs=False, config={"responsive": True}))


def match_html(
    *,
    title: str,
    caption: str,
    board: go.Figure,
    chances: go.Figure | None,
    reviewed: Review | None,
    result: Result | None,
    players: list[str],
    sources: list[str],
    lang: str,
    tables: Sequence[tuple[str, pl.DataFrame]] = (),
    sentences: Sequence[str] = (),
    step: int = 0,
) -> bytes:
    """The page in `lang`; `caption`, every name and every sentence escaped, the figures drawn
    by plotly. The figures' text is the boards' own (dashboards.common.literal); plotly writes
    their JSON into the page with `<`, `>` and `/` as JSON unicode escapes: no string in it
    closes its script. `sentences` are the move log, one a step; `step` the one shown."""
    parts: list[str] = [
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{html.escape(caption)}</p>",
    ]
    if 0 < step <= len(sentences):
        parts.append(f"<p><b>{html.escape(sentences[step - 1])}</b></p>")
    parts.append(_figure(board))
    parts.extend(table(heading, frame) for heading, frame in tables)
    if sentences:
        items = "".join(
            f'<li value="{n}"{" class=now" if n == step else ""}>{html.escape(text)}</li>'
            for n, text in enumerate(sentences, 1)
        )
        parts.append(f"<h2>{html.escape(t('move_log', lang))}</h2><ol class=log>{items}</ol>")
    if chances is not None and reviewed is not None:
        parts.append(f"<h2>{html.escape(t('chances', lang))}</h2>")
        parts.append(_figure(chances))
        points: list[dict[str, Any]] = reviewed.turning_points
        if points:
            items = "".join(
                f"<li>{html.escape(t('step', lang))} {p['step']}: "
                f"{html.escape(_said(p, sentences))} — "
                f"{html.escape(str(p['player']))} {p['before']:.0%} → {p['after']:.0%}</li>"
                for p in points
            )
            parts.append(f"<h2>{html.escape(t('turning_points', lang))}</h2><ol>{items}</ol>")
        parts.append(f"<p><small>{html.escape(reviewed.method)}</small></p>")
    if result is not None:
        parts.append(_scores(result, players, sources, lang))
    body = "\n".join(parts)
    return (
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style>"
        f'<script type="text/javascript">{plotly_script()}</script></head>'
        f"<body>{body}</body></html>"
    ).encode()


def _said(point: dict[str, Any], sentences: Sequence[str]) -> str:
    """A turning point in the move log's words (the event as the review names it where the
    file has no log)."""
    at = int(point["step"])
    return sentences[at - 1] if 0 < at <= len(sentences) else str(point["what"])
