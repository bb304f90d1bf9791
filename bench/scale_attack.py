#!/usr/bin/env python3
"""Scaling of an attack sweep on Dask: `reproduce fig2 --quick` with 1 and 2 local worker processes,
and the per-task cost of Figure 2 at the paper's size (docs/scale.md, "Attack sweeps").

    .venv/bin/python bench/scale_attack.py [--pairs 2000] [--workers 1 2] [--out DIR]

1. Runs `python -m gpdp.distributed reproduce fig2 --quick --pairs N` (5 r x 3 seeds = 15
   "attack.lira" tasks, each 4 releases σ = 0.5, 1, 5, ∞ on N shadow + N evaluation datasets per
   hypothesis) once per worker count, this process the coordinator. Prints the wall time of each,
   the speed-up against the 1-worker run of the same invocation, the workers' seconds per task and
   the time outside tasks (coordinator: bounds, reductions, plots; scheduler round trips).
2. Reruns one task per r of that sweep (seed 0) at the paper's size (10⁴ + 10⁴ datasets per
   hypothesis) in this process on one BLAS thread, as a worker runs it: the per-task cost (CPU
   seconds, which do not depend on how loaded the shared cores are) of the full Figure 2.
3. Projects the full Figure 2 (13 r x 10 seeds = 130 tasks) on 64 workers. A task cannot be split,
   so the makespan is at least max(c_max, 130 c_mean / 64) and, with greedy scheduling, at most
   ceil(130 / 64) c_max (c = the per-task costs of step 2); the time outside tasks of step 1 is
   added (it does not grow with the datasets: the bounds and the plots).
The JSON summary goes to --out/scale-attack.json.
"""

import json
import math
import os
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # this process runs tasks in step 2

from gpdp import _core  # noqa: E402
from scale_common import (  # noqa: E402
    PROJECTED_WORKERS, parse_args, print_speedups, timed_reproduce)

PAPER_DATASETS = 10000
FULL_TASKS = 13 * 10  # Figure 2: 13 r x 10 seeds


def paper_size_costs(recorded):
    """One task per r (seed index 0) at 10^4 + 10^4 datasets, in this process: CPU seconds (the
    task's cost even where the cores are shared; BLAS on one thread) and wall seconds."""
    costs = {}
    for kind, params in recorded:
        p = json.loads(params)
        if p["r"] in costs or kind != "attack.lira":
            continue
        p["options"]["sizes"] = {"shadow": PAPER_DATASETS, "eval": PAPER_DATASETS}
        wall, cpu = time.perf_counter(), time.process_time()
        _core.run_task(kind, json.dumps(p))
        costs[p["r"]] = time.process_time() - cpu
        print(f"    r = {p['r']:<5g} {costs[p['r']]:.2f} CPU s per task at {PAPER_DATASETS} "
              f"datasets ({time.perf_counter() - wall:.2f} s wall)", flush=True)
    return costs


def main():
    args = parse_args(__doc__.splitlines()[0], default_pairs=2000,
                      out_prefix="gpdp-scale-attack-")
    out = args.out
    runs, recorded = {}, []

    def record(tasks):  # the sweep's task list, rerun at the paper's size in step 2
        recorded[:] = list(tasks)

    for w in args.workers:
        wall, stats = timed_reproduce("fig2", w, out / f"workers-{w}", record=record, quick=True,
                                      pairs=args.pairs)
        seconds = stats.seconds.get("attack.lira", [])
        cpu = stats.cpu_seconds.get("attack.lira", [])
        runs[w] = {"wall_s": wall, "tasks": len(seconds), "task_s_total": sum(seconds),
                   "task_s_mean": statistics.mean(seconds), "task_s_max": max(seconds),
                   "task_cpu_s_mean": statistics.mean(cpu)}
        r = runs[w]
        print(f"{w} worker(s): {wall:.1f} s wall; {r['tasks']} tasks, mean {r['task_s_mean']:.2f} s "
              f"wall ({r['task_cpu_s_mean']:.2f} s CPU), max {r['task_s_max']:.2f} s, total "
              f"{r['task_s_total']:.1f} task-s", flush=True)
    base = print_speedups({w: r["wall_s"] for w, r in runs.items()})
    one = runs[base]
    outside = max(0.0, one["wall_s"] - one["task_s_total"] / base)
    print(f"outside tasks ({base} worker(s)): {outside:.1f} s", flush=True)
    print(f"per-task cost at the paper's size ({PAPER_DATASETS} + {PAPER_DATASETS} datasets):")
    costs = paper_size_costs(recorded)
    c_mean, c_max = statistics.mean(costs.values()), max(costs.values())
    waves = math.ceil(FULL_TASKS / PROJECTED_WORKERS)
    low = max(c_max, FULL_TASKS * c_mean / PROJECTED_WORKERS) + outside
    high = waves * c_max + outside
    print(f"projection, full Figure 2 ({FULL_TASKS} tasks) on {PROJECTED_WORKERS} workers: between "
          f"max({c_max:.1f}, {FULL_TASKS} x {c_mean:.2f} / {PROJECTED_WORKERS}) + {outside:.1f} = "
          f"{low:.0f} s and {waves} x {c_max:.1f} + {outside:.1f} = {high:.0f} s; one worker: "
          f"{FULL_TASKS} x {c_mean:.2f} + {outside:.1f} = {FULL_TASKS * c_mean + outside:.0f} s")
    result = {"pairs": args.pairs, "runs": runs, "outside_s": outside,
              "paper_task_s": {str(r): c for r, c in costs.items()},
              "projection_64_workers_s": [low, high],
              "one_worker_full_s": FULL_TASKS * c_mean + outside}
    (out / "scale-attack.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"summary: {out / 'scale-attack.json'}")


if __name__ == "__main__":
    sys.exit(main())
