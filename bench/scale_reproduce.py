#!/usr/bin/env python3
"""Scaling of `reproduce table4` on Dask: 1 and 2 local worker processes (docs/scale.md).

    .venv/bin/python bench/scale_reproduce.py [--pairs 20] [--workers 1 2] [--out DIR]

Runs `python -m gpdp.distributed reproduce table4 --pairs N` (full Table 4 settings: 2-D,
n = 400, 40 x 40 grid, B = 50; only the number of pairs is reduced) once per worker count through
a Dask LocalCluster, in this process as coordinator. Prints, from the same run: the wall time of
each, the speed-up ratio, the workers' seconds per task kind (count, mean, total), the time spent
outside tasks, and the projection of the full Table 4 (1000 pairs) at 64 workers:

    T64 = S_tasks * (1000 / N) / 64 + T_outside * (1000 / N)

with S_tasks the tasks' CPU seconds measured on one worker (the cost of a task on a core of its
own, even when this machine's cores are shared) and T_outside = wall(1 worker) - the tasks' wall
seconds
(coordinator reductions in task order, serialisation, scheduler round trips: all assumed serial
and proportional to the pairs, which overstates them). The JSON summary goes to --out/scale.json.
"""

import json
import sys

from scale_common import PROJECTED_WORKERS, parse_args, print_speedups, timed_reproduce

FULL_PAIRS = 1000


def summary(stats):
    out = {}
    for kind, wall in sorted(stats.seconds.items()):
        cpu = stats.cpu_seconds[kind]
        out[kind] = {"tasks": len(wall), "mean_s": sum(wall) / len(wall), "total_s": sum(wall),
                     "mean_cpu_s": sum(cpu) / len(cpu), "total_cpu_s": sum(cpu)}
    return out


def main():
    args = parse_args(__doc__.splitlines()[0], default_pairs=20, out_prefix="gpdp-scale-")
    out = args.out
    runs = {}
    for w in args.workers:
        wall, stats = timed_reproduce("table4", w, out / f"workers-{w}", pairs=args.pairs)
        runs[w] = {"wall_s": wall, "tasks": summary(stats)}
        task_s = sum(k["total_s"] for k in runs[w]["tasks"].values())
        cpu_s = sum(k["total_cpu_s"] for k in runs[w]["tasks"].values())
        print(f"{w} worker(s): {wall:.1f} s wall, {task_s:.1f} task-seconds (wall), "
              f"{cpu_s:.1f} task CPU-seconds", flush=True)
        for kind, k in runs[w]["tasks"].items():
            print(f"    {kind:<20} {k['tasks']:>5} tasks  mean {k['mean_s']:.3f} s wall, "
                  f"{k['mean_cpu_s']:.3f} s CPU  total {k['total_s']:.1f} s wall, "
                  f"{k['total_cpu_s']:.1f} s CPU")
    base = print_speedups({w: r["wall_s"] for w, r in runs.items()})
    one = runs[base]
    tasks_s = sum(k["total_cpu_s"] for k in one["tasks"].values())
    outside_s = max(0.0, one["wall_s"] - sum(k["total_s"] for k in one["tasks"].values()) / base)
    scale = FULL_PAIRS / args.pairs
    projected = tasks_s * scale / PROJECTED_WORKERS + outside_s * scale
    print(f"projection, full Table 4 ({FULL_PAIRS} pairs) on {PROJECTED_WORKERS} workers: "
          f"{tasks_s:.1f} task CPU-s x {scale:g} / {PROJECTED_WORKERS} + {outside_s:.1f} s outside "
          f"tasks x {scale:g} = {projected:.0f} s ({projected / 60:.1f} min)")
    result = {"pairs": args.pairs, "runs": runs, "projection_64_workers_s": projected,
              "task_seconds_full": tasks_s * scale, "outside_seconds_full": outside_s * scale}
    (out / "scale.json").write_text(json.dumps(result, indent=2) + "\n")
    print(f"summary: {out / 'scale.json'}")


if __name__ == "__main__":
    sys.exit(main())
