"""The squire dashboards' app: `squire dashboard` serves it (dashboards/serve.py, with the
sign-in routes beside it)."""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script by Streamlit

from dashboards.common import version_choice
from dashboards.i18n import LANGUAGES, t
from dashboards.visitor import signed_in_line, who
from ingest.club.access import may

PAGES = Path(__file__).with_name("app_pages")
ICON = Path(__file__).with_name("static") / "squire-icon.svg"
# Each page after the overview: its file in app_pages, its title's text, its icon, its address.
PAGE_TABLE = (
    ("viewer", "viewer", "search", "viewer"),
    ("sources", "sources", "donut_large", "sources"),
    ("tracks", "tracks", "show_chart", "tracks"),
    ("win_rates", "win_rates", "emoji_events", "win-rates"),
    ("balance", "balance", "balance", "balance"),
    ("what_if", "what_if", "science", "what-if"),
    ("player", "player_page", "person", "player"),
    ("record", "record", "edit_note", "record"),
    ("upload", "upload", "upload", "upload"),
)
CLUB = ("club", "club", "groups", "club")  # an admin's alone


def main() -> None:
    # The tab's icon from squire's own files: a Material icon there is fetched from the web.
    st.set_page_config(page_title="squire", page_icon=str(ICON), layout="wide")
    if "lang" not in st.session_state and st.query_params.get("lang") in LANGUAGES:
        st.session_state["lang"] = st.query_params["lang"]  # a link may choose the language
    st.sidebar.radio(
        "Language / 语言",
        list(LANGUAGES),
        format_func=LANGUAGES.__getitem__,
        key="lang",
        horizontal=True,
    )
    visitor = who()
    signed_in_line(visitor)
    version_choice()
    table = PAGE_TABLE + ((CLUB,) if may(visitor, "audit.read") else ())
    page = st.navigation(
        [
            st.Page(PAGES / "overview.py", title="squire", icon=":material/home:", default=True),
            *(
                st.Page(
                    PAGES / f"{name}.py", title=t(title), icon=f":material/{icon}:", url_path=path
                )
                for name, title, icon, path in table
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
