"""What the scale_*.py benchmarks share: their flags, one timed `reproduce` run through a Dask
LocalCluster with this process as coordinator, and the speed-up lines (docs/scale.md)."""

import argparse
import functools
import json
import pathlib
import tempfile
import time

from gpdp import _core
from gpdp.distributed import TaskStats, map_tasks, open_executor

PROJECTED_WORKERS = 64


def parse_args(description, default_pairs, out_prefix):
    """--pairs, --workers, --out (a temporary folder when not given, returned as a Path)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--pairs", type=int, default=default_pairs)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--out", default=None, help="folder for the outputs and the summary")
    args = parser.parse_args()
    args.out = pathlib.Path(args.out or tempfile.mkdtemp(prefix=out_prefix))
    return args


def timed_reproduce(target, workers, out, record=None, **options):
    """Runs `reproduce TARGET` on `workers` local worker processes, writing into `out`; returns
    (wall seconds, TaskStats). `options`: the request's (reproduce/command.hpp; data_dir for
    "data-dir"). `record(tasks)`, when given, sees every task list dispatched."""
    stats = TaskStats()

    def mapper(executor, tasks, **kw):
        if record is not None:
            record(tasks)
        return map_tasks(executor, tasks, **kw)

    out.mkdir(parents=True, exist_ok=True)
    with open_executor(f"local:{workers}") as executor:
        start = time.perf_counter()
        request = {"target": target, "out": str(out)}
        request.update({key.replace("_", "-"): value for key, value in options.items()})
        _core.reproduce(json.dumps(request),
                        functools.partial(mapper, executor, progress=None, stats=stats),
                        workers=workers)
        wall = time.perf_counter() - start
    return wall, stats


def print_speedups(wall_by_workers):
    """One line per worker count: the speed-up against the fewest workers of the same run."""
    base = min(wall_by_workers)
    for w, wall in sorted(wall_by_workers.items()):
        if w != base:
            print(f"speed-up {base} -> {w} workers: {wall_by_workers[base] / wall:.2f}x (same run)")
    return base
