"""gpdp.distributed's scheduler: map_tasks returns results in task order on a process pool and on
a Dask LocalCluster, equal byte for byte to the task run in this process; clear errors for a bad
--scheduler and for a missing Dask."""

import json
import sys

import pytest

from gpdp import _core
from gpdp.distributed import TaskStats, map_tasks, open_executor


def normals_tasks(count, seed=17):
    return [
        ("rng.normals", json.dumps({"seed": seed, "index": i, "count": 4})) for i in range(count)
    ]


def test_run_task_is_deterministic_and_refuses_unknown_kinds():
    kind, params = normals_tasks(1)[0]
    assert _core.run_task(kind, params) == _core.run_task(kind, params)
    assert "rng.normals" in _core.task_kinds()
    with pytest.raises(_core.InputError, match="unknown task kind 'rng.typo'"):
        _core.run_task("rng.typo", params)


@pytest.mark.parametrize("scheduler", ["processes:2", "local:2"])
def test_map_tasks_returns_task_order(scheduler):
    if scheduler.startswith("local"):
        pytest.importorskip("dask.distributed")
    tasks = normals_tasks(12)
    expected = [_core.run_task(kind, params) for kind, params in tasks]
    assert len(set(expected)) == len(expected)  # each task its own stream
    seen = []
    stats = TaskStats()
    with open_executor(scheduler) as executor:
        got = map_tasks(executor, tasks, progress=lambda *a: seen.append(a), stats=stats)
    assert got == expected
    assert [done for done, *_ in seen] == list(range(1, 13))
    assert len(stats.seconds["rng.normals"]) == 12
    assert all(c >= 0 for c in stats.cpu_seconds["rng.normals"])


def test_bad_scheduler_specs_are_refused():
    for spec in ["local:0", "processes:x", "slurm:4"]:
        with pytest.raises(ValueError, match="--scheduler"):
            with open_executor(spec):
                pass


def test_missing_dask_is_named(monkeypatch):
    monkeypatch.setitem(sys.modules, "dask.distributed", None)  # import raises ImportError
    with pytest.raises(RuntimeError, match=r"pip install \"dask\[distributed\]\""):
        with open_executor("local:2"):
            pass
