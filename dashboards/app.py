"""The squire dashboards: `squire dashboard`, or `streamlit run dashboards/app.py`."""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script by Streamlit

from dashboards.common import version_choice
from dashboards.i18n import LANGUAGES, t

PAGES = Path(__file__).with_name("app_pages")


def main() -> None:
    st.set_page_config(page_title="squire", page_icon=":material/castle:", layout="wide")
    if "lang" not in st.session_state and st.query_params.get("lang") in LANGUAGES:
        st.session_state["lang"] = st.query_params["lang"]  # a link may choose the language
    st.sidebar.radio(
        "Language / 语言",
        list(LANGUAGES),
        format_func=LANGUAGES.__getitem__,
        key="lang",
        horizontal=True,
    )
    version_choice()
    page = st.navigation(
        [
            st.Page(PAGES / "overview.py", title="squire", icon=":material/home:", default=True),
            st.Page(
                PAGES / "viewer.py", title=t("viewer"), icon=":material/search:", url_path="viewer"
            ),
            st.Page(
                PAGES / "sources.py",
                title=t("sources"),
                icon=":material/donut_large:",
                url_path="sources",
            ),
            st.Page(
                PAGES / "tracks.py",
                title=t("tracks"),
                icon=":material/show_chart:",
                url_path="tracks",
            ),
            st.Page(
                PAGES / "win_rates.py",
                title=t("win_rates"),
                icon=":material/emoji_events:",
                url_path="win-rates",
            ),
            st.Page(
                PAGES / "balance.py",
                title=t("balance"),
                icon=":material/balance:",
                url_path="balance",
            ),
            st.Page(
                PAGES / "what_if.py",
                title=t("what_if"),
                icon=":material/science:",
                url_path="what-if",
            ),
            st.Page(
                PAGES / "player.py",
                title=t("player_page"),
                icon=":material/person:",
                url_path="player",
            ),
            st.Page(
                PAGES / "record.py",
                title=t("record"),
                icon=":material/edit_note:",
                url_path="record",
            ),
            st.Page(
                PAGES / "upload.py", title=t("upload"), icon=":material/upload:", url_path="upload"
            ),
        ]
    )
    page.run()


# A worker process started from the dashboards' server (the viewer's move analysis, an
# upload's ingest) runs its parent's main script again as `__mp_main__` before its work, and
# Streamlit makes this script the server's `__main__`: there it must draw and read nothing
# (a worker reading the warehouse on its way in hung, its polars threads forked away).
if __name__ != "__mp_main__":
    main()
