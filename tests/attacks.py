"""Hostile logs, as an attacker writes them: each with the one rejection squire must give it.

`write_attacks(folder)` writes them all (each with a game_id of its own, so none collides
with a good log) and returns {file name: (line, rule)}. Bombs are built from gzip members
laid end to end (`cat a.gz b.gz` is a valid gzip), so a gigabyte of NUL bytes costs a
megabyte of disk and a moment to write.
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from pathlib import Path

ROOT = Path(__file__).parents[1]
GOOD = ROOT / "tests" / "knight_academy" / "logs" / "ka-example-3p.jsonl"
ALBUS = ROOT / "tests" / "albus_academy" / "logs" / "aa-example-2p.jsonl"
MiB = 2**20


def lines_of(path: Path, game_id: str, **header: object) -> list[str]:
    """The log's lines with its header's game_id (and any field given) replaced."""
    lines = path.read_text().splitlines()
    first = json.loads(lines[0])
    first.update(game_id=game_id, **header)
    return [json.dumps(first, ensure_ascii=False), *lines[1:]]


def text(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()


def repeated_gzip(piece: bytes, times: int) -> bytes:
    """A gzip file of `piece` written `times` times over, at the cost of one member."""
    return gzip.compress(piece) * times


def whole_lines(cut: bytes) -> int:
    """How many whole lines the start of a cut gzip stream inflates to."""
    return zlib.decompressobj(wbits=31).decompress(cut).count(b"\n")


def attacks() -> dict[str, tuple[bytes, int, str]]:
    """File name → (its bytes, the line and rule of its rejection)."""
    good = lines_of(GOOD, "attack")
    header = good[0].encode() + b"\n"
    packed = gzip.compress(text(good))
    deep = "[" * 10_000 + "]" * 10_000
    forged = "x\ny:1: LOG-1: forged\x1b[2J"
    named = lines_of(GOOD, "attack-forged", players=["Ann", "Cid", forged])
    named = [line.replace('"Fay"', json.dumps(forged)) for line in named]
    named[4] = named[4].replace('"sword-3"', '"quest-5"')  # line 5: not in the forger's hand
    out = {
        "deep-event.jsonl": (
            text([*good[:1], good[1][:-1] + f', "zz": {deep}}}', *good[2:]]),
            2,
            "LOG-6",
        ),
        "deep-header.jsonl": (text([good[0][:-1] + f', "zz": {deep}}}', *good[1:]]), 1, "LOG-6"),
        "long-line.jsonl": (
            text([good[0], good[1][:-1] + f', "zz": "{"a" * (2 * MiB)}"}}']),
            2,
            "LOG-6",
        ),
        "many-lines.jsonl": (header + b"\n" * 200_000, 100_001, "LOG-6"),
        "cut.jsonl.gz": (
            packed[: len(packed) // 2],
            whole_lines(packed[: len(packed) // 2]) + 1,
            "LOG-7",
        ),
        "cut-after-header.jsonl.gz": (packed[:10], 1, "LOG-7"),
        "no-trailer.jsonl.gz": (packed[:-8], len(good) + 1, "LOG-7"),
        "bad-crc.jsonl.gz": (packed[:-8] + bytes(4) + packed[-4:], 1, "LOG-7"),
        "bad-method.jsonl.gz": (packed[:2] + b"\x07" + packed[3:], 1, "LOG-7"),
        "trailing-junk.jsonl.gz": (packed + b"junk", len(good) + 1, "LOG-7"),
        "corrupt-deflate.jsonl.gz": (
            packed[:40] + bytes([packed[40] ^ 0xFF]) + packed[41:],
            1,
            "LOG-7",
        ),
        "nul-bomb.jsonl.gz": (repeated_gzip(bytes(MiB), 1024), 1, "LOG-6"),  # 1 GiB
        "newline-bomb.jsonl.gz": (
            gzip.compress(header) + repeated_gzip(b"\n" * MiB, 256),
            2**24 - len(header) + 2,
            "LOG-6",
        ),  # 256 MiB of newlines
        "field-bomb.jsonl.gz": (
            gzip.compress(header + b'{"kind": "pick", "zz": "') + repeated_gzip(b"a" * MiB, 1024),
            2,
            "LOG-6",
        ),  # 1 GiB
        "board-of-a-billion.jsonl": (
            text(lines_of(ALBUS, "attack-board", rules={"board_cols": 10**9})),
            1,
            "LOG-3",
        ),
        "huge-prize.jsonl": (
            text(lines_of(GOOD, "attack-prize", rules={"quest_prizes": [2_999_999_999, 10, 4]})),
            1,
            "LOG-3",
        ),
        "huger-prize.jsonl": (
            text(lines_of(GOOD, "attack-prize", rules={"quest_prizes": [10**30, 10, 4]})),
            1,
            "LOG-3",
        ),
        "forged-name.jsonl": (text(named), 5, "KA-5"),
        "not-utf8.jsonl": (text(good[:3]).replace(b"Fay", b"F\xffy", 1), 1, "LOG-1"),
        "huge-round.jsonl": (text([good[0], good[1][:-1] + f', "round": {10**30}}}']), 2, "KA-4"),
    }
    return out


def write_attacks(folder: Path) -> dict[str, tuple[int, str]]:
    """Every attack as a file in `folder` (and a FIFO named like a log): name → (line, rule)."""
    folder.mkdir(parents=True, exist_ok=True)
    expected = {}
    for name, (data, line, rule) in attacks().items():
        (folder / name).write_bytes(data)
        expected[name] = (line, rule)
    os.mkfifo(folder / "fifo.jsonl")
    expected["fifo.jsonl"] = (1, "LOG-7")
    return expected
