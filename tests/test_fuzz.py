"""A seeded mutator over every game's worked examples, as an attacker would mutate them:
fields retyped, lines cut, dropped, swapped and repeated, huge numbers, control characters,
deep nesting, ruleset overrides at extremes, broken gzip. Whatever comes out, `squire replay`
answers each log with its result or one `PATH:LINE: RULE: message` line, never a traceback
and never squire's own failure (INTERNAL), within bounded memory and time; the ingest stores
or rejects every one of them."""

from __future__ import annotations

import gzip
import json
import random
import re
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from ingest.pipeline.rows import replay_files
from replay.registry import GAMES

ROOT = Path(__file__).parents[1]
EXAMPLES = sorted(ROOT.glob("tests/*/logs/*.jsonl"))
PER_EXAMPLE = 200  # mutants of each worked example: 2,000 logs in all
REJECTION = re.compile(
    r"^(?P<path>.+?\.jsonl(?:\.gz)?):(?P<line>\d+): "
    r"(?P<rule>LOG-\d|[A-Z]{2}-\d+[a-z]?): "
)
MEMORY = 1024 * 2**20  # the replaying process's address space: a log that needs more fails

ODD_VALUES: list[Any] = [
    None,
    True,
    -1,
    0,
    2**31,
    2**63,
    10**30,
    -(10**30),
    1e308,
    "",
    "x" * 300,
    "\n\x1b[31m\u2028\u202e",
    [],
    [[]],
    {},
    {"kind": "pick"},
    "sword-99",
    ["a"] * 70,
]


def _parsed(line: str) -> dict[str, Any] | None:
    """A line as JSON, if an earlier mutation left it an object."""
    try:
        event = json.loads(line)
    except ValueError:
        return None
    return event if isinstance(event, dict) and event else None


def _retype(rng: random.Random, lines: list[str]) -> list[str]:
    number = rng.randrange(len(lines))
    event = _parsed(lines[number])
    if event is None:
        return lines
    key = rng.choice(sorted(event))
    event[key] = rng.choice(ODD_VALUES)
    lines[number] = json.dumps(event, ensure_ascii=False)
    return lines


def _structure(rng: random.Random, lines: list[str]) -> list[str]:
    a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
    how = rng.randrange(4)
    if how == 0:
        del lines[a]
    elif how == 1:
        lines.insert(a, lines[b])
    elif how == 2:
        lines[a], lines[b] = lines[b], lines[a]
    else:
        del lines[a:]
    return lines


def _nest(rng: random.Random, lines: list[str]) -> list[str]:
    number = rng.randrange(len(lines))
    levels = rng.choice([31, 33, 200, 5000])
    lines[number] = lines[number][:-1] + ', "zz": ' + "[" * levels + "]" * levels + "}"
    return lines


def _override(rng: random.Random, lines: list[str]) -> list[str]:
    header = _parsed(lines[0])
    name = header.get("game") if header else None
    game = GAMES.get(name) if isinstance(name, str) else None
    if header is None or game is None:  # an earlier mutation broke the header
        return lines
    fields = msgspec.structs.fields(game.config_type)
    name = rng.choice(fields).name
    header.setdefault("rules", {})[name] = rng.choice(
        [10**9, -(10**9), 0, 1, 10**30, [10**9] * 3, list(range(200)), "x" * 100, {"a": 1}]
    )
    lines[0] = json.dumps(header)
    return lines


def _control(rng: random.Random, lines: list[str]) -> list[str]:
    number = rng.randrange(len(lines))
    at = rng.randrange(len(lines[number]) + 1)
    lines[number] = (
        lines[number][:at]
        + rng.choice(["\x00", "\x1b", "\r", "\\u2028", "\\n", "\udcff", "\x85"])
        + lines[number][at:]
    )
    return lines


def _harmless(rng: random.Random, lines: list[str]) -> list[str]:
    """What a log may do without changing what it says: a newer recorder's extra field, keys
    in another order, blank lines, other spacing."""
    number = rng.choice([i for i, line in enumerate(lines) if line.strip()])
    event = json.loads(lines[number])
    how = rng.randrange(4)
    if how == 0:
        event["recorded_by"] = {"app": "tablet", "taps": [1, 2, 3]}
    elif how == 1:
        event = dict(reversed(list(event.items())))
    if how == 2:
        lines.insert(number + 1, rng.choice(["", "   ", "\t"]))
    else:
        lines[number] = json.dumps(
            event, ensure_ascii=False, separators=rng.choice([(",", ":"), (", ", ": ")])
        )
    return lines


TEXT_MUTATIONS: list[Callable[[random.Random, list[str]], list[str]]] = [
    _retype,
    _retype,
    _structure,
    _nest,
    _override,
    _control,
]


def mutant(rng: random.Random, example: Path) -> bytes:
    lines = example.read_text().splitlines()
    for _ in range(rng.choice([1, 1, 2, 3])):
        if lines:
            lines = rng.choice(TEXT_MUTATIONS)(rng, lines)
    data = ("\n".join(lines) + "\n").encode(errors="surrogateescape")
    if rng.random() < 0.25:  # a compressed log, maybe broken on the way
        data = gzip.compress(data, mtime=0)
        at = rng.randrange(len(data))
        data = rng.choice(
            [data, data[:at], data[:at] + bytes([data[at] ^ 0x5A]) + data[at + 1 :], data + b"x"]
        )
    elif rng.random() < 0.1:
        at = rng.randrange(len(data))
        data = data[:at] + bytes(rng.randrange(256) for _ in range(8)) + data[at:]
    return data


HARMLESS = 12  # of each example's mutants, the first ones change nothing the log says


def harmless(rng: random.Random, example: Path) -> bytes:
    lines = example.read_text().splitlines()
    for _ in range(rng.randrange(1, 6)):
        lines = _harmless(rng, lines)
    data = ("\n".join(lines) + "\n").encode()
    return gzip.compress(data, mtime=0) if rng.random() < 0.3 else data


def write_mutants(folder: Path) -> list[Path]:
    rng = random.Random(2026)
    folder.mkdir()
    written = []
    for example in EXAMPLES:
        for i in range(PER_EXAMPLE):
            data = harmless(rng, example) if i < HARMLESS else mutant(rng, example)
            suffix = ".jsonl.gz" if data[:2] == b"\x1f\x8b" else ".jsonl"
            path = folder / f"{example.stem}-{i:03d}{suffix}"
            path.write_bytes(data)
            written.append(path)
    return written


def _bounded() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def test_every_mutant_replays_or_is_rejected_on_one_line(tmp_path):
    written = write_mutants(tmp_path / "mutants")
    done = subprocess.run(
        [sys.executable, "-m", "ingest.cli", "replay", "--json", str(tmp_path / "mutants")],
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=_bounded,
    )
    assert done.returncode in (0, 1)
    assert "Traceback" not in done.stderr and "INTERNAL" not in done.stderr, done.stderr[-2000:]
    rejected = [REJECTION.match(line) for line in done.stderr.splitlines()]
    assert all(rejected), [line for line, m in zip(done.stderr.splitlines(), rejected) if not m]
    results = {row["path"]: row for row in map(json.loads, done.stdout.splitlines())}
    names = sorted([m["path"] for m in rejected if m] + list(results))
    assert names == sorted(map(str, written)), "each log once: a result or a rejection"
    originals = {
        row["game_id"]: row
        for row in map(
            json.loads,
            subprocess.run(
                [sys.executable, "-m", "ingest.cli", "replay", "--json", *map(str, EXAMPLES)],
                capture_output=True,
                text=True,
                check=True,
            ).stdout.splitlines(),
        )
    }
    for path in written:  # a harmless change replays to the same result
        if int(path.name.split(".")[0].rsplit("-", 1)[1]) < HARMLESS:
            got = results[str(path)]
            assert {**got, "path": ""} == {**originals[got["game_id"]], "path": ""}, path


def test_the_ingest_rows_every_mutant_or_rejects_it_without_failing_itself(tmp_path):
    written = write_mutants(tmp_path / "mutants")
    batch = replay_files([str(p) for p in written])
    assert not [r for r in batch.rejects if r.rule == "INTERNAL"]
    stored = batch.tables["games"]["path"].to_pylist()
    repeated = [path for path, _, _ in batch.repeats]
    assert sorted([r.path for r in batch.rejects] + stored + repeated) == sorted(map(str, written))
