"""Memory a long ingest gives back to the system once a step is done with it."""

from __future__ import annotations

import contextlib
import ctypes

import pyarrow as pa


def return_freed() -> None:
    """Give back what the process has freed but its allocators keep for reuse: Arrow's pool,
    then glibc's heap. Loading the index of a million stored matches leaves 70 MB of it
    (measured), and rating them some hundreds, held otherwise to the ingest's end."""
    pa.default_memory_pool().release_unused()
    with contextlib.suppress(OSError, AttributeError):  # not glibc: left as it is
        ctypes.CDLL("libc.so.6").malloc_trim(0)
