"""Upload: logs dropped here are validated by replay and ingested; rejects are shown with
their line and rule. The one page that writes, through the same ingest as the command, run
in a worker process of its own (ingest.upload) so that no upload can take the page down."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards.data import warehouse_path
from dashboards.i18n import t
from dashboards.tables import show
from ingest.upload import FILE_MB, UPLOAD_BYTES, UPLOAD_FILES, Report, Upload, ingest_uploads
from replay.errors import one_line
from replay.limits import size_text

st.title(t("upload"))
st.caption(
    t("upload_limits").format(
        files=UPLOAD_FILES, total=size_text(UPLOAD_BYTES), each=size_text(FILE_MB * 2**20)
    )
)
# A new key after each ingest empties the uploader, so the files it holds are let go.
generation = st.session_state.setdefault("upload-generation", 0)
files = st.file_uploader(
    "squire-log/1 (.jsonl, .jsonl.gz)",
    type=["jsonl", "gz"],
    accept_multiple_files=True,
    max_upload_size=FILE_MB,
    key=f"uploads-{generation}",
)
if files and st.button(t("ingest"), type="primary", key="ingest"):
    refusal = Upload([(file.name, file.size) for file in files]).refusal()
    if refusal:
        st.error(refusal)
        st.stop()
    with st.spinner(t("ingesting")):
        done = ingest_uploads([(file.name, file) for file in files], warehouse_path())
    st.session_state["upload-report"] = done
    st.session_state["upload-generation"] = generation + 1
    st.rerun()

report: Report | None = st.session_state.get("upload-report")
if report is not None:
    if report.error:
        st.error(report.error)
    st.success(
        t("upload_summary").format(
            logs=report.logs,
            ingested=report.ingested,
            present=report.present,
            conflicts=len(report.conflicts),
            rejects=len(report.rejects),
        )
    )
    if report.rejects:
        show(
            pl.DataFrame(
                [
                    {"file": one_line(r.path), "line": r.line, "rule": r.rule, "message": r.message}
                    for r in report.rejects
                ],
                schema={
                    "file": pl.String,
                    "line": pl.Int64,
                    "rule": pl.String,
                    "message": pl.String,
                },
            ),
            "rejects",
        )
    for name, game_id in report.conflicts:
        st.warning(t("upload_conflict").format(file=one_line(name), game_id=one_line(game_id)))
