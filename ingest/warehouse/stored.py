"""Which matches a warehouse holds, by `game_id`, and from which log: in 32 bytes a match.

An ingest must know, for every log it replays, whether its match is stored and from the same
log (then it is a no-op) or from another (a conflict). As a dict of strings that costs about
300 bytes a match, 300 MB at a million matches, so the index keeps a 128-bit digest of each
`game_id` and the first 128 bits of its log's SHA-256, sorted, in two arrays. Two different
ids share a digest with a chance of about n² / 2¹²⁹ (10⁻²⁶ at a million matches).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

import numpy as np

# Matches added since the arrays were last sorted stay in a dict until there are this many.
FOLD = 50_000


def _id(game_id: str) -> bytes:
    return hashlib.blake2b(game_id.encode(), digest_size=16).digest()


def _log(sha256: str) -> bytes:
    return bytes.fromhex(sha256)[:16]


class Stored:
    def __init__(self) -> None:
        self._ids = np.empty(0, dtype="V16")
        self._logs = np.empty(0, dtype="V16")
        self._recent: dict[bytes, bytes] = {}

    def __len__(self) -> int:
        return len(self._ids) + len(self._recent)

    def load(self, chunks: Iterable[Iterable[tuple[str, str]]]) -> None:
        """The (game_id, log_sha256) of stored matches, a chunk (a file) at a time, sorted
        once at the end: the pairs never stand as Python strings all at once."""
        ids, logs = [self._ids], [self._logs]
        for chunk in chunks:
            digests = [(_id(game_id), _log(sha256)) for game_id, sha256 in chunk]
            ids.append(np.array([d[0] for d in digests], dtype="V16"))
            logs.append(np.array([d[1] for d in digests], dtype="V16"))
        self._ids, self._logs = np.concatenate(ids), np.concatenate(logs)
        self._fold()

    def add(self, pairs: Iterable[tuple[str, str]]) -> None:
        """(game_id, log_sha256) of matches now stored."""
        for game_id, sha256 in pairs:
            self._recent[_id(game_id)] = _log(sha256)
        if len(self._recent) >= FOLD:
            self._fold()

    def _fold(self) -> None:
        ids = np.concatenate([self._ids, np.array(list(self._recent), dtype="V16")])
        logs = np.concatenate([self._logs, np.array(list(self._recent.values()), dtype="V16")])
        order = np.argsort(ids.view("S16"), kind="stable")
        self._ids, self._logs = ids[order], logs[order]
        self._recent = {}

    def get(self, game_id: str) -> bytes | None:
        """The stored log's digest for `game_id`, or None when it is not stored."""
        key = _id(game_id)
        if key in self._recent:
            return self._recent[key]
        found = np.searchsorted(self._ids.view("S16"), np.array(key, dtype="S16"))
        if found < len(self._ids) and self._ids[found].tobytes() == key:
            return bytes(self._logs[found].tobytes())
        return None

    def same(self, game_id: str, sha256: str) -> bool | None:
        """None when `game_id` is not stored; else whether it was stored from this log."""
        stored = self.get(game_id)
        return None if stored is None else stored == _log(sha256)
