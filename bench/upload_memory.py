"""Memory of the heaviest upload the page accepts: 100 files and 64 MiB, among them every
hostile log of the test suite (decompression bombs of a gigabyte, deep nesting, cut gzip),
three 16 MiB logs of 100,000 lines, and Knight Academy matches of 6,000 events under the widest
rules the ranges allow; the rest bundled samples. Prints the peak resident memory of the
worker that ingests it and how much the calling process (the dashboards') grew.

    python bench/upload_memory.py
"""

from __future__ import annotations

import io
import resource
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ingest.club.access import Who  # noqa: E402
from ingest.pipeline.upload import UPLOAD_BYTES, UPLOAD_FILES, Upload, ingest_uploads  # noqa: E402
from ingest.simulation.simulate import Spec, simulate_chunk, tasks  # noqa: E402
from replay.limits import MAX_LINES, MAX_LOG_BYTES  # noqa: E402
from tests.attacks import attacks, lines_of, text  # noqa: E402

MiB = 2**20


def widest_matches(count: int) -> list[bytes]:
    """Knight Academy at 5 seats, 30 rounds of 20-card hands from a deck of 1,200 cards."""
    deck = {
        f"{kind}-{value}": 20
        for kind in ("sword", "courage", "education", "king", "charity", "quest")
        for value in range(1, 11)
    }
    spec = Spec(
        game="knight-academy",
        players=5,
        bots=("greedy", "random"),
        seed=1,
        rules={
            "rounds": 30,
            "hand_size": 20,
            "plays_per_round": 20,
            "pass_directions": [1, -1] * 15,
            "deck": deck,
        },
    )
    return [written.data for task in tasks(spec, count, 1) for written in simulate_chunk(task)]


def longest_log() -> bytes:
    """A header and as many lines as a log may have, as long as the size limit allows."""
    header = lines_of(ROOT / "tests/knight_academy/logs/ka-example-3p.jsonl", "longest")[0]
    width = (MAX_LOG_BYTES - len(header) - 1) // (MAX_LINES - 1) - 1  # and its newline
    start, end = '{"kind": "pick", "player": "Ann", "zz": "', '"}'
    line = start + "a" * (width - len(start) - len(end)) + end
    return text([header, *[line] * (MAX_LINES - 1)])


def resident() -> int:
    """This process's resident bytes now."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def main() -> None:
    files = [(name, data) for name, (data, _, _) in attacks().items()]
    files += [(f"longest-{i}.jsonl", longest_log()) for i in range(3)]
    files += [(f"widest-{i}.jsonl.gz", data) for i, data in enumerate(widest_matches(3))]
    samples = sorted((ROOT / "data" / "samples").glob("*/*.jsonl*"))
    files += [(p.name, p.read_bytes()) for p in samples[: UPLOAD_FILES - len(files)]]
    upload = Upload([(name, len(data)) for name, data in files])
    assert upload.refusal() is None, upload.refusal()
    total = sum(len(data) for _, data in files)
    print(
        f"upload: {len(files)} files, {total / MiB:.1f} MiB "
        f"(limits {UPLOAD_FILES} files, {UPLOAD_BYTES / MiB:.0f} MiB)"
    )
    before = resident()
    with tempfile.TemporaryDirectory() as folder:
        report = ingest_uploads(
            [(name, io.BytesIO(data)) for name, data in files],
            Path(folder) / "wh",
            Who(None, "admin", "local"),
        )
    worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    grown = resident() - before
    rules = Counter(r.rule for r in report.rejects)
    print(
        f"{report.ingested} ingested, {len(report.rejects)} rejected ("
        + ", ".join(f"{rule} {n}" for rule, n in sorted(rules.items()))
        + ")"
        + (f", error: {report.error}" if report.error else "")
    )
    print(f"worker peak resident memory: {worker / 1024:.0f} MiB")
    print(f"calling process grew by: {grown / MiB:.0f} MiB (besides the uploaded bytes it holds)")


if __name__ == "__main__":
    main()
