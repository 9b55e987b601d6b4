"""squire on a real Dask cluster, started as an operator would: the `dask scheduler` and two
`dask worker` programs, each a process of its own. Simulation and ingest give what a local
run gives; a worker killed in the middle of an ingest costs nothing and stores nothing twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ingest.cli import main
from ingest.warehouse import store
from ingest.warehouse.warehouse import SCHEMA, open_reader
from tests.s3 import new_bucket

DASK = Path(sys.executable).with_name("dask")
if not DASK.exists():
    pytest.skip("the dask command-line program is not installed", allow_module_level=True)

ROOT = Path(__file__).resolve().parents[3]
QUIET = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}


class Cluster:
    def __init__(self, folder: Path) -> None:
        self.file = folder / "scheduler.json"
        self.scheduler = subprocess.Popen(
            [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(self.file)],
            **QUIET,
        )  # fmt: skip
        self.workers: dict[str, subprocess.Popen[bytes]] = {}
        deadline = time.monotonic() + 60
        while not self.file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        self.address = json.loads(self.file.read_text())["address"]
        for name in ("w1", "w2"):
            self.start_worker(name)
        self.wait_for(2)

    def start_worker(self, name: str) -> None:
        # no nanny: the worker is the process itself, so a kill is a worker's death
        self.workers[name] = subprocess.Popen(
            [str(DASK), "worker", "--scheduler-file", str(self.file), "--name", name,
             "--nthreads", "1", "--no-nanny", "--no-dashboard", "--memory-limit", "0"],
            **QUIET,
        )  # fmt: skip

    def wait_for(self, count: int) -> None:
        from distributed import Client

        with Client(self.address, timeout=30) as client:
            client.wait_for_workers(count, timeout=60)

    def kill(self, name: str) -> None:
        os.kill(self.workers[name].pid, signal.SIGKILL)
        self.workers[name].wait()

    def close(self) -> None:
        for proc in [*self.workers.values(), self.scheduler]:
            if proc.poll() is None:
                proc.terminate()
        for proc in [*self.workers.values(), self.scheduler]:
            try:
                proc.wait(timeout=2)  # a worker busy closing its comms: killed
            except subprocess.TimeoutExpired:
                proc.kill()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    running = Cluster(tmp_path_factory.mktemp("cluster"))
    yield running
    running.close()


def digest(db: Path, aside: str = "ingested_at") -> dict[str, tuple[int, int | None]]:
    """Each table's rows, as an order-free hash; `games`' columns `aside` left out (when they
    were ingested)."""
    con = open_reader(db)
    out = {}
    for table in SCHEMA:
        rows = f"(SELECT * EXCLUDE ({aside}) FROM {table})" if table == "games" else table
        (row,) = con.execute(f"SELECT count(*), bit_xor(hash(x)) FROM {rows} x").fetchall()
        out[table] = (row[0], row[1])
    return out


def test_simulate_and_ingest_on_the_cluster_give_what_a_local_run_gives(cluster, tmp_path):
    simulate = ["simulate", "heraldry", "-n", "60", "--players", "3", "--seed", "5"]
    assert main([*simulate, "--cluster", cluster.address, "--out", str(tmp_path / "c")]) == 0
    assert main([*simulate, "--jobs", "1", "--out", str(tmp_path / "l")]) == 0
    made = sorted(p.name for p in (tmp_path / "c").iterdir())
    assert len(made) == 60 and made == sorted(p.name for p in (tmp_path / "l").iterdir())
    for name in made:
        assert (tmp_path / "c" / name).read_bytes() == (tmp_path / "l" / name).read_bytes()
    logs = str(tmp_path / "c")
    assert main(["ingest", logs, "--cluster", cluster.address, "--db", str(tmp_path / "dw")]) == 0
    assert main(["ingest", logs, "--jobs", "1", "--db", str(tmp_path / "lw")]) == 0
    assert digest(tmp_path / "dw") == digest(tmp_path / "lw")


def _committed(db: Path) -> bool:
    return store.exists(db) and store.snapshot(db).version > 0


def test_a_worker_killed_mid_ingest_costs_nothing_and_stores_nothing_twice(cluster, tmp_path):
    logs = tmp_path / "logs"
    assert main(["simulate", "knight-academy", "-n", "600", "--seed", "6", "--jobs", "2",
                 "--out", str(logs)]) == 0  # fmt: skip
    db = tmp_path / "dw"
    ingest = subprocess.Popen(
        [sys.executable, "-m", "ingest.cli", "ingest", str(logs), "--cluster", cluster.address,
         "--db", str(db)],
        **QUIET,
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while not _committed(db) and ingest.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert ingest.poll() is None, "the kill should land while the ingest is at work"
    cluster.kill("w1")  # with tasks of its own in hand
    assert ingest.wait(timeout=600) == 0
    cluster.start_worker("w1")  # for whatever test comes next
    local = tmp_path / "lw"
    assert main(["ingest", str(logs), "--jobs", "2", "--db", str(local)]) == 0
    assert digest(db) == digest(local)
    con = open_reader(db)
    assert con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchall() == [
        (600, 600)
    ]


def test_an_ingest_into_s3_needs_no_folder_the_workers_share_and_survives_kills(
    cluster, endpoint, tmp_path
):
    """The workers see neither the logs nor a warehouse folder: the logs are named relative to
    a folder of the ingest's own, and the workers were started without the server's settings,
    which the tasks carry with the logs' bytes. A worker killed mid-way, then the ingest itself
    (holding the lock on S3), and the ingest run again: every match stored once."""
    client = tmp_path / "client"
    assert main(["simulate", "knight-academy", "-n", "1200", "--seed", "8", "--jobs", "2",
                 "--out", str(client / "logs")]) == 0  # fmt: skip
    (client / "logs" / "broken.jsonl").write_text("{not json\n")
    db = new_bucket()
    command = [sys.executable, "-m", "ingest.cli", "ingest", "logs", "--cluster",
               cluster.address, "--db", str(db)]  # fmt: skip
    # commits as often as on a folder, for a commit after the worker's death and before the end
    env = dict(os.environ, PYTHONPATH=str(ROOT), SQUIRE_COMMIT_SECONDS="2")
    ingest = subprocess.Popen(command, cwd=client, env=env, **QUIET)
    deadline = time.monotonic() + 300
    while not _committed(db) and ingest.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ingest.poll() is None, "the kill should land while the ingest is at work"
    cluster.kill("w1")  # with tasks of its own in hand
    first = store.snapshot(db).version
    while store.snapshot(db).version == first and ingest.poll() is None:
        time.sleep(0.05)  # a commit more, made without the killed worker
    assert ingest.poll() is None, "the kill should land while the ingest is at work"
    os.kill(ingest.pid, signal.SIGKILL)
    ingest.wait()
    cluster.start_worker("w1")  # for the ingest again and whatever test comes next
    cluster.wait_for(2)
    stored = open_reader(db).execute("SELECT count(*) FROM games").fetchone()[0]
    assert 0 < stored < 1200
    again = subprocess.run(command, cwd=client, env=env, timeout=600, **QUIET)
    assert again.returncode == 1  # the broken log is rejected, the rest stored
    local = tmp_path / "lw"
    assert main(["ingest", str(client / "logs"), "--jobs", "2", "--db", str(local)]) == 1
    # the paths as each ingest was given them (relative here), and when: compared below
    aside = "ingested_at, path"
    assert {t: d for t, d in digest(db, aside).items() if t != "rejects"} == {
        t: d for t, d in digest(local, aside).items() if t != "rejects"
    }
    con = open_reader(db)
    assert con.execute("SELECT count(*), count(DISTINCT game_id) FROM games").fetchall() == [
        (1200, 1200)
    ]
    assert con.execute("SELECT DISTINCT path, line, rule FROM rejects").fetchall() == [
        ("logs/broken.jsonl", 1, "LOG-1")
    ]


def test_a_move_analysis_on_the_cluster_is_the_one_a_local_process_makes(cluster, tmp_path, capsys):
    sample = Path(__file__).parents[3] / "data/samples/knight-academy/ka-0bbef6a9-000012.jsonl.gz"
    db = tmp_path / "warehouse"
    assert main(["ingest", str(sample), "--db", str(db), "--jobs", "1"]) == 0
    capsys.readouterr()
    args = ["review", "ka-0bbef6a9-000012", "--db", str(db), "--analyse", "--samples", "2",
            "--policy", "random", "--json"]  # fmt: skip
    assert main([*args, "--cluster", cluster.address]) == 0
    spread = json.loads(capsys.readouterr().out)
    assert main([*args, "--jobs", "1"]) == 0
    alone = json.loads(capsys.readouterr().out)
    assert spread == alone and len(alone["decisions"]) > 150


def test_the_cluster_is_handed_its_tasks_as_its_workers_take_them(cluster):
    """Two tasks a worker ahead, as local processes are: an ingest into S3 carries its logs'
    bytes in its tasks, which all sent at once would all be held at once."""
    from ingest.pipeline.executor import DaskCluster

    taken = []

    def tasks():
        for n in range(20):
            taken.append(n)
            yield n

    executor = DaskCluster(cluster.address)
    try:
        results = executor.map_unordered(abs, tasks())
        first = next(results)
        assert len(taken) <= 2 * 2 + 1  # two workers, two each, and the one sent for first
        assert sorted([first, *results]) == list(range(20))
    finally:
        executor.close()
