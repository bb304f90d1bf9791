#!/usr/bin/env python3
"""The grid mean's default cells (docs/utility.md, "The grid mean's cell rule"): the grid mean + GP
(plain and sign response) with the cells of each candidate rule, beside both noisy grid baselines.
Same records, splits, seeds, public inputs and scoring as bench/utility_frontier.py (imported, not
copied; with the same --eps list the baselines are the frontier's own draws). Each rule is a
function of public inputs only (n, ε, the domain, ℓ), passed to the release as explicit `cells`:

  ug     C = n ε / 10                      the UG rule (Qardaji, Yang & Li 2013), the old default
  kK     C = min(n ε / 10, n / K)          at least K records per cell on average (k5: the default)
  ell2   C = min(n ε / 10, area / (ℓ/2)²)  never finer than cells of side ℓ/2
  ell    C = min(n ε / 10, area / ℓ²)      never finer than cells of side ℓ
  c30    C = n ε / 30                      the UG rule with c = 30
  sqrt   C = n √ε / 10                     the UG count at ε = 1, growing as √ε

C is then split over the axes as gpdp does (square cells, at least 1, at most 2500 in all).

Usage: bench/grid_mean_cell_rules.py [--data NAME,...] [--eps 0.5,1,3,10,30] [--rules ug,k5,...]
       [--seeds 10]   (all seven data sets, all rules: ~15 minutes on 2 cores)
Prints, per data set and ε, mean held-out accuracy "plain / sign" per rule and the better baseline.
"""
import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import utility_frontier as uf  # noqa: E402

MAX_CELLS = 2500  # kGridMeanMaxCells


def split_cells(side, total):
    """gpdp's square_cells: `total` cells as square as the domain's sides allow."""
    total = min(max(round(total), 1), MAX_CELLS)
    h = (float(np.prod(side)) / total) ** (1 / len(side))
    c = [max(1, int(round(s / h))) for s in side]
    while np.prod(c) > MAX_CELLS:
        c[int(np.argmax(c))] -= 1
    return c


def rule_total(rule, rec, n, eps):
    ug, area = n * eps / 10, float(np.prod(rec.hi - rec.lo))
    if rule == "ug":
        return ug
    if rule.startswith("k"):
        return min(ug, n / float(rule[1:]))
    if rule == "ell2":
        return min(ug, area / (rec.ell / 2) ** 2)
    if rule == "ell":
        return min(ug, area / rec.ell ** 2)
    if rule == "c30":
        return n * eps / 30
    if rule == "sqrt":
        return n * math.sqrt(eps) / 10
    sys.exit(f"grid_mean_cell_rules: unknown rule {rule}")


def with_cells(rec, train, epsilon, delta, options, _plain=uf.gpdp_options):
    """uf.gpdp_options, with a "cell_rule" option turned into the rule's explicit cells."""
    options = dict(options)
    rule = options.pop("cell_rule", None)
    if rule:
        options["cells"] = ",".join(map(str, split_cells(rec.hi - rec.lo, rule_total(rule, rec, len(train), epsilon))))
    return _plain(rec, train, epsilon, delta, options)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default=",".join(d.name for d in uf.DATASETS))
    ap.add_argument("--eps", default="0.5,1,3,10,30")
    ap.add_argument("--rules", default="ug,k3,k4,k5,k6,k10,ell2,ell,c30,sqrt")
    ap.add_argument("--seeds", type=int, default=10)
    args = ap.parse_args()
    uf.gpdp_options = with_cells  # run_dataset calls it through the module
    specs = {d.name: d for d in uf.DATASETS}
    epsilons = [float(e) for e in args.eps.split(",")]
    rules = args.rules.split(",")
    maps = [(f"{r}{s}", {"mechanism": "grid-mean", "cell_rule": r} | ({"input": {"sign": True}} if s else {}))
            for r in rules for s in ("", " sign")]
    mean = lambda runs: float(np.mean([a for a, _ in runs]))  # noqa: E731
    print("| data | ε | best noisy grid | " + " | ".join(rules) + " |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in rules) + " |")
    for name in args.data.split(","):
        rec = uf.load(specs[name], rng=np.random.default_rng(5))
        table = uf.run_dataset(rec, args.seeds, epsilons, maps, lambda m: None)
        for e in epsilons:
            grid = max(mean(table[(b, e)]) for b in uf.BASELINES)
            cells = " | ".join(f"{mean(table[(r, e)]):.3f} / {mean(table[(r + ' sign', e)]):.3f}" for r in rules)
            print(f"| {name} | {e:g} | {grid:.3f} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
