"""Decoding plus replay of Knight Academy logs, in events per second on one core.

    python bench/replay_knight_academy.py [LOG_FOLDER]

Without a folder it replays the worked example logs many times over. Prints msgspec's
decode-only rate beside it, for scale; each figure is the best of five runs.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import msgspec
from timing import best_of  # bench/timing.py, beside this script

from ingest.read import find_logs, read_log
from replay.games.knight_academy import Event
from replay.log import Final, numbered_lines
from replay.replayer import open_log, replay

HERE = Path(__file__).resolve().parent.parent


def main() -> None:
    if len(sys.argv) > 1:
        blobs = [read_log(p) for p in find_logs(sys.argv[1:])]
    else:
        examples = HERE / "tests" / "knight_academy" / "logs"
        blobs = [read_log(p) for p in find_logs([str(examples)])] * 200
    gc.freeze()
    events = sum(len(list(numbered_lines(b))) - 1 for b in blobs)

    decoder = msgspec.json.Decoder(Event | Final)

    def decode_all() -> None:
        for blob in blobs:
            for _, line in list(numbered_lines(blob))[1:]:
                decoder.decode(line)

    def replay_all() -> None:
        for i, blob in enumerate(blobs):
            replay(open_log(blob, f"log-{i}"), keep_steps=False)

    decode_only = best_of(decode_all, 5)
    full = best_of(replay_all, 5)

    print(f"logs: {len(blobs)}, events: {events}")
    print(f"decode only:     {events / decode_only:12,.0f} events/s")
    print(f"decode + replay: {events / full:12,.0f} events/s  ({len(blobs) / full:,.0f} logs/s)")


if __name__ == "__main__":
    main()
