"""Where a warehouse is: a local folder, or a prefix on S3 (`s3://BUCKET/PATH`).

A warehouse on S3 is read and written through pyarrow's S3 file system, delta-rs and DuckDB,
which all take their settings from the usual `AWS_*` environment variables (AWS_ACCESS_KEY_ID,
AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_ENDPOINT_URL for a server other than AWS's,
AWS_ALLOW_HTTP for one without TLS). `--storage-option KEY=VALUE` sets one of them for a
command, and its worker processes, local or on a cluster, inherit them.

`S3Path` has the part of `pathlib.Path`'s interface the warehouse uses, so the code that
keeps files beside the tables (ratings, models, catalogues, experiments' records) reads the
same on either: an object is written whole or not at all, which is what writing a scratch
file and renaming it gives a folder.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, TypeAlias
from urllib.parse import urlsplit

import pyarrow.fs as pafs

SCHEME = "s3://"


@dataclass(frozen=True)
class Stat:
    """What `S3Path.stat` tells: an object's size and when it was last written."""

    st_size: int
    st_mtime_ns: int

    @property
    def st_mtime(self) -> float:
        return self.st_mtime_ns / 1e9


class S3Path:
    """An object, or a prefix of objects, on S3."""

    __slots__ = ("_key",)

    def __init__(self, uri: str) -> None:
        if not uri.startswith(SCHEME):
            raise ValueError(f"{uri!r} is not an s3:// address")
        key = str(PurePosixPath(uri[len(SCHEME) :].strip("/")))
        if not key or key == ".":
            raise ValueError(f"{uri!r} names no bucket")
        self._key = key  # bucket/path, as pyarrow's S3 file system names it

    # the pure part
    def __str__(self) -> str:
        return SCHEME + self._key

    def __repr__(self) -> str:
        return f"S3Path({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, S3Path) and other._key == self._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __lt__(self, other: S3Path) -> bool:
        return self._key < other._key

    def __truediv__(self, name: str | os.PathLike[str]) -> S3Path:
        return S3Path(f"{self}/{os.fspath(name)}")

    @property
    def key(self) -> str:
        return self._key

    @property
    def name(self) -> str:
        return PurePosixPath(self._key).name

    @property
    def stem(self) -> str:
        return PurePosixPath(self._key).stem

    @property
    def suffix(self) -> str:
        return PurePosixPath(self._key).suffix

    @property
    def parent(self) -> S3Path:
        parent = PurePosixPath(self._key).parent
        return self if str(parent) == "." else S3Path(SCHEME + str(parent))

    def with_name(self, name: str) -> S3Path:
        return S3Path(SCHEME + str(PurePosixPath(self._key).with_name(name)))

    # what asks the server
    def _info(self) -> pafs.FileInfo:
        return filesystem().get_file_info(self._key)

    def exists(self) -> bool:
        return bool(self._info().type != pafs.FileType.NotFound)

    def is_dir(self) -> bool:
        return bool(self._info().type == pafs.FileType.Directory)

    def is_file(self) -> bool:
        return bool(self._info().type == pafs.FileType.File)

    def stat(self) -> Stat:
        info = self._info()
        if info.type == pafs.FileType.NotFound:
            raise FileNotFoundError(str(self))
        return Stat(int(info.size or 0), int(info.mtime_ns or 0))

    def mkdir(self, parents: bool = False, exist_ok: bool = False) -> None:
        """Nothing to make: a prefix exists once an object is under it."""

    def read_bytes(self) -> bytes:
        try:
            return get_whole(self._key)
        except FileNotFoundError:
            raise FileNotFoundError(str(self)) from None

    def read_text(self, encoding: str = "utf-8") -> str:
        return self.read_bytes().decode(encoding)

    def write_bytes(self, data: bytes) -> int:
        with filesystem().open_output_stream(self._key, metadata={}) as stream:
            stream.write(data)
        return len(data)

    def write_text(self, text: str, encoding: str = "utf-8") -> int:
        return self.write_bytes(text.encode(encoding))

    def unlink(self, missing_ok: bool = False) -> None:
        try:
            filesystem().delete_file(self._key)
        except FileNotFoundError:
            if not missing_ok:
                raise FileNotFoundError(str(self)) from None

    def glob(self, pattern: str) -> Iterator[S3Path]:
        """The objects (and prefixes) under this one whose path below it matches `pattern`
        part for part, as pathlib's glob matches (no `**`)."""
        parts = pattern.split("/")
        listed = filesystem().get_file_info(
            pafs.FileSelector(self._key, recursive=len(parts) > 1, allow_not_found=True)
        )
        start = len(self._key) + 1
        for info in sorted(listed, key=lambda i: i.path):
            below = info.path[start:].split("/")
            if len(below) == len(parts) and all(
                fnmatch.fnmatchcase(b, p) for b, p in zip(below, parts, strict=True)
            ):
                yield S3Path(SCHEME + info.path)


Place: TypeAlias = Path | S3Path


def place(db: str | os.PathLike[str] | S3Path) -> Place:
    """`--db` as given: an s3:// address, or a folder."""
    if isinstance(db, S3Path | Path):
        return db
    text = os.fspath(db)
    if not text.startswith(SCHEME):
        return Path(text)
    _plain_http()
    return S3Path(text)


def _plain_http() -> None:
    """A server named by an http:// address is to be spoken to without TLS: delta-rs wants
    AWS_ALLOW_HTTP for that as well, which is easy to forget."""
    endpoint = os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL", "")
    if endpoint.startswith("http://"):
        os.environ.setdefault("AWS_ALLOW_HTTP", "true")


@functools.cache
def filesystem() -> pafs.S3FileSystem:
    """pyarrow's S3 file system, configured from the AWS_* variables (read when first
    asked for: `storage_options` sets them before)."""
    settings: dict[str, str] = {}
    endpoint = os.environ.get("AWS_ENDPOINT_URL_S3") or os.environ.get("AWS_ENDPOINT_URL")
    if endpoint:  # pyarrow reads the keys and the region itself, but not these
        parts = urlsplit(endpoint)
        settings["endpoint_override"] = parts.netloc + parts.path
        settings["scheme"] = parts.scheme or "https"
    region = os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION")
    if region:
        settings["region"] = region
    # A delayed open writes a file smaller than a part (5 MB) in one PUT when it is closed,
    # where an open stream would start a multipart upload: three requests a file, and an
    # ingest writes two dozen files a batch. Opening a file to read still asks S3 at once.
    return pafs.S3FileSystem(**settings, allow_delayed_open=True)


def get_whole(key: str) -> bytes:
    """The object `key` (BUCKET/NAME), read whole: in one request through boto3 (squire[s3]);
    pyarrow's streams ask S3 for the object's size first, a request more for each small file
    a reader reads and each time a page checks for news."""
    client = s3_client()
    if client is None:
        with filesystem().open_input_stream(key) as stream:
            return bytes(stream.read())
    bucket, _, name = key.partition("/")
    try:
        return bytes(client.get_object(Bucket=bucket, Key=name)["Body"].read())
    except client.exceptions.NoSuchKey:
        raise FileNotFoundError(key) from None


# What boto3 reads from the environment: a client is made again when one of them changes
# (`storage_options` sets them).
_CLIENT_SETTINGS = (
    "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_REGION", "AWS_DEFAULT_REGION",
    "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
)  # fmt: skip


def s3_client() -> Any:
    """boto3's S3 client for the AWS_* settings now; None where boto3 is not installed."""
    settings = tuple(os.environ.get(name) for name in _CLIENT_SETTINGS)
    # A client's calls are safe from several threads at once (DuckDB's); making one is not.
    with _MAKING:
        return _client(*settings)


_MAKING = threading.Lock()


@functools.lru_cache(maxsize=4)
def _client(*settings: str | None) -> Any:
    try:
        import boto3
    except ImportError:  # pragma: no cover - a dependency of the s3 extra
        return None
    return boto3.client("s3")


def refused(error: Exception) -> bool:
    """Whether S3 refused a conditional write (the object exists, or changed meanwhile)."""
    code = getattr(error, "response", {}).get("Error", {}).get("Code", "")
    return code in {"PreconditionFailed", "ConditionalRequestConflict", "412", "409"}


def put_new(path: S3Path, data: bytes) -> bool:
    """`data` as the object `path` if there is none yet (a conditional put, which S3 makes
    atomic, through boto3); whether it was written."""
    client = s3_client()
    if client is None:  # pragma: no cover - a dependency of the s3 extra
        raise RuntimeError("a warehouse on S3 needs boto3: pip install 'squire[s3]'")
    bucket, _, key = path.key.partition("/")
    try:
        client.put_object(Bucket=bucket, Key=key, Body=data, IfNoneMatch="*")
    except Exception as error:
        if refused(error):
            return False
        raise
    return True


def storage_options(options: Mapping[str, str]) -> None:
    """Set `--storage-option`s: AWS_* variables for this process and the workers it starts
    (a key given without the prefix gets it: endpoint_url is AWS_ENDPOINT_URL)."""
    changed = False
    for key, value in options.items():
        name = key.upper()
        name = name if name.startswith("AWS_") else f"AWS_{name}"
        if os.environ.get(name) != value:
            os.environ[name] = value
            changed = True
    _plain_http()
    if changed:
        filesystem.cache_clear()


def storage_environment() -> dict[str, str]:
    """The AWS_* variables of this process: what a task carries to a worker on another
    machine, whose environment may not have them."""
    return {k: v for k, v in os.environ.items() if k.startswith("AWS_")}


def arrow_path(path: Place) -> tuple[pafs.FileSystem | None, str]:
    """What pyarrow's readers and writers take for `path`: a file system (None: the local
    one) and the path on it."""
    if isinstance(path, S3Path):
        return filesystem(), path.key
    return None, str(path)


def register_with(con: object) -> None:
    """Let a DuckDB connection read s3:// files: through pyarrow's S3 file system (DuckDB's
    own httpfs extension is a download away, which a machine offline cannot make)."""
    from fsspec.implementations.arrow import ArrowFSWrapper
    from fsspec.spec import AbstractBufferedFile

    class S3Files(ArrowFSWrapper):  # type: ignore[misc]
        protocol = ("s3",)

        @classmethod
        def _strip_protocol(cls, path: str) -> str:
            path = path[len(SCHEME) :] if path.startswith(SCHEME) else path
            return str(super()._strip_protocol(path))

        # DuckDB asks about each file it reads again and again (its size, its time), a
        # request to S3 each time: a table's data file
        # never changes once written (a new one gets a new name), so what S3 said is kept.
        def info(self, path: str, **kwargs: Any) -> dict[str, Any]:
            if not _unchanging(path):
                return dict(super().info(path, **kwargs))
            key = self._strip_protocol(path)
            found = _KNOWN.get(key)
            if found is None:
                found = _KNOWN[key] = dict(super().info(path, **kwargs))
            return found

        def modified(self, path: str) -> Any:
            if not _unchanging(path):
                return super().modified(path)
            return self.info(path)["mtime"]

        # DuckDB opens a data file again for every query that reads it, and pyarrow asks S3
        # for its size at every opening: a file's one opened handle serves them all.
        def _open(self, path: str, mode: str = "rb", **kwargs: Any) -> Any:
            if mode != "rb" or not _unchanging(path):
                return super()._open(path, mode, **kwargs)
            key = self._strip_protocol(path)
            return Unchanging(self, key, self.info(path)["size"], kwargs.get("block_size"))

    class Unchanging(AbstractBufferedFile):  # type: ignore[misc]
        """A data file read through the handle it shares (`_reading`), a block at a time."""

        def __init__(self, fs: Any, key: str, size: int, block_size: int | None) -> None:
            super().__init__(fs, key, "rb", block_size or "default", size=size)

        def _fetch_range(self, start: int, end: int) -> bytes:
            if self.size <= SMALL:
                return _whole(self.path)[start:end]
            return bytes(_reading(self.path).read_at(end - start, start))

    con.register_filesystem(S3Files(filesystem()))  # type: ignore[attr-defined]


@functools.lru_cache(maxsize=4096)
def _reading(key: str) -> Any:
    """An opened data file (positional reads on it are safe from several threads at once)."""
    return filesystem().open_input_file(key)


# A query reads a file's footer, then its columns, each a request; the next query reads them
# again. Small data files are kept whole instead (the summaries a page sums, a batch's rows),
# up to KEPT bytes in all, the least recently read given up first.
SMALL = 4 * 2**20
KEPT = 64 * 2**20
_WHOLE: OrderedDict[str, bytes] = OrderedDict()
_WHOLE_LOCK = threading.Lock()
_whole_bytes = 0


def _whole(key: str) -> bytes:
    with _WHOLE_LOCK:
        data = _WHOLE.get(key)
        if data is not None:
            _WHOLE.move_to_end(key)
            return data
    data = get_whole(key)
    global _whole_bytes
    with _WHOLE_LOCK:
        if key not in _WHOLE:
            _WHOLE[key] = data
            _whole_bytes += len(data)
        while _whole_bytes > KEPT and len(_WHOLE) > 1:
            _whole_bytes -= len(_WHOLE.popitem(last=False)[1])
    return data


_KNOWN: dict[str, dict[str, Any]] = {}  # what S3 told of the tables' data files


def told(table: str, names: list[str], sizes: list[int], times: list[Any]) -> None:
    """What a table's log says of its data files (`table` an s3:// address): DuckDB then
    need not ask S3 about them."""
    from datetime import UTC, datetime

    for name, size, at in zip(names, sizes, times, strict=True):
        key = f"{table[len(SCHEME) :]}/{name}"
        if key not in _KNOWN:
            when = at if isinstance(at, datetime) else datetime.fromtimestamp(at / 1000, UTC)
            _KNOWN[key] = {"name": key, "size": size, "type": "file", "mtime": when}


def _unchanging(path: str) -> bool:
    """A table's data file (its log's files are written again under the same name)."""
    return "/tables/" in path and path.endswith(".parquet") and "/_delta_log/" not in path


def write_whole(path: Place, data: bytes) -> None:
    """`data` as the file `path`, in place of the one before: readers see the old file or
    the new one whole (a scratch file renamed; an object on S3 is written whole)."""
    if isinstance(path, S3Path):
        path.write_bytes(data)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_name(f".{path.name}")
    scratch.write_bytes(data)
    os.replace(scratch, path)


# Where the dashboards' server keeps the files of a warehouse on S3 that only it works on (the
# uploads under way, the table recorder's drafts): a folder on its own machine, one a warehouse.
SPOOL = Path(os.environ.get("SQUIRE_SPOOL", Path(__file__).resolve().parents[2] / "data" / "spool"))


def spool(db: Place) -> Path:
    """The local folder of this machine's files of the warehouse `db` (the warehouse's own
    folder, where it is one)."""
    if isinstance(db, S3Path):
        return SPOOL / db.key
    return db


def listed(folder: Place, pattern: str) -> list[Place]:
    """What `folder.glob(pattern)` finds, in order of name, on either kind of place."""
    found: list[Place] = []
    if isinstance(folder, S3Path):  # apart, so that each glob keeps its own type
        found.extend(folder.glob(pattern))
    else:
        found.extend(folder.glob(pattern))
    return sorted(found, key=str)
