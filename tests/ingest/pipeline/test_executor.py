"""The one executor interface: in process, local processes, and a real (local) Dask cluster."""

from __future__ import annotations

import pytest

from ingest.cli import main
from ingest.pipeline.executor import InProcess, LocalProcesses, chunked, make_executor


def _square(x: int) -> int:
    return x * x


def test_chunks_cover_every_item_once_and_stay_bounded():
    for count in (0, 1, 7, 1000, 20_001):
        for jobs in (1, 2, 3):
            ranges = chunked(count, jobs=jobs, largest=500)
            assert [i for a, b in ranges for i in range(a, b)] == list(range(count))
            assert all(0 < b - a <= 500 for a, b in ranges)


def test_the_last_chunks_are_smaller_so_no_worker_waits_long_for_the_others():
    sizes = [b - a for a, b in chunked(20_000, jobs=2, largest=500)]
    assert sizes[0] == 500 and sizes[-8:] == [125] * 8
    assert {b - a for a, b in chunked(2_000, jobs=1, largest=500)} == {500}  # none waits


def test_an_ingest_of_a_few_logs_with_no_jobs_given_stays_in_its_own_process(tmp_path, monkeypatch):
    """A pool of workers is dearer to start than a few logs are to replay; a number of jobs
    given, or logs enough, still gets the pool."""
    from pathlib import Path

    from ingest.pipeline import pipeline

    made: list[int | None] = []

    def recorded(jobs=None, cluster=None, preload=()):
        made.append(jobs)
        return InProcess()

    monkeypatch.setattr(pipeline, "make_executor", recorded)
    logs = Path(__file__).parents[2] / "knight_academy" / "logs"
    count = len(list(logs.iterdir()))
    assert 0 < count < pipeline.FEW_LOGS
    pipeline.ingest([logs], db=tmp_path / "a")
    pipeline.ingest([logs], db=tmp_path / "b", jobs=2)
    monkeypatch.setattr(pipeline, "FEW_LOGS", count)
    pipeline.ingest([logs], db=tmp_path / "c")
    assert made == [1, 2, None]  # None: every core


def test_local_executors_return_every_result():
    assert isinstance(make_executor(1), InProcess)
    executor = make_executor(2)
    assert isinstance(executor, LocalProcesses)
    try:
        assert sorted(executor.map_unordered(_square, list(range(50)))) == [
            x * x for x in range(50)
        ]
    finally:
        executor.close()


def test_closing_local_workers_stops_their_fork_server_and_a_later_pool_starts_it_again():
    from multiprocessing import forkserver

    for _ in range(2):
        executor = make_executor(2)
        assert sorted(executor.map_unordered(_square, [1, 2, 3])) == [1, 4, 9]
        assert forkserver._forkserver._forkserver_pid is not None  # the workers' server runs
        executor.close()
        assert forkserver._forkserver._forkserver_pid is None  # gone with the workers


def test_simulate_on_a_dask_cluster_writes_the_same_files_as_one_process(tmp_path):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        args = ["simulate", "knight-academy", "-n", "12", "--seed", "3", "--bots", "greedy,random"]
        assert (
            main([*args, "--cluster", cluster.scheduler_address, "--out", str(tmp_path / "dask")])
            == 0
        )
    assert main([*args, "--jobs", "1", "--out", str(tmp_path / "local")]) == 0
    dask_files = {p.name: p.read_bytes() for p in (tmp_path / "dask").iterdir()}
    local_files = {p.name: p.read_bytes() for p in (tmp_path / "local").iterdir()}
    assert len(dask_files) == 12 and dask_files == local_files


def test_an_experiment_on_a_dask_cluster_gives_the_result_of_one_process(tmp_path, capsys):
    import json

    distributed = pytest.importorskip("distributed")
    args = [
        *("experiment", "knight-academy", "--metric", "margin", "--bots", "greedy,random"),
        *("--a", "quest_prizes=[17,10,4]", "--b", "quest_prizes=[30,10,4]"),
        *("--max", "16", "--batch", "8", "--json"),
    ]
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        code = main([*args, "--cluster", cluster.scheduler_address, "--db", str(tmp_path / "dask")])
        assert code == 0
    on_dask = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert main([*args, "--jobs", "1", "--db", str(tmp_path / "local")]) == 0
    local = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert {k: v for k, v in on_dask.items() if k != "stored_in"} == {
        k: v for k, v in local.items() if k != "stored_in"
    }
    assert on_dask["matches"] == 16
