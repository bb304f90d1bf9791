#!/usr/bin/env python3
"""Preview calibration (issue #28): how close `gpdp preview --calibrate-epsilon` predicts the
utility of the map it predicts best, on the utility frontier's data sets (docs/utility.md,
"A calibrated preview").

For each data set and seed (the frontier's own loaders, public inputs and splits:
bench/utility_frontier.py), on the training records:

  predicted  gpdp.preview.calibrated: `--mechanism auto`'s DP summary drawn once at ε_s
             (--summary-eps, a separate spend recorded in a throwaway ledger; seeded, NOT private)
             calibrates the simulations; per target ε the predicted-best candidate (each candidate
             calibrated to ε itself) with its predicted accuracy and IoU;
  realised   that candidate released at ε on the training records (gpdp.mechanisms.prepare with
             the frontier's option set of the same mechanism) and scored at the held-out records
             exactly like the frontier (accuracy; IoU of the released set with the truth set).

The table gives, per data set and ε, the mean over the seeds of the predicted and realised accuracy
and IoU and their differences; a data set is "within ±0.1" at ε when both mean differences are.

Usage: bench/preview_calibration.py [--quick] [--out DIR] [--seeds S] [--data NAME,...]
                                    [--eps E,...] [--summary-eps E]
       bench/preview_calibration.py --report-from calibration.json --out DIR   (table only)
  --quick  2 seeds, data sets subsampled to 600 records (as the frontier's --quick)
Writes OUT/calibration.md and OUT/calibration.json. Seeded throughout: a measurement only.
"""
import argparse
import json
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import utility_frontier as uf  # noqa: E402  (the frontier's loaders, splits, options, scoring)

EPSILONS = [1.0, 3.0, 10.0, 30.0]
SUMMARY_EPSILON = 1.0
TOLERANCE = 0.1

# auto's candidates (release/auto_mechanism.cpp) as `gpdp release` option sets: the frontier's own
# where it has the mechanism, the majority side as the one-cell grid mean's cells map.
_FRONTIER = dict(uf.MECHANISMS)
CANDIDATES = {
    "majority side (one-cell grid mean, sign)":
        {"mechanism": "grid-mean", "grid_map": "cells", "cells": "1,1", "input": {"sign": True}},
    "grid mean + GP (sign)": _FRONTIER["grid mean + GP, sign"],
    "grid mean + GP": _FRONTIER["grid mean + GP"],
    "posterior sample σ = 0.05 (sign)": _FRONTIER["posterior sample, σ = 0.05, sign"],
    "3-path vote σ = 0.05 (sign)": _FRONTIER["3-path vote, σ = 0.05, sign"],
    "functional, r = 10": _FRONTIER["functional, r = 10"],
}


def public_options(rec, delta):
    """The release's public parameters without a mechanism or target (the preview's)."""
    o = uf.gpdp_options(rec, None, 1.0, delta, {})
    o.pop("target_epsilon")
    return o


def run_dataset(rec, seeds, epsilons, summary_eps, progress):
    import gpdp
    import gpdp.mechanisms as gm

    rows = {}  # ε -> list of (predicted acc, realised acc, predicted IoU, realised IoU, best)
    for s, (train, test) in enumerate(uf.splits(rec, seeds)):
        truth = rec.labels[test]
        delta = len(train) ** -1.1
        with tempfile.TemporaryDirectory() as tmp:
            cal = gpdp.preview.calibrated(
                X=rec.X[train], y=rec.value[train], points=rec.X[test],
                input=uf.gpdp_input(rec, {}), options=public_options(rec, delta),
                calibrate_epsilon=summary_eps, epsilons=epsilons,
                ledger=os.path.join(tmp, "ledger.sqlite"), dataset="bench",
                insecure_seed=30_000 + s)
        for target in cal["targets"]:
            eps, best = target["epsilon"], target["best"]
            options = CANDIDATES[best]
            prep = gm.prepare(X=rec.X[train], y=rec.value[train], points=rec.X[test],
                              input=uf.gpdp_input(rec, options),
                              options=uf.gpdp_options(rec, train, eps, delta, options))
            if prep.epsilon > eps * (1 + 1e-9):
                sys.exit(f"{rec.spec.name}: {best} accounts to ε = {prep.epsilon} > {eps}")
            out = prep.release(seed=20_000 + 101 * s)
            acc, iou = uf.scores(np.asarray(out["set"]) > 0.5, truth)
            p = target["predicted"]
            rows.setdefault(str(eps), []).append((p["accuracy"], acc, p["iou"], iou, best))
        progress(f"{rec.spec.name}: seed {s + 1}/{seeds} done")
    return rows


def summarise(rows):
    out = {}
    for eps, vals in rows.items():
        a = np.array([v[:4] for v in vals])
        picks = {}
        for v in vals:
            picks[v[4]] = picks.get(v[4], 0) + 1
        m = a.mean(0)
        out[eps] = {"predicted_accuracy": m[0], "realised_accuracy": m[1],
                    "predicted_iou": m[2], "realised_iou": m[3],
                    "accuracy_error": m[0] - m[1], "iou_error": m[2] - m[3],
                    "within": bool(abs(m[0] - m[1]) <= TOLERANCE and abs(m[2] - m[3]) <= TOLERANCE),
                    "picks": picks, "seeds": len(vals)}
    return out


def markdown(run):
    eps = run["epsilons"]
    lines = [f"# Preview calibration ({'quick' if run['quick'] else 'full'} run, {run['seconds']:.0f} s; "
             f"summary ε_s = {run['summary_epsilon']:g}, {run['seeds']} seeds)\n",
             "| data | ε | predicted accuracy | realised | error | predicted IoU | realised | error | "
             "within ±0.1 | predicted best (seeds) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    passing, acc_only, iou_only = 0, [], []
    for name, res in run["results"].items():
        ok_all = True
        if all(abs(res["summary"][str(e)]["accuracy_error"]) <= TOLERANCE for e in eps):
            acc_only.append(name)
        if all(abs(res["summary"][str(e)]["iou_error"]) <= TOLERANCE for e in eps):
            iou_only.append(name)
        for e in eps:
            c = res["summary"][str(e)]
            ok_all &= c["within"]
            picks = ", ".join(f"{k} × {v}" for k, v in sorted(c["picks"].items(), key=lambda t: -t[1]))
            lines.append(f"| {name} | {e:g} | {c['predicted_accuracy']:.3f} | {c['realised_accuracy']:.3f} | "
                         f"{c['accuracy_error']:+.3f} | {c['predicted_iou']:.3f} | {c['realised_iou']:.3f} | "
                         f"{c['iou_error']:+.3f} | {'✓' if c['within'] else '✗'} | {picks} |")
        passing += ok_all
        res["within_at_every_epsilon"] = ok_all
    lines.append(f"\nWithin ±0.1 (mean accuracy and IoU error over the seeds) at every ε ∈ "
                 f"{{{', '.join(f'{e:g}' for e in eps)}}}: {passing} of {len(run['results'])} data sets "
                 f"({', '.join(n for n, r in run['results'].items() if r['within_at_every_epsilon']) or 'none'}); "
                 f"accuracy alone: {len(acc_only)} ({', '.join(acc_only) or 'none'}); "
                 f"IoU alone: {len(iou_only)} ({', '.join(iou_only) or 'none'}).\n")
    run["passing"] = passing
    run["passing_accuracy"], run["passing_iou"] = acc_only, iou_only
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="calibration-out")
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--data", default=",".join(d.name for d in uf.DATASETS))
    ap.add_argument("--eps", default=None)
    ap.add_argument("--summary-eps", type=float, default=SUMMARY_EPSILON)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--report-from", default=None,
                    help="rewrite OUT's table from a calibration.json (no measuring)")
    args = ap.parse_args()
    if args.report_from:
        with open(args.report_from) as f:
            run = json.load(f)
        os.makedirs(args.out, exist_ok=True)
        report(args.out, run)
        return
    seeds = 2 if args.quick else args.seeds
    epsilons = [float(e) for e in args.eps.split(",")] if args.eps else EPSILONS
    specs = {d.name: d for d in uf.DATASETS}
    names = args.data.split(",")
    unknown = [n for n in names if n not in specs]
    if unknown:
        sys.exit(f"preview_calibration: unknown data set(s) {unknown}; known: {sorted(specs)}")
    progress = (lambda m: None) if args.quiet else (lambda m: print(m, file=sys.stderr, flush=True))
    os.makedirs(args.out, exist_ok=True)
    t0 = time.time()
    results = {}
    for name in names:
        rec = uf.load(specs[name], max_records=600 if args.quick else None, rng=np.random.default_rng(5))
        rows = run_dataset(rec, seeds, epsilons, args.summary_eps, progress)
        results[name] = {"n": len(rec.value), "share_above": float(rec.labels.mean()),
                         "summary": summarise(rows)}
    run = {"epsilons": epsilons, "summary_epsilon": args.summary_eps, "seeds": seeds,
           "quick": args.quick, "seconds": time.time() - t0, "results": results}
    report(args.out, run)


def report(out, run):
    """Writes calibration.md and calibration.json of one run (also: --report-from)."""
    text = markdown(run)
    with open(os.path.join(out, "calibration.json"), "w") as f:
        json.dump(run, f, indent=1)
    with open(os.path.join(out, "calibration.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
