"""python -m gpdp.distributed search: `gpdp search` with its θ evaluations as tasks on workers.

Same flags and same report (text or --json, the --out file) as the CLI: the coordinator runs the
library's driver (experiments/public_search_run.hpp), whose search sends one "public_search.ell"
task per length-scale ℓ of each round to the workers (the public data travel in the tasks).
"""

import functools
import json
import sys

from .scheduler import map_tasks, open_executor


def add_arguments(parser):
    a = parser.add_argument
    a("--data", required=True, help="public training CSV (covariates in [0,1]^d, |y| ≤ 1)")
    a("--validation", required=True, help="public validation CSV (same columns)")
    a("--x", default="", help="covariate column names, comma-separated (default x1, x2, ...)")
    a("--y", default="y", help="response column")
    a("--target-epsilon", type=float, default=10.0, help="ε₀: the private θ has ε_L(θ) < ε₀")
    a("--delta", type=float, default=0.0, help="δ (default n^(−1.1))")
    a("--n", type=int, default=0, help="size of the PRIVATE data set (default: rows of --data)")
    a("--paths", type=int, default=1, help="L: released paths (composed)")
    a("--threshold", type=float, default=0.0, help="excursion level t")
    a("--conversion", default="mironov", help="RDP→(ε,δ): mironov or cks")
    a("--ell-range", default="", help="coarse ℓ grid lo:hi:count (log-spaced)")
    a("--r-range", default="", help="coarse r grid lo:hi:count")
    a("--sigma-range", default="", help="coarse σ grid lo:hi:count")
    a("--refine", type=int, default=2, help="refinement rounds around the top 3")
    a("--out", default="", help="also write the JSON result to this file")
    a("--json", action="store_true", help="print JSON instead of text")
    a("--quiet", action="store_true", help="no per-task progress on stderr")


def request(args):
    """The JSON request of the library's driver (public_search_run.hpp) from the parsed flags."""
    return json.dumps({
        "data": args.data, "validation": args.validation,
        "x": [c for c in args.x.split(",") if c], "y": args.y,
        "target-epsilon": args.target_epsilon, "delta": args.delta, "n": args.n,
        "paths": args.paths, "threshold": args.threshold, "conversion": args.conversion,
        "ell-range": args.ell_range, "r-range": args.r_range, "sigma-range": args.sigma_range,
        "refine": args.refine, "out": args.out, "json": args.json,
    })


def run(args):
    from gpdp import _core

    progress = {"progress": None} if args.quiet or args.json else {}
    with open_executor(args.scheduler) as executor:
        report = _core.experiments.run_public_search(
            request(args), functools.partial(map_tasks, executor, **progress))
    sys.stdout.write(report)
