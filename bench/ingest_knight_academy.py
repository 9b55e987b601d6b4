"""End-to-end ingest (files on disk to committed rows) of simulated Knight Academy matches:
matches per second and the peak memory of the whole process tree (the ingest and its
workers), sampled every 100 ms: the sum of their resident sizes, and (every 500 ms) of their
proportional ones, which count once the pages the workers share with the fork server; and
what the ingest spends after its last commit.

    python bench/ingest_knight_academy.py [-n 20000] [--jobs 2] [--logs FOLDER] [--db W]
    python bench/ingest_knight_academy.py --s3 [-n 20000]

The logs are simulated once into FOLDER (default: a folder in the temp dir) and reused. They
go into the warehouse W, which must not exist yet (default: a new folder in the temp dir).
`--s3` ingests into a warehouse on a local S3 server instead (moto's, `moto[server]`, started
as a process of its own, whose memory is not counted), as `--db s3://…` would.
"""

from __future__ import annotations

import argparse
import atexit
import itertools
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PAGE = os.sysconf("SC_PAGE_SIZE")

# `squire ingest` as the console script runs it, with the moment its last batch was committed
# noted: what follows (the workers stopped, the ratings, the fit, a compaction) is the ingest's
# tail, written in seconds to the file named first.
TIMED = """
import sys, time
from ingest.pipeline import pipeline
out, sys.argv = sys.argv[1], ["squire", *sys.argv[2:]]
commit = pipeline._stage_and_commit
def timed(*args, **kwargs):
    try:
        return commit(*args, **kwargs)
    finally:
        global last
        last = time.perf_counter()
pipeline._stage_and_commit = timed
from ingest.cli import main
try:
    main()
finally:
    open(out, "w").write(str(time.perf_counter() - last))
"""


def tree(root: int) -> dict[int, int]:
    """Resident bytes of `root` and each of its descendants, by pid, from /proc/*/stat alone
    (parent and resident pages are both there): cheap enough not to slow the ingest it
    watches."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry)
        parents[pid] = int(fields[1])
        rss[pid] = int(fields[21]) * PAGE
    out = {}
    for pid, resident in rss.items():
        walk = pid
        while walk and walk != root:
            walk = parents.get(walk, 0)
        if walk == root:
            out[pid] = resident
    return out


def proportional(pids: list[int]) -> int:
    """The processes' proportional set sizes, summed: a page shared by k of them counts 1/k
    in each, as the workers share what they inherit from the fork server."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                total += next(int(line.split()[1]) for line in f if line.startswith("Pss:"))
        except (OSError, StopIteration):
            continue
    return total * 1024


def s3_server() -> tuple[subprocess.Popen[bytes], str]:
    """moto's S3 server on a free port, this process's AWS_* variables (which the ingest
    inherits) pointing at it, and a warehouse's address in a new bucket."""
    import socket

    import boto3

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "moto.server", "-p", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    atexit.register(server.terminate)  # however the bench ends
    os.environ.update(AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench",
                      AWS_REGION="us-east-1", AWS_ENDPOINT_URL=f"http://127.0.0.1:{port}",
                      AWS_ALLOW_HTTP="true")  # fmt: skip
    for _ in range(100):
        try:
            boto3.client("s3").create_bucket(Bucket="bench")
            break
        except Exception:  # not listening yet
            time.sleep(0.1)
    return server, "s3://bench/warehouse"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("-n", type=int, default=20_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--logs", default=str(Path(tempfile.gettempdir()) / "squire-bench-ka"))
    parser.add_argument("--db", help="a warehouse that does not exist yet (default: a new one)")
    parser.add_argument("--s3", action="store_true", help="into a local S3 server's warehouse")
    args = parser.parse_args()
    server = s3_server() if args.s3 else None
    if server is not None:
        args.db = server[1]
    logs = Path(args.logs) / str(args.n)
    squire = [sys.executable, "-m", "ingest.cli"]
    if not logs.exists() or len(list(logs.iterdir())) < args.n:
        print(f"simulating {args.n} matches into {logs} ...", file=sys.stderr)
        subprocess.run(
            [
                *squire,
                "simulate",
                "knight-academy",
                "-n",
                str(args.n),
                "--seed",
                "5",
                "--out",
                str(logs),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    with tempfile.TemporaryDirectory() as folder:
        db = args.db or str(Path(folder) / "warehouse")
        if args.db and not args.s3 and Path(args.db).exists():
            sys.exit(f"{args.db} exists: the ingest is measured into a new warehouse")
        started = time.perf_counter()
        tail = Path(folder) / "tail"
        proc = subprocess.Popen(
            [sys.executable, "-c", TIMED, str(tail), "ingest", str(logs), "--db", str(db),
             "--jobs", str(args.jobs)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        peak = peak_shared = 0
        for sample in itertools.count():
            if proc.poll() is not None:
                break
            resident = tree(proc.pid)
            peak = max(peak, sum(resident.values()))
            if sample % 5 == 0:  # smaps costs the kernel more than stat: every 0.5 s
                peak_shared = max(peak_shared, proportional(list(resident)))
            time.sleep(0.1)
        seconds = time.perf_counter() - started
        out = proc.stdout.read().decode() if proc.stdout else ""
        after = float(tail.read_text()) if tail.exists() else float("nan")
    if server is not None:
        # the server's own CPU time, spent on the same two cores as the ingest
        with open(f"/proc/{server[0].pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        busy = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        server[0].terminate()
    print(out.strip().splitlines()[0] if out.strip() else "(no summary)")
    print(
        f"end to end: {args.n / seconds:,.0f} matches/s with {args.jobs} jobs "
        f"({seconds:.1f} s for {args.n} matches)"
    )
    print(
        f"after the last commit: {after:.2f} s ({after / seconds:.1%} of the ingest): the workers "
        "stopped, the ratings, the model's fit and any compaction"
    )
    print(
        f"peak memory of the process tree: {peak / 2**20:,.0f} MiB resident, "
        f"{peak_shared / 2**20:,.0f} MiB with shared pages counted once"
    )
    if server is not None:
        print(f"the S3 server's CPU time: {busy:.1f} s")


if __name__ == "__main__":
    main()
