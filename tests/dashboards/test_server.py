"""`squire dashboard` as a service manager runs it: stopping it stops everything it started."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from tests.support import free_port


def _answers(url: str) -> bool:
    try:
        return urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok"
    except OSError:
        return False


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_to_squire_dashboard_stops_the_dashboards_too(tmp_path, stop):
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ingest.cli",
            "dashboard",
            "--db",
            str(tmp_path / "wh"),
            "--port",
            str(port),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not _answers(url):
            assert time.monotonic() < deadline and proc.poll() is None, "it never answered"
            time.sleep(0.3)
        proc.send_signal(stop)
        proc.wait(timeout=30)
        assert not _answers(url), "the dashboards outlived the command that started them"
    finally:
        proc.kill()
