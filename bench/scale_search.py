#!/usr/bin/env python3
"""The public search's rounds as tasks on Dask: `reproduce fig4-lucas` with 1 and 2 local worker
processes, per round the number of "public_search.ell" tasks (one per length-scale ℓ) and their
cost (docs/scale.md, "The search on one public data set").

    .venv/bin/python bench/scale_search.py [--workers 1 2] [--out DIR]

For each worker count: the wall time of the whole reproduction (the hexagons, the search, the
three private paths and the files), then per evaluate call of the search (the coarse grid, each
refinement round) the tasks and their mean, max and total CPU seconds on the workers (CPU seconds
do not depend on how loaded the shared cores are). On more than one worker a refinement task may
land on a worker that has not seen its ℓ's earlier rounds and replays them: its CPU seconds then
include the replay. (--pairs is ignored: fig4-lucas is one data set.) The JSON summary goes to
--out/scale-search.json.
"""

import json
import pathlib
import statistics
import sys

from scale_common import parse_args, print_speedups, timed_reproduce

KIND = "public_search.ell"
DATA = pathlib.Path(__file__).resolve().parents[1] / "data"


def per_call(sizes, cpu):
    """The CPU seconds of each task list (lists run one after the other), by list."""
    calls, first = [], 0
    for size in sizes:
        c = cpu[first:first + size]
        first += size
        calls.append({"tasks": size, "task_cpu_s_mean": statistics.mean(c),
                      "task_cpu_s_max": max(c), "task_cpu_s_total": sum(c)})
    return calls


def main():
    args = parse_args(__doc__.splitlines()[0], 0, "gpdp-scale-search-")
    runs = {}
    for w in args.workers:
        sizes = []
        wall, stats = timed_reproduce(
            "fig4-lucas", w, args.out / f"workers-{w}", data_dir=str(DATA),
            record=lambda tasks: sizes.append(len(tasks)) if tasks and tasks[0][0] == KIND else None)
        runs[w] = {"wall_s": wall, "calls": per_call(sizes, stats.cpu_seconds.get(KIND, []))}
        print(f"{w} worker(s): fig4-lucas {wall:.1f} s wall", flush=True)
        for k, c in enumerate(runs[w]["calls"]):
            label = "coarse grid" if k == 0 else f"refinement {k}"
            print(f"  {label:<13} {c['tasks']:>3} tasks, CPU s per task mean "
                  f"{c['task_cpu_s_mean']:.3f}, max {c['task_cpu_s_max']:.3f}, total "
                  f"{c['task_cpu_s_total']:.2f}", flush=True)
    print_speedups({w: r["wall_s"] for w, r in runs.items()})
    (args.out / "scale-search.json").write_text(json.dumps(runs, indent=2) + "\n")
    print(f"summary: {args.out / 'scale-search.json'}")


if __name__ == "__main__":
    sys.exit(main())
