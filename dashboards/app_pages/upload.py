"""Upload: logs dropped here are validated by replay and ingested; rejects are shown with
their line and rule. The one page that writes, through the same ingest as the command."""

from __future__ import annotations

import tempfile
from pathlib import Path

import polars as pl
import streamlit as st

from dashboards.data import warehouse_path
from dashboards.i18n import t
from dashboards.tables import show
from ingest.pipeline import ingest
from ingest.warehouse import WarehouseBusy

st.title(t("upload"))
files = st.file_uploader("squire-log/1 (.jsonl, .jsonl.gz)", type=["jsonl", "gz"],
                         accept_multiple_files=True, key="uploads")
if files and st.button("Ingest", type="primary", key="ingest"):
    with tempfile.TemporaryDirectory() as folder:
        for index, file in enumerate(files):
            name = Path(file.name).name
            if not name.endswith((".jsonl", ".jsonl.gz")):
                name += ".jsonl"
            (Path(folder) / f"{index:04d}-{name}").write_bytes(file.getvalue())
        try:
            summary = ingest([folder], db=warehouse_path(), jobs=1)
        except WarehouseBusy as err:
            st.error(str(err))
            st.stop()
        originals = {f"{i:04d}-{Path(f.name).name}": f.name for i, f in enumerate(files)}

        def original(path: str) -> str:
            name = Path(path).name
            return originals.get(name, originals.get(name.removesuffix(".jsonl"), name))

        st.success(summary.lines()[0].split(": ", 1)[1])
        if summary.rejects:
            show(pl.DataFrame([{"file": original(r.path), "line": r.line, "rule": r.rule,
                                "message": r.message} for r in summary.rejects]), "rejects")
        for conflict in summary.conflicts:
            st.warning(f"{original(conflict.path)}: game_id {conflict.game_id!r} is already "
                       "stored from a different log; the stored match is kept")
