"""A match saved on the Record page is a version of the warehouse made by a recording, not an
upload (ingest.warehouse.origin), and `squire versions` says so."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import msgspec
from streamlit.testing.v1 import AppTest

from dashboards.record.scribe import enter_log
from ingest.cli import main
from ingest.files.catalogues import Library
from ingest.warehouse import drafts

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "dashboards" / "app.py")


def test_a_match_saved_on_the_record_page_is_a_version_made_by_a_recording(
    tmp_path, monkeypatch, capsys
):
    db = tmp_path / "warehouse"
    sample = sorted((ROOT / "data" / "samples" / "knight-academy").glob("*.jsonl.gz"))[0]
    lines = gzip.decompress(sample.read_bytes()).splitlines()
    header = msgspec.json.decode(lines[0])
    name = "ka-20261207-1200-rec00"
    header.update(game_id=name, source="human")
    header.pop("agents", None)
    # every entry but the final claim, which the page writes as it saves
    data = b"\n".join([msgspec.json.encode(header), *lines[1:-1]]) + b"\n"
    drafts.save(db, name, enter_log(data, Library()).entry.draft())
    monkeypatch.setenv("SQUIRE_WAREHOUSE", str(db))
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["draft"] = name
    at.run()
    at.switch_page("app_pages/record.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.button(key="rec-save").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert drafts.load(db, name) is None  # saved
    capsys.readouterr()
    assert main(["versions", "--db", str(db), "--json"]) == 0
    (version,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (version["made_by"], version["logs"], version["added"]) == ("recording", 1, 1)
