#!/usr/bin/env python3
"""How coherent are the labels (above/below the threshold) of the frontier's data sets at short
range, against the labels `--mechanism auto` simulates? (docs/utility.md, "Label coherence").

For pairs of records at distance d (bins in units of the public ℓ), the excess agreement
κ(d) = (P(same side) − p_same) / (1 − p_same), p_same = p² + (1 − p)² the agreement of
independent labels with the same share p above t: 1 = neighbours always agree, 0 = no more than
chance. The real labels are the data set's (non-private: a description of the benchmark, not a
release); the simulated ones are auto's latent model at the same locations with a constant share:
side = 2Φ(√(1−ν) z + √ν e) − 1 + g₀ > 0, z ~ GP(0, k) (exponential kernel at ℓ), e ~ N(0, 1)
per record, averaged over 5 draws, for the nuggets ν = 0 and 0.5.

    bench/label_coherence.py            # about a minute; data sets above 1,500 records subsampled
"""
import argparse
import math
import os
import sys

import numpy as np
from scipy.spatial.distance import pdist
from scipy.stats import norm

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import utility_frontier as uf  # noqa: E402  (the frontier's loaders and public ℓ rule)

BINS = [(0.0, 0.1), (0.1, 0.25), (0.25, 0.5), (0.5, 1.0), (1.0, 2.0)]


def excess_agreement(d, labels, ell):
    L = labels.astype(int)
    i, j = np.triu_indices(len(L), 1)
    same = (L[i] == L[j]).astype(float)
    p = L.mean()
    base = p * p + (1 - p) * (1 - p)
    out = []
    for lo, hi in BINS:
        m = (d >= lo * ell) & (d < hi * ell)
        out.append((same[m].mean() - base) / (1 - base) if m.sum() >= 20 else float("nan"))
    return out


def simulated(X, d, p, ell, nu, rng, draws=5):
    D = np.zeros((len(X), len(X)))
    D[np.triu_indices(len(X), 1)] = d
    D = D + D.T
    chol = np.linalg.cholesky(np.exp(-D / ell) + 1e-9 * np.eye(len(X)))
    rows = []
    for _ in range(draws):
        z = chol @ rng.standard_normal(len(X))
        zeta = 2 * norm.cdf(math.sqrt(1 - nu) * z + math.sqrt(nu) * rng.standard_normal(len(X))) - 1
        rows.append(excess_agreement(d, (2 * p - 1 + zeta) > 0, ell))
    return np.nanmean(np.array(rows, dtype=float), axis=0)


def cell(v):
    return "–" if not np.isfinite(v) else f"{v:+.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--max-records", type=int, default=1500)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    head = " | ".join(f"{lo:g}–{hi:g} ℓ" for lo, hi in BINS)
    print(f"| data | n | share above | labels | {head} |")
    print("|---|---|---|---|" + "---|" * len(BINS))
    for spec in uf.DATASETS:
        rec = uf.load(spec, max_records=args.max_records, rng=np.random.default_rng(0))
        d = pdist(rec.X)
        p = float(rec.labels.mean())
        rows = [("real", excess_agreement(d, rec.labels, rec.ell))]
        for nu in (0.0, 0.5):
            rows.append((f"simulated, ν = {nu:g}", simulated(rec.X, d, p, rec.ell, nu, rng)))
        for k, (what, vals) in enumerate(rows):
            lead = f"{spec.name} | {len(rec.X)} | {p:.2f}" if k == 0 else " | | "
            print(f"| {lead} | {what} | " + " | ".join(cell(v) for v in vals) + " |", flush=True)


if __name__ == "__main__":
    main()
