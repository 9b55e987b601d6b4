"""Finding log files and reading their bytes (plain or gzip-compressed JSON Lines)."""

from __future__ import annotations

import glob
import gzip
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

LOG_SUFFIXES = (".jsonl", ".jsonl.gz")


def is_log(path: Path) -> bool:
    return path.name.endswith(LOG_SUFFIXES)


def find_logs(targets: Iterable[str]) -> Iterator[Path]:
    """Files as given, folders searched recursively, globs expanded; each file once, in order.

    A target that matches nothing raises FileNotFoundError naming it.
    """
    seen: set[Path] = set()
    for target in targets:
        path = Path(target)
        if path.is_dir():
            found = sorted(
                Path(root) / name
                for root, _, names in os.walk(path)
                for name in names
                if name.endswith(LOG_SUFFIXES)
            )
        elif path.exists():
            found = [path]
        else:
            found = sorted(
                Path(p) for p in glob.glob(target, recursive=True)
                if os.path.isfile(p) and is_log(Path(p))
            )
            if not found:
                raise FileNotFoundError(f"{target}: no such file, folder or matching log")
        for p in found:
            if p not in seen:
                seen.add(p)
                yield p


def read_log(path: Path | str) -> bytes:
    """The uncompressed bytes of a log file; gzip is recognised by its magic number."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        return gzip.decompress(data)
    return data
