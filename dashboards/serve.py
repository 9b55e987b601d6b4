"""The dashboards' server: the Streamlit app (dashboards/app.py) with squire's own routes
beside it (signing in and out) and the Host check before everything, as `squire dashboard`
and `squire up` start it (`streamlit run dashboards/serve.py`)."""

from __future__ import annotations

import sys
from pathlib import Path

import streamlit as st
from starlette.middleware import Middleware

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script by Streamlit

from dashboards.guard import HostGuard
from dashboards.signin import routes
from ingest.club import serving

app = st.App(
    Path(__file__).with_name("app.py"),
    routes=routes(),
    middleware=[Middleware(HostGuard, hosts=serving.current().hosts)],
)
