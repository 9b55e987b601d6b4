"""Worker processes started from the dashboards' server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# What a forkserver or spawn worker does first when its parent's `__main__` is a script (as
# Streamlit makes the app script the server's): it runs that script as `__mp_main__`. Here
# the app, were it to draw, would read the warehouse first (`version_choice`).
WORKER_START = """
import runpy
import dashboards.common

def drew():
    raise SystemExit("the app drew its pages in a worker")

dashboards.common.version_choice = drew
runpy.run_path("dashboards/app.py", run_name="__mp_main__")
"""


def test_a_worker_started_by_the_dashboards_server_does_not_run_the_app_again():
    """The viewer's move analysis and an upload's ingest start workers from the server: one
    that drew the app on its way in read the warehouse there, and a suite's worker hung so."""
    done = subprocess.run(
        [sys.executable, "-c", WORKER_START], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
