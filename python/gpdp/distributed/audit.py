"""python -m gpdp.distributed audit: `gpdp audit --json` with its restarts as tasks on workers.

The coordinator runs the library's auditor; every local search (one gradient-ascent start, one
Subplex restart) is an "audit.ascent" / "audit.subplex" task. The starts are drawn on the
coordinator from the seeded generator and the results merged in start order, so the report (the
best witness included) is the CLI's whatever the number of workers. Posterior-sample mechanisms
with the flags below (for --Vn, --Delta-n, --kappa, Lemma B.8 and the functional mechanism use the
CLI).
"""

import functools
import json
import sys

from .scheduler import map_tasks, open_executor


def add_arguments(parser):
    a = parser.add_argument
    a("--kernel", default="exp", help="covariance family (as gpdp audit)")
    a("--ell", type=float, default=1.0, help="lengthscale")
    a("--r", type=float, default=1.0, help="effective ridge r > 0")
    a("--sigma", type=float, default=1.0, help="prior scale σ > 0")
    a("--eta", type=float, default=0.0, help="added prior noise η ≥ 0")
    a("--n", type=int, required=True, help="dataset size n ≥ 1")
    a("--dim", type=int, default=1, help="covariate dimension")
    a("--domain", default="", help="covariate domain lo:hi,... (default: the unit box)")
    a("--M-Y", dest="M_Y", type=float, default=1.0, help="response bound |y| ≤ M_Y")
    a("--sensitivity", default="b1", help="mean-sensitivity lemma (b1, b1-sharp, b4, b5, b7)")
    a("--draws", "-L", type=int, default=1, help="number of released sample paths L")
    a("--delta", type=float, required=True, help="δ of the (ε, δ) guarantee")
    a("--conversion", default="cks", help="RDP→(ε,δ) conversion: cks or mironov")
    a("--alpha", default="", help="Rényi orders to audit, comma-separated (default: spread)")
    a("--search", default="gradient", help="gradient or subplex")
    a("--restarts", type=int, default=12, help="random restarts per order and search mode")
    a("--evals", type=int, default=300, help="evaluations per local search")
    a("--test-points", type=int, default=2, help="free test points besides the differing ones")
    a("--no-continuation", action="store_true", help="gradient: no continuation from n = 1")
    a("--no-sensitivity-search", action="store_true", help="gradient: no sensitivity search")
    a("--seed", type=int, default=1, help="seed of the search")
    a("--quiet", action="store_true", help="no per-task progress on stderr")


def mechanism(args):
    """The mechanism as a privacy event's JSON (privacy/event.hpp)."""
    m = {"kind": "gp-posterior-sample", "count": 1, "dim": args.dim, "n": args.n, "r": args.r,
         "sigma": args.sigma, "eta": args.eta, "M_Y": args.M_Y, "lemma": args.sensitivity,
         "kernel": {"name": args.kernel, "ell": args.ell}}
    if args.domain:
        m["domain"] = args.domain
    return json.dumps(m)


def settings(args):
    """privacy::AuditSettings as JSON (privacy/audit_report.hpp)."""
    s = {"search": args.search, "restarts": args.restarts, "max_evals": args.evals,
         "extra_test_points": args.test_points, "continuation": not args.no_continuation,
         "sensitivity": not args.no_sensitivity_search, "seed": args.seed, "delta": args.delta,
         "draws": args.draws, "conversion": args.conversion}
    if args.alpha:
        s["alphas"] = [float(a) for a in args.alpha.split(",")]
    return json.dumps(s)


def run(args):
    from gpdp import _core

    progress = {} if not args.quiet else {"progress": None}
    with open_executor(args.scheduler) as executor:
        report = _core.privacy.audit_json(
            mechanism(args), settings(args), functools.partial(map_tasks, executor, **progress))
    sys.stdout.write(report)
    if json.loads(report)["violation"]:
        print("gpdp.distributed audit: VIOLATION: a concrete neighbouring pair exceeds the proven "
              "bound (see the orders marked violation)", file=sys.stderr)
        return 1
    return 0
