"""Worker processes that end with the process they work for, however it ends.

A process pool's workers are forked by multiprocessing's fork server and hold both ends of
the pool's pipes, and the fork server stays while any worker holds its "alive" pipe: when
the main process is killed (kill -9, or SIGTERM, whose default is to die at once) nothing
tells them, and they wait on their queue for ever. The same goes for the upload's worker
when the dashboards' server stops. So each worker watches the process it works for itself:
a thread blocks on a pidfd of that process (it becomes readable when the process ends,
and a pidfd never names a later process that reuses the number), and ends the worker then.
"""

from __future__ import annotations

import os
import select
import threading
import time

POLL_SECONDS = 0.5  # where pidfd_open is missing (Linux before 5.3): how often to look


def die_with(pid: int) -> None:
    """End this process as soon as process `pid` has ended (at once if it already has).

    Called first thing in a worker. What the worker had under way is dropped unfinished:
    a batch's files are part of the warehouse only once the writer commits them and pins
    them (ingest.warehouse.store), so nothing half-written is ever read."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        os._exit(1)
    except (AttributeError, OSError):  # no pidfd here: look at the process now and then
        threading.Thread(target=_poll, args=(pid,), daemon=True, name="lifeline").start()
        return
    threading.Thread(target=_wait, args=(fd,), daemon=True, name="lifeline").start()


def _wait(fd: int) -> None:
    select.select([fd], [], [])  # readable once the process has ended
    os._exit(1)  # from a thread too, _exit ends the whole process


def _poll(pid: int) -> None:
    while _alive(pid):
        time.sleep(POLL_SECONDS)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, and someone else's
        return True
    return True
