"""Finding log files and reading their bytes (plain or gzip-compressed JSON Lines)."""

from __future__ import annotations

import glob
import gzip
import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

LOG_SUFFIXES = (".jsonl", ".jsonl.gz")


def find_logs(targets: Iterable[str]) -> Iterator[Path]:
    """Files as given, folders searched recursively, globs expanded; each file once, in order.

    A target that matches nothing raises FileNotFoundError naming it.
    """
    seen: set[str] = set()
    for given in targets:
        target = str(Path(given))  # spelled as paths spell it ("./a/" is "a")
        try:
            is_dir = stat.S_ISDIR(os.stat(target).st_mode)
        except OSError:
            is_dir = None  # not a file or folder: a glob, or nothing
        if is_dir:
            found = sorted((os.path.join(root, name)
                            for root, _, names in os.walk(target)
                            for name in names if name.endswith(LOG_SUFFIXES)), key=_parts)
        elif is_dir is False:
            found = [target]
        else:
            found = sorted((str(Path(p)) for p in glob.glob(given, recursive=True)
                            if os.path.isfile(p) and p.endswith(LOG_SUFFIXES)), key=_parts)
            if not found:
                raise FileNotFoundError(f"{given}: no such file, folder or matching log")
        for name in found:
            if name not in seen:
                seen.add(name)
                yield Path(name)


def _parts(path: str) -> list[str]:
    """Order as paths order: folder by folder (a/b before a-b)."""
    return path.split(os.sep)


def read_log(path: Path | str) -> bytes:
    """The uncompressed bytes of a log file; gzip is recognised by its magic number."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        return gzip.decompress(data)
    return data
