"""Finding log files and reading their bytes (plain or gzip-compressed JSON Lines)."""

from __future__ import annotations

import glob
import os
import re
import stat
import zlib
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from replay.errors import ReplayError
from replay.limits import MAX_LOG_BYTES, beyond_limits, size_text

LOG_SUFFIXES = (".jsonl", ".jsonl.gz")


def find_logs(targets: Iterable[str]) -> Iterator[str]:
    """Files as given, folders searched recursively, globs expanded; each file once, in order,
    spelled as paths spell them ("a/b", not "./a//b"). Strings, not Paths: a million Paths
    are 600 MB.

    Whatever is named like a log is a log to read, so that reading refuses it with a reason
    (LOG-7) while the others go on: a FIFO, a dangling link, a folder named `x.jsonl`, a path
    that does not exist. Only a glob that matches nothing raises FileNotFoundError naming it.
    """
    targets = list(targets)
    # Only the files of earlier targets can come again: the last target's (often a folder of
    # a million logs) need not be remembered.
    seen: set[str] = set()
    for i, given in enumerate(targets):
        target = str(Path(given))  # spelled as paths spell it ("./a/" is "a")
        found: Iterable[str]
        if _is_folder(target) and not target.endswith(LOG_SUFFIXES):
            found = _walk(target, "" if target == "." else target)
        elif os.path.lexists(target) or not _GLOB.search(given):
            found = [target]
        else:
            found = sorted(
                (str(Path(p)) for p in glob.glob(given, recursive=True) if _named_log(p)),
                key=_parts,
            )
            if not found:
                raise FileNotFoundError(f"{given}: no such file, folder or matching log")
        last = i == len(targets) - 1
        for name in found:
            if name not in seen:
                if not last:
                    seen.add(name)
                yield name


_GLOB = re.compile(r"[*?[]")


def _is_folder(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


def _named_log(path: str) -> bool:
    return path.rstrip(os.sep).endswith(LOG_SUFFIXES)


def _walk(folder: str, spelled: str) -> Iterator[str]:
    """The logs under a folder, in the order of their paths (a/b before a-b), found a folder at
    a time: a folder's names are sorted, not the whole tree's paths. Like os.walk, it does not
    follow links to folders and passes over a folder it cannot read. A folder named like a log
    is taken for one (and refused when read), not searched. `spelled`: the folder as its paths
    begin ("" for the current one)."""
    names: list[str] = []
    folders: set[str] = set()
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.endswith(LOG_SUFFIXES):
                    names.append(entry.name)
                elif entry.is_dir() and not entry.is_symlink():
                    folders.add(entry.name)
    except OSError:
        return
    names += folders
    names.sort()
    for name in names:
        path = os.path.join(spelled, name)
        if name in folders:
            yield from _walk(os.path.join(folder, name), path)
        else:
            yield path


def _parts(path: str) -> list[str]:
    """Order as paths order: folder by folder (a/b before a-b)."""
    return path.split(os.sep)


CHUNK = 2**20  # bytes read from a gzip file at a time
STEP = 4096  # compressed bytes inflated at a time: a corrupt byte is found near its line


def read_log(path: Path | str) -> bytes:
    """The uncompressed bytes of a log file; gzip is recognised by its magic number.

    ReplayError (LOG-7) for a file that is not a regular file or cannot be read, or whose
    gzip stream is cut or corrupt, at the first line it does not deliver whole; LOG-6 for a
    log larger than MAX_LOG_BYTES uncompressed, before more than that is held in memory.
    """
    name = str(path)
    try:
        fd, size = open_regular(name)
    except OSError as err:
        raise ReplayError(name, 1, "LOG-7", reason(err)) from None
    try:
        data = _read(fd, min(size, MAX_LOG_BYTES) + 1)
        if data[:2] == GZIP_MAGIC:
            return _inflate(fd, data, name)
    except OSError as err:
        raise ReplayError(name, 1, "LOG-7", reason(err)) from None
    finally:
        os.close(fd)
    _check_size(data, name)
    return data


def open_regular(path: str) -> tuple[int, int]:
    """A descriptor of a regular file and its size; OSError for anything else. Opened without
    blocking, so that a FIFO named like a log or a catalogue is refused, not waited on."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        raise NotRegular(path)
    return fd, info.st_size


class NotRegular(OSError):
    """A folder, FIFO, socket or device where a file was expected."""


def reason(err: OSError) -> str:
    if isinstance(err, NotRegular):
        return "not a regular file"
    return f"cannot read: {err.strerror or err}"


def read_small(path: Path | str, limit: int) -> bytes:
    """A regular file of at most `limit` bytes (a catalogue); OSError if it is anything else,
    ValueError if it is larger."""
    fd, size = open_regular(str(path))
    try:
        data = _read(fd, min(size, limit) + 1)
    finally:
        os.close(fd)
    if len(data) > limit:
        raise ValueError(f"larger than {size_text(limit)}")
    return data


def _read(fd: int, size: int) -> bytes:
    """Up to `size` bytes of a file, fewer only where it ends."""
    data = os.read(fd, size)
    while 0 < len(data) < size:  # a read may stop short of a large request
        more = os.read(fd, size - len(data))
        if not more:
            break
        data += more
    return data


GZIP_MAGIC = b"\x1f\x8b"


def _inflate(fd: int, source: bytes, name: str) -> bytes:
    """A gzip file's members one after another, inflated no further than one byte past
    MAX_LOG_BYTES; NUL padding after the last member is allowed, as gzip allows it."""
    pieces: list[bytes] = []
    size = newlines = pos = 0
    inflater = zlib.decompressobj(wbits=31)  # 31: a gzip header and trailer (CRC, length)

    def broken(why: str) -> ReplayError:
        return ReplayError(name, newlines + 1, "LOG-7", f"the gzip stream {why}")

    while True:
        if pos >= len(source):
            source, pos = _read(fd, CHUNK), 0
            if not source:
                raise broken("is cut short")
        feed = source[pos : pos + STEP]
        pos += len(feed)
        try:
            piece = inflater.decompress(feed, MAX_LOG_BYTES + 1 - size)
        except zlib.error as err:
            raise broken(f"is corrupt ({err})") from None
        pieces.append(piece)
        size += len(piece)
        if size > MAX_LOG_BYTES:  # zlib held back the rest of its input only if so
            _check_size(b"".join(pieces), name)
        newlines += piece.count(b"\n")
        if inflater.eof:
            source, pos = inflater.unused_data + source[pos:], 0
            while not source.strip(b"\0"):
                more = _read(fd, CHUNK)
                if not more:
                    return b"".join(pieces)
                source = source.lstrip(b"\0") + more
            if source[:2] != GZIP_MAGIC:
                raise broken("is followed by bytes that are not gzip")
            inflater = zlib.decompressobj(wbits=31)  # the next member


def _check_size(data: bytes, name: str) -> None:
    """LOG-6 for a log larger than MAX_LOG_BYTES uncompressed."""
    beyond = beyond_limits(data) if len(data) > MAX_LOG_BYTES else None
    if beyond:
        raise ReplayError(name, beyond[0], beyond[1].rule, beyond[1].message)


def rebuilt(header: str, payloads: Sequence[str]) -> bytes:
    """A stored match's log from its header and event lines as the warehouse keeps them."""
    return ("\n".join([header, *payloads]) + "\n").encode()
