"""A match as one self-contained HTML file to share: the board at the step the viewer shows,
who was winning and the turning points, and the final scores by source (plotly's script is
inlined, so the file opens anywhere, offline)."""

from __future__ import annotations

import html
from typing import Any

import plotly.graph_objects as go

from dashboards.i18n import t
from ingest.analyses.review import Review
from replay.game import Result

STYLE = """body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#222}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.3rem .6rem}
th{background:#f3f3f3}td.n{text-align:right}caption{text-align:left;color:#555}"""


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
) -> bytes:
    """The page in `lang`; `caption` and every name are escaped, the figures drawn by plotly
    (a copy of each, its axes given room for their labels outside Streamlit's theme). The
    figures' text is the boards' own (dashboards.common.literal); plotly writes their JSON into
    the page with `<`, `>` and `/` as JSON unicode escapes: no string in it closes its script."""
    board = go.Figure(board).update_xaxes(automargin=True).update_yaxes(automargin=True)
    parts: list[str] = [
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{html.escape(caption)}</p>",
        board.to_html(full_html=False, include_plotlyjs=True),
    ]
    if chances is not None and reviewed is not None:
        chances = go.Figure(chances).update_xaxes(automargin=True).update_yaxes(automargin=True)
        parts.append(f"<h2>{html.escape(t('chances', lang))}</h2>")
        parts.append(chances.to_html(full_html=False, include_plotlyjs=False))
        points: list[dict[str, Any]] = reviewed.turning_points
        if points:
            items = "".join(
                f"<li>{html.escape(t('step', lang))} {p['step']}: {html.escape(str(p['what']))} — "
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
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
        f"<body>{body}</body></html>"
    ).encode()
