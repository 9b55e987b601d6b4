"""Decoding plus replay of one game's logs, in events per second on one core.

    python bench/replay_speed.py GAME [LOG_FOLDER]      GAME: knight-academy, heraldry, …

Without a folder it replays the game's bundled sample matches. Prints msgspec's decode-only
rate beside it, for scale; each figure is the best of five runs.
"""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import msgspec
from timing import best_of  # bench/timing.py, beside this script

from ingest.files.catalogues import Library
from ingest.files.read import find_logs, read_log
from replay.log import Final, numbered_lines
from replay.registry import GAMES
from replay.replayer import open_log, replay

HERE = Path(__file__).resolve().parent.parent


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in GAMES:
        sys.exit(
            f"usage: python bench/replay_speed.py GAME [LOG_FOLDER]; GAME one of {', '.join(GAMES)}"
        )
    game = GAMES[sys.argv[1]]
    folders = sys.argv[2:] or [str(HERE / "data" / "samples" / game.name)]
    blobs = [read_log(p) for p in find_logs(folders)]
    gc.freeze()
    events = sum(len(list(numbered_lines(b))) - 1 for b in blobs)

    decoder = msgspec.json.Decoder(game.event_type | Final)

    def decode_all() -> None:
        for blob in blobs:
            for _, line in list(numbered_lines(blob))[1:]:
                decoder.decode(line)

    def replay_all() -> None:
        for i, blob in enumerate(blobs):
            replay(open_log(blob, f"log-{i}", catalogues=Library()), keep_steps=False)

    decode_only = best_of(decode_all, 5)
    full = best_of(replay_all, 5)

    print(f"{game.name}: {len(blobs)} logs, {events} events, one core")
    print(f"decode only:     {events / decode_only:12,.0f} events/s")
    print(f"decode + replay: {events / full:12,.0f} events/s  ({len(blobs) / full:,.0f} logs/s)")


if __name__ == "__main__":
    main()
