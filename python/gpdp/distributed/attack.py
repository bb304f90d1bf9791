"""python -m gpdp.distributed attack: `gpdp attack` with its seeds as tasks on workers.

Same flags and same report (text or --json, --roc, --roc-csv files) as the CLI: the coordinator
runs the library's attack driver, which sends one "attack.lira" task per seed to the workers.
"""

import functools
import json
import math
import sys

from .scheduler import map_tasks, open_executor


def add_arguments(parser):
    a = parser.add_argument
    a("--kernel", default="exp", help="covariance family (as gpdp attack)")
    a("--ell", type=float, default=1.0, help="lengthscale")
    a("--r", type=float, default=1.0, help="effective ridge r > 0")
    a("--sigma", type=float, default=1.0, help="prior scale σ > 0 (inf: covariance only)")
    a("--eta", type=float, default=0.0, help="must be 0 (the attack probes the plain release)")
    a("--draws", "-L", type=int, default=1, help="number of released sample paths L")
    a("--n", type=int, default=10, help="dataset size |D|")
    a("--shadow", type=int, default=10000, help="shadow datasets per hypothesis")
    a("--eval", type=int, default=10000, help="evaluation datasets per hypothesis")
    a("--seeds", type=int, default=10, help="independent repetitions (one task each)")
    a("--seed", type=int, default=20260616, help="first seed (seed i = seed + i)")
    a("--noise", type=float, default=0.0, help="response noise bound M_ξ in [0, 1)")
    a("--delta", type=float, default=0.05, help="δ of the bound and of the empirical ε")
    a("--conversion", default="mironov", help="RDP→(ε,δ) conversion: mironov or cks")
    a("--benchmark", action="store_true", help="also the non-private benchmark")
    a("--roc", default="", help="write the ROC curves (.png/.svg)")
    a("--roc-csv", default="", help="write every seed's ROC points as CSV")
    a("--json", action="store_true", help="print the results as JSON")
    a("--quiet", action="store_true", help="no per-task progress on stderr")


def request(args):
    """The JSON request of the library's driver (attack_run.hpp) from the parsed flags."""
    return json.dumps({
        "kernel": args.kernel, "ell": args.ell, "r": args.r,
        "sigma": "inf" if math.isinf(args.sigma) else args.sigma, "eta": args.eta,
        "draws": args.draws, "n": args.n, "shadow": args.shadow, "eval": args.eval,
        "seeds": args.seeds, "seed": args.seed, "noise": args.noise, "delta": args.delta,
        "conversion": args.conversion, "benchmark": args.benchmark, "json": args.json,
        "roc_path": args.roc, "roc_csv_path": args.roc_csv,
    })


def run(args):
    from gpdp import _core

    progress = {} if not args.quiet else {"progress": None}
    with open_executor(args.scheduler) as executor:
        report = _core.attack.run_attack(
            request(args), functools.partial(map_tasks, executor, **progress))
    sys.stdout.write(report)
