"""A warehouse of the bundled samples (and the worked examples), shared by the dashboard
tests; the app reads it through SQUIRE_WAREHOUSE."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="session")
def warehouse(samples_and_examples) -> Path:
    return samples_and_examples


@pytest.fixture(scope="session", autouse=True)
def components_scanned_once():
    """An AppTest's first run scans every installed package for Streamlit components (a tenth
    of a second, hundreds of AppTests a run); what is installed does not change during a run,
    so the scan is made once and its finds handed to each."""
    from streamlit.components.v2 import manifest_scanner

    found = manifest_scanner.scan_component_manifests()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(manifest_scanner, "scan_component_manifests", lambda: found)
        yield
