"""Taps per event on the Record page: every bundled sample entered again through the page's
entry model, button by button, as a scribe at the table would.

    python bench/record_taps.py [GAME ...]

Each sample must come out byte for byte the same; the taps counted are the buttons pressed,
hand-overs of the device included (a seat's secret entry). The page offers the same buttons
at every width, so the figure holds for a phone (390 px) as for a laptop (1400 px).
"""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
# bench/dashboards.py, beside this script, would stand for the dashboards package
sys.path.insert(0, str(HERE))

from dashboards.record.scribe import enter_log  # noqa: E402
from ingest.files.catalogues import Library  # noqa: E402
from ingest.files.read import find_logs, read_log  # noqa: E402
from replay.registry import GAMES  # noqa: E402

BUDGET = {"knight-academy": 2, "albus-academy": 2, "heraldry": 3, "paladins": 3}


def main() -> None:
    logging.getLogger("streamlit").setLevel(logging.ERROR)
    games = sys.argv[1:] or list(GAMES)
    library = Library()
    print(
        f"{'game':<16}{'logs':>6}{'events':>9}{'taps':>9}{'hand-overs':>12}"
        f"{'taps/event':>12}{'budget':>8}{'seconds':>9}"
    )
    for name in games:
        started = time.perf_counter()
        logs = events = taps = handovers = 0
        for path in find_logs([str(HERE / "data" / "samples" / name)]):
            data = read_log(path)
            entered = enter_log(data, library, str(path))
            if entered.entry.log() != data:
                sys.exit(f"{path}: entered again, the log differs")
            logs += 1
            events += entered.events
            taps += entered.taps
            handovers += entered.handovers
        took = time.perf_counter() - started
        print(
            f"{name:<16}{logs:>6}{events:>9}{taps:>9}{handovers:>12}"
            f"{taps / events:>12.2f}{BUDGET.get(name, 0):>8}{took:>9.1f}"
        )


if __name__ == "__main__":
    main()
