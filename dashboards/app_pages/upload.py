"""Upload: logs dropped here are validated by replay and ingested; rejects are shown with
their line and rule. The one page that writes, through the same ingest as the command, run
in a worker process of its own (ingest.pipeline.upload) so that no upload can take the page down.

An upload the server stopped before it finished is listed here until it is ingested again or
let go. File names come from the user: they are shown in tables, never in Markdown."""

from __future__ import annotations

import polars as pl
import streamlit as st

from dashboards.data import warehouse_path
from dashboards.i18n import language, t
from dashboards.refusals import game_of_rule, in_game_words
from dashboards.tables import show
from dashboards.visitor import refusal, say_why_not, who
from ingest.club.access import Denied, may
from ingest.pipeline.upload import (
    FILE_BYTES,
    STREAMLIT_MB,
    UPLOAD_BYTES,
    UPLOAD_FILES,
    Report,
    Stopped,
    Upload,
    discard,
    ingest_uploads,
    resume,
    stopped,
)
from replay.errors import one_line
from replay.limits import size_text


def files_table(names: list[str], name: str) -> None:
    show(pl.DataFrame({"file": [one_line(n) for n in names]}, schema={"file": pl.String}), name)


def offer_again(upload: Stopped) -> None:
    """A stopped upload: what it left unprocessed, and the choice to ingest it again."""
    with st.container(border=True):
        st.warning(
            t("upload_stopped").format(
                started=upload.started_at[:16].replace("T", " "),
                files=len(upload.names),
                left=len(upload.unprocessed),
            )
        )
        files_table(upload.unprocessed, f"not-processed-{upload.folder.name}")
        buttons = st.container(horizontal=True)
        if buttons.button(t("upload_resume"), key=f"resume-{upload.folder.name}", type="primary"):
            try:
                with st.spinner(t("ingesting")):
                    done = resume(upload, warehouse_path(), VISITOR)
            except Denied as denied:
                st.error(refusal(denied, "upload.resume"))
                st.stop()
            if done is not None:
                st.session_state["upload-report"] = done
            st.rerun()
        if may(VISITOR, "upload.let_go") and buttons.button(
            t("upload_discard"), key=f"discard-{upload.folder.name}"
        ):
            try:
                discard(upload, warehouse_path(), VISITOR)
            except Denied as denied:
                st.error(refusal(denied, "upload.let_go"))
                st.stop()
            st.rerun()


def show_report(report: Report) -> None:
    summary = t("upload_summary").format(
        logs=report.logs,
        ingested=report.ingested,
        present=report.present,
        conflicts=len(report.conflicts),
        rejects=len(report.rejects),
    )
    if report.error:
        st.error(report.error)
    if report.error or report.rejects or report.conflicts or report.unprocessed:
        st.warning(summary)
    else:
        st.success(summary)
    if report.unprocessed:
        st.warning(t("upload_unprocessed").format(count=len(report.unprocessed)))
        files_table(report.unprocessed, "not-processed")
    if report.rejects:
        show(
            pl.DataFrame(
                [
                    {
                        "file": one_line(r.path),
                        "line": r.line,
                        "rule": r.rule,
                        # in the game's words; the command line keeps the engine's ids
                        "message": in_game_words(r.message, game_of_rule(r.rule), language()),
                    }
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
    if report.conflicts:
        st.warning(t("upload_conflict"))
        show(
            pl.DataFrame(
                [{"file": one_line(n), "game_id": one_line(g)} for n, g in report.conflicts],
                schema={"file": pl.String, "game_id": pl.String},
            ),
            "conflicts",
        )


st.title(t("upload"))
VISITOR = who()
if not say_why_not(VISITOR, "upload"):
    st.stop()
st.caption(
    t("upload_limits").format(
        files=UPLOAD_FILES, total=size_text(UPLOAD_BYTES), each=size_text(FILE_BYTES)
    )
)
for cut_short in stopped(warehouse_path()):
    offer_again(cut_short)
# The uploader's own line, "17MB per file • JSONL, GZ", is Streamlit's, in English and in
# whole megabytes (STREAMLIT_MB): the caption above says the limit, in the page's language
# and as Upload.refusal() holds a file to it.
st.html("<style>[data-testid='stFileUploaderDropzoneInstructions']{display:none}</style>")
# A new key after each ingest empties the uploader, so the files it holds are let go.
generation = st.session_state.setdefault("upload-generation", 0)
files = st.file_uploader(
    "squire-log/1 (.jsonl, .jsonl.gz)",
    type=["jsonl", "gz"],
    accept_multiple_files=True,
    max_upload_size=STREAMLIT_MB,
    key=f"uploads-{generation}",
)
if files and st.button(t("ingest"), type="primary", key="ingest"):
    too_much = Upload([(file.name, file.size) for file in files]).refusal()
    if too_much:
        st.error(too_much)
        st.stop()
    try:
        with st.spinner(t("ingesting")):
            done = ingest_uploads([(file.name, file) for file in files], warehouse_path(), VISITOR)
    except Denied as denied:
        st.error(refusal(denied, "upload"))
        st.stop()
    st.session_state["upload-report"] = done
    st.session_state["upload-generation"] = generation + 1
    st.rerun()

report: Report | None = st.session_state.get("upload-report")
if report is not None:
    show_report(report)
