"""The paths of the logs an ingest was given, held compactly for the length of the ingest.

An ingest holds every path it found until its last chunk is handed out. As Python strings a
million paths take about 150 MB; here each folder is held once and the file names in Arrow,
about 35 bytes a path.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import overload

import pyarrow as pa

BATCH = 65_536  # names gathered as Python strings before they go to Arrow


class LogList(Sequence[str]):
    """A sequence of paths (as `find_logs` spells them), in the order given."""

    def __init__(self, paths: Iterable[str]) -> None:
        folders: dict[str, int] = {}
        self._folder_of = array("I")
        chunks: list[pa.Array] = []
        names: list[str] = []
        for path in paths:
            folder, name = os.path.split(path)
            if os.path.join(folder, name) != path:  # spelled unlike a join: kept whole
                folder, name = "", path
            self._folder_of.append(folders.setdefault(folder, len(folders)))
            names.append(name)
            if len(names) == BATCH:
                chunks.append(pa.array(names, pa.string()))
                names = []
        chunks.append(pa.array(names, pa.string()))
        self._folders = list(folders)
        self._names = pa.chunked_array(chunks, pa.string())

    def __len__(self) -> int:
        return len(self._folder_of)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            if step != 1:
                return [self[i] for i in range(start, stop, step)]
            names = self._names[start:stop].to_pylist() if stop > start else []
            folders = self._folder_of[start:stop]
            return [os.path.join(self._folders[f], n) for f, n in zip(folders, names, strict=True)]
        if not -len(self) <= index < len(self):
            raise IndexError(index)
        index %= len(self)
        name = self._names[index].as_py()
        return os.path.join(self._folders[self._folder_of[index]], name)

    def __iter__(self) -> Iterator[str]:
        for start in range(0, len(self), BATCH):
            yield from self[start : start + BATCH]
