#!/usr/bin/env python3
"""The private prior mean at a small σ (docs/utility.md, "The issue's evidence, checked", check C):
the posterior sample at the CLI default σ and at σ = 0.05, with and without `--prior-mean dp`, on
the data sets where the frontier found the prior mean short of the trivial map. Same records,
splits, seeds, public inputs and scoring as bench/utility_frontier.py (imported, not copied); the
trivial maps and both noisy grid baselines are measured in the same run.

Usage: bench/prior_mean_small_sigma.py [--data meuse,boston,de_pm10] [--eps 3,10,30] [--seeds 10]
(~5 minutes on 2 cores with the defaults). Prints one Markdown table of mean held-out accuracy.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import utility_frontier as uf  # noqa: E402

PS = {"mechanism": "posterior-sample"}
MAPS = [
    ("σ = 0.5 (default)", PS | {"sigma": uf.SIGMA_USER}),
    ("σ = 0.5, prior mean dp", PS | {"sigma": uf.SIGMA_USER, "prior_mean": "dp"}),
    ("σ = 0.05, prior mean dp", PS | {"sigma": 0.05, "prior_mean": "dp"}),
    ("σ = 0.05, sign, prior mean dp", PS | {"sigma": 0.05, "prior_mean": "dp", "input": {"sign": True}}),
    ("σ = 0.05, sign", PS | {"sigma": 0.05, "input": {"sign": True}}),
]
BASELINES = ["noisy grid (k=10)", "noisy sign grid (cells=ℓ)"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", default="meuse,boston,de_pm10")
    ap.add_argument("--eps", default="3,10,30")
    ap.add_argument("--seeds", type=int, default=10)
    args = ap.parse_args()
    specs = {d.name: d for d in uf.DATASETS}
    epsilons = [float(e) for e in args.eps.split(",")]
    mean = lambda runs: float(np.mean([a for a, _ in runs]))  # noqa: E731
    print("| data (better trivial) | ε | best noisy grid | " + " | ".join(n for n, _ in MAPS) + " |")
    print("| --- | --- | --- | " + " | ".join("---" for _ in MAPS) + " |")
    for name in args.data.split(","):
        rec = uf.load(specs[name], rng=np.random.default_rng(5))
        table = uf.run_dataset(rec, args.seeds, epsilons, MAPS, lambda m: None)
        trivial = max(mean(table[("trivial-out", None)]), mean(table[("trivial-in", None)]))
        for e in epsilons:
            grid = max(mean(table[(b, e)]) for b in BASELINES)
            cells = " | ".join(f"{mean(table[(n, e)]):.3f}" for n, _ in MAPS)
            print(f"| {name} ({trivial:.3f}) | {e:g} | {grid:.3f} | {cells} |", flush=True)


if __name__ == "__main__":
    main()
