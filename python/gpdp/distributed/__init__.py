"""gpdp.distributed: run gpdp's experiments as task lists on a Dask cluster, a process pool or any
concurrent.futures.Executor (docs/scale.md).

    python -m gpdp.distributed reproduce table1 --quick --scheduler local:4 --out DIR

A task is plain data, (kind, params as JSON text); a worker runs it with gpdp._core.run_task and
returns CBOR bytes. The coordinator (this process) runs the same C++ driver as the `gpdp` CLI,
which hands each phase's task list to map_tasks and reduces the results in task order, so the
files written are those of the CLI, whatever the number of workers.

Dask (`pip install "dask[distributed]"`) is needed only for --scheduler local:N and tcp://.
"""

from .scheduler import TaskStats, map_tasks, open_executor, run_one, worker_count

__all__ = ["TaskStats", "map_tasks", "open_executor", "run_one", "worker_count"]
