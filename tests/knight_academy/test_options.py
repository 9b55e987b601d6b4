"""The header's `options`: `advanced` switches on KA-21 over whatever ruleset the header
names, and the match is filed under the rules it was replayed with."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from ingest.cli import main
from ingest.files.read import read_log
from ingest.warehouse.warehouse import open_reader
from replay.errors import ReplayError
from replay.games import knight_academy as ka
from replay.replayer import open_log, replay
from tests.support import CATALOGUES

from .support import LOGS, header

ROOT = Path(__file__).parents[2]
# Every advanced match the project ships: the worked example and the samples.
ADVANCED_LOGS = [
    LOGS / "ka-example-advanced-3p.jsonl",
    *(
        path
        for path in sorted((ROOT / "data" / "samples" / "knight-academy").glob("*.jsonl*"))
        if b'"knight-academy/advanced"' in read_log(str(path)).split(b"\n", 1)[0]
    ),
]


def with_header(data: bytes, **fields: object) -> bytes:
    """The log with `fields` written over its header (None removes one) and its lines kept."""
    first, rest = data.split(b"\n", 1)
    line = json.loads(first)
    for name, value in fields.items():
        if value is None:
            line.pop(name, None)
        else:
            line[name] = value
    return json.dumps(line).encode() + b"\n" + rest


def test_every_advanced_log_replays_the_same_as_the_standard_ruleset_with_advanced_on():
    assert len(ADVANCED_LOGS) > 50  # the samples are there
    for path in ADVANCED_LOGS:
        data = read_log(str(path))
        switched = with_header(data, ruleset="knight-academy/standard", options={"advanced": True})
        named = replay(open_log(data, str(path), catalogues=CATALOGUES))
        optioned = replay(open_log(switched, str(path), catalogues=CATALOGUES))
        assert optioned.match.config == named.match.config == ka.ADVANCED
        assert optioned.result == named.result, path
        assert [s.facts for s in optioned.steps] == [s.facts for s in named.steps], path
        # filed as the advanced ruleset, not the standard one (games.ruleset, ruleset_key)
        assert (optioned.match.header.ruleset, optioned.match.header.rules) == (
            "knight-academy/advanced",
            {},
        )


def test_advanced_false_is_off_whatever_the_ruleset_says():
    off = header(ruleset="knight-academy/advanced", options={"advanced": False})
    assert ka.RULES.ruleset(off) == ka.STANDARD
    assert ka.RULES.settled(off).ruleset == "knight-academy/standard"
    # on the default ruleset it changes nothing, and the match is filed as any standard one
    plain = ka.RULES.settled(header(options={"advanced": False}))
    assert (plain.ruleset, plain.rules, plain.options) == (None, {}, {})


def test_advanced_on_a_variant_board_ruleset_plays_both_and_is_filed_as_advanced_with_the_board():
    both = header(ruleset="knight-academy/mercy", options={"advanced": True})
    assert ka.RULES.ruleset(both) == msgspec.structs.replace(ka.ADVANCED, boards=("mercy",))
    settled = ka.RULES.settled(both)
    assert (settled.ruleset, settled.rules) == ("knight-academy/advanced", {"boards": ("mercy",)})
    assert ka.RULES.ruleset(settled) == ka.RULES.ruleset(both)


def test_the_headers_rules_override_what_an_option_switched_on():
    two_lifts = header(options={"advanced": True}, rules={"lifts": 2})
    assert ka.RULES.ruleset(two_lifts) == msgspec.structs.replace(ka.ADVANCED, lifts=2)
    settled = ka.RULES.settled(two_lifts)
    assert (settled.ruleset, settled.rules) == ("knight-academy/advanced", {"lifts": 2})


BAD_OPTIONS = {
    "unknown.jsonl": (
        {"advanced": True, "turbo": True},
        'LOG-3: unknown option "turbo"; known: advanced (KA-21)',
    ),
    "not-a-switch.jsonl": ({"advanced": 1}, 'LOG-3: option "advanced" is true or false, not 1'),
    "a-word.jsonl": ({"advanced": "yes"}, 'LOG-3: option "advanced" is true or false, not "yes"'),
}


@pytest.mark.parametrize("name", list(BAD_OPTIONS))
def test_an_unknown_option_or_one_that_is_not_true_or_false_is_refused_at_the_header(name):
    options, message = BAD_OPTIONS[name]
    data = b"\n" + with_header((LOGS / "ka-example-3p.jsonl").read_bytes(), options=options)
    with pytest.raises(ReplayError) as caught:
        open_log(data, name, catalogues=CATALOGUES)
    # the header is line 2 here: a blank line comes first
    assert str(caught.value) == f"{name}:2: {message}"


def test_squire_ingest_refuses_bad_options_keeps_the_good_logs_and_files_options_as_rules(
    tmp_path, capsys
):
    folder = tmp_path / "logs"
    folder.mkdir()
    three = (LOGS / "ka-example-3p.jsonl").read_bytes()
    (folder / "ka-example-3p.jsonl").write_bytes(three)
    advanced = (LOGS / "ka-example-advanced-3p.jsonl").read_bytes()
    (folder / "optioned.jsonl").write_bytes(
        with_header(advanced, game_id="optioned", ruleset=None, options={"advanced": True})
    )
    for name, (options, _) in BAD_OPTIONS.items():
        (folder / name).write_bytes(with_header(three, game_id=name, options=options))
    db = tmp_path / "wh"
    assert main(["ingest", str(folder), "--db", str(db), "--jobs", "1"]) == 1
    captured = capsys.readouterr()
    assert f"2 ingested, 0 already present, 0 conflicts, {len(BAD_OPTIONS)} rejected" in (
        captured.out
    )
    for name, (_, message) in BAD_OPTIONS.items():
        assert f"rejected: {folder / name}:1: {message}" in captured.err
    stored = open_reader(db).execute(
        "SELECT game_id, ruleset, rules, ruleset_key FROM games ORDER BY game_id"
    )
    assert stored.fetchall() == [
        ("ka-example-3p", "knight-academy/standard", "{}", "knight-academy/standard"),
        ("optioned", "knight-academy/advanced", "{}", "knight-academy/advanced"),
    ]
