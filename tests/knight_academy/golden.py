"""Knight Academy's golden playthroughs.

Regenerate on purpose:  python -m tests.knight_academy.golden"""

from __future__ import annotations

from pathlib import Path

from tests.golden import write_all

from .support import LOGS

GOLDEN = Path(__file__).parent / "golden"

if __name__ == "__main__":
    write_all(LOGS, GOLDEN)
