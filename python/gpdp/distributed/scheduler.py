"""Executors for gpdp task lists and map_tasks, which runs a list on one of them.

open_executor(spec) understands
    local:N         a dask.distributed LocalCluster of N worker processes (1 thread each)
    tcp://HOST:PORT an existing Dask scheduler (dask-scheduler, dask-jobqueue's SLURMCluster, ...)
    processes:N     a concurrent.futures.ProcessPoolExecutor of N processes (no Dask needed)
and yields a concurrent.futures.Executor; any other Executor (mpi4py's MPIPoolExecutor, ...)
can be passed to map_tasks directly. Workers run BLAS on one thread (OMP_NUM_THREADS,
OPENBLAS_NUM_THREADS=1 in their environment): the parallelism is across tasks.
"""

import concurrent.futures
import contextlib
import dataclasses
import multiprocessing
import os
import sys
import time

# Environment of every worker process: one BLAS thread per worker.
WORKER_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def run_one(kind, params):
    """What a worker runs: one task -> (CBOR bytes of its result, (wall, CPU) seconds it took).
    The CPU seconds (the worker's, BLAS on one thread) are the task's cost even on a machine
    where the workers share cores with other work."""
    from gpdp import _core  # imported in the worker

    wall, cpu = time.perf_counter(), time.process_time()
    result = _core.run_task(kind, params)
    return result, (time.perf_counter() - wall, time.process_time() - cpu)


def _dask():
    try:
        import dask.distributed
    except ImportError as e:
        raise RuntimeError(
            "--scheduler local:N and tcp://HOST:PORT need Dask's distributed scheduler, which is "
            'not installed: pip install "dask[distributed]" (or use --scheduler processes:N)'
        ) from e
    return dask.distributed


def _count(spec, value):
    try:
        n = int(value)
    except ValueError:
        n = 0
    if n < 1:
        raise ValueError(f"--scheduler {spec}: the number of workers must be a positive integer")
    return n


@contextlib.contextmanager
def _environment(values):
    saved = {k: os.environ.get(k) for k in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@contextlib.contextmanager
def open_executor(spec):
    """The executor named by --scheduler SPEC (see the module's docstring), closed on exit."""
    kind, _, value = spec.partition(":")
    if spec.startswith("tcp://"):
        with _dask().Client(spec) as client:
            yield client.get_executor(pure=False)
    elif kind == "local":
        distributed = _dask()
        n = _count(spec, value)
        with distributed.LocalCluster(
            n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
            env=WORKER_ENV,
        ) as cluster, distributed.Client(cluster) as client:
            yield client.get_executor(pure=False)
    elif kind == "processes":
        n = _count(spec, value)
        # Spawned (not forked) workers start with WORKER_ENV, before their BLAS initialises.
        with _environment(WORKER_ENV), concurrent.futures.ProcessPoolExecutor(
            n, mp_context=multiprocessing.get_context("spawn")
        ) as pool:
            yield pool
    else:
        raise ValueError(
            f"--scheduler {spec}: expected local:N, tcp://HOST:PORT or processes:N"
        )


def worker_count(spec, executor):
    """The number of workers behind --scheduler SPEC (task lists are sized for it)."""
    kind, _, value = spec.partition(":")
    if kind in ("local", "processes"):
        return _count(spec, value)
    client = getattr(executor, "_client", None)  # a Dask ClientExecutor
    if client is not None:
        return max(1, sum(client.nthreads().values()))
    return 1


@dataclasses.dataclass
class TaskStats:
    """Wall and CPU seconds of each finished task on its worker, by kind (for benchmarks and
    projections)."""

    seconds: dict = dataclasses.field(default_factory=dict)
    cpu_seconds: dict = dataclasses.field(default_factory=dict)

    def add(self, kind, seconds, cpu_seconds):
        self.seconds.setdefault(kind, []).append(seconds)
        self.cpu_seconds.setdefault(kind, []).append(cpu_seconds)


def print_progress(done, total, kind, seconds):
    """The default per-task progress: one line per finished task on stderr."""
    print(f"  task {done}/{total} ({kind}) done in {seconds:.2f} s", file=sys.stderr, flush=True)


def _dask_futures(client, tasks):
    """Submits tasks to a Dask client with a worker hint: task k prefers worker k mod W (sorted
    addresses). A driver's successive lists cover the same chunks in the same order, so a chunk
    tends to return to the worker that kept its state (utility.search replays it otherwise). The
    hint is loose (allow_other_workers): a lost or busy worker's tasks run elsewhere."""
    workers = sorted(client.scheduler_info()["workers"])
    futures = {}
    for k, (kind, params) in enumerate(tasks):
        hint = {"workers": [workers[k % len(workers)]], "allow_other_workers": True} if workers else {}
        futures[client.submit(run_one, kind, params, pure=False, **hint)] = k
    return futures, _dask().as_completed(futures)


def map_tasks(executor, tasks, progress=print_progress, stats=None):
    """Runs tasks = [(kind, params JSON text)] on `executor`; returns their CBOR results in task
    order. progress(done, total, kind, seconds) is called as tasks finish (None: silent); stats (a
    TaskStats) collects the workers' seconds per task. On Dask, a task whose worker dies is
    rerun on another worker (the result is the same: a task depends only on its params)."""
    client = getattr(executor, "_client", None)  # a Dask ClientExecutor (open_executor)
    if client is not None:
        futures, finished = _dask_futures(client, tasks)
    else:
        futures = {executor.submit(run_one, kind, params): k for k, (kind, params) in enumerate(tasks)}
        finished = concurrent.futures.as_completed(futures)
    results = [None] * len(tasks)
    for done, future in enumerate(finished, start=1):
        k = futures[future]
        results[k], (seconds, cpu_seconds) = future.result()
        kind = tasks[k][0]
        if stats is not None:
            stats.add(kind, seconds, cpu_seconds)
        if progress is not None:
            progress(done, len(tasks), kind, seconds)
    return results
