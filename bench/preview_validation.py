#!/usr/bin/env python3
"""Preview against realised utility (docs/utility.md, "gpdp preview: predicted against realised").

For one case it runs `gpdp preview` on the PUBLIC inputs, then, for every ε target, releases from
the private data (a) the configuration the preview chose (`--config-from`) and (b) the default
r-calibrated single path (`--target-epsilon E`), each `--seeds` times with a seeded RNG (NOT
private: a measurement, never a release to publish), and measures the realised IoU of each
released set with the non-private set {μ_D ≥ t} of the same data at the preview's reference θ.
Prints a Markdown table (also written to OUT/validation.md) and writes OUT/validation.json.

Cases:
  meuse  data/meuse.csv plays the private data; no public proxy: prior fields at the demo's θ.
  lucas  Lucas County (OH) house sales, hexagon medians of log price (1.5 km): the public years
         1993–1997 (one record per hexagon and year) are the proxy, 1998 is the private year.
         Needs lucas_county_oh_house_sales.csv(.gz) in data/ or $GPDP_DATA_DIR.

Usage: bench/preview_validation.py --cli build/gpdp --case meuse --out /tmp/val [--seeds 10]
"""
import argparse
import csv
import gzip
import json
import math
import os
import shutil
import subprocess
import sys
import time

T_MEUSE = math.log(720.0)
T_LUCAS = math.log(100000.0)


def run(cmd, quiet=True):
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(f"command failed ({res.returncode}): {' '.join(cmd)}\n{res.stderr}")
    return res.stdout


def find_lucas(root):
    dirs = [os.environ.get("GPDP_DATA_DIR", ""), os.path.join(root, "data")]
    for d in dirs:
        for name in ("lucas_county_oh_house_sales.csv", "lucas_county_oh_house_sales.csv.gz"):
            p = os.path.join(d, name)
            if d and os.path.exists(p):
                return p
    sys.exit("lucas_county_oh_house_sales.csv(.gz) not found in $GPDP_DATA_DIR or data/")


def lucas_inputs(cli, root, work):
    src = find_lucas(root)
    if src.endswith(".gz"):
        plain = os.path.join(work, "lucas.csv")
        with gzip.open(src, "rt") as f, open(plain, "w") as g:
            shutil.copyfileobj(f, g)
        src = plain
    box = "484000:539000,195000:230000"
    for y in range(1993, 1999):
        run([cli, "hexbin", "--data", src, "--x", "x", "--y", "y", "--value", "price", "--log",
             "--where", f"syear={y}", "--box", box, "--cell-width", "1500",
             "--out", os.path.join(work, f"hex{y}.csv")])
    public = os.path.join(work, "public.csv")
    with open(public, "w") as out:
        for i, y in enumerate(range(1993, 1998)):
            with open(os.path.join(work, f"hex{y}.csv")) as f:
                lines = f.readlines()
            out.writelines(lines if i == 0 else lines[1:])
    t = f"{T_LUCAS:.9f}"
    common = ["--x", "x,y", "--y", "median", "--center", t, "--scale", "1", "--M-Y", "1",
              "--domain", "483000:540000,194000:231500",
              "--grid2d", "484750:538750:37,195750:228750:23", "--mask", public,
              "--threshold", t]
    private = os.path.join(work, "hex1998.csv")
    n = sum(1 for _ in open(private)) - 1
    return dict(common=common, private=private, n=n, t=T_LUCAS,
                preview=["--public-data", public])


def meuse_inputs(root):
    data = os.path.join(root, "data", "meuse.csv")
    grid = os.path.join(root, "data", "meuse_grid.csv")
    t = f"{T_MEUSE:.6f}"
    common = ["--x", "x,y", "--y", "zinc", "--transform", "log", "--center", t, "--scale", "1.5",
              "--M-Y", "1", "--domain", "178440:181560,329600:333760",
              "--grid2d", "178460:181540:78,329620:333740:104", "--mask", grid, "--threshold", t]
    n = sum(1 for _ in open(data)) - 1
    return dict(common=common, private=data, n=n, t=T_MEUSE,
                preview=["--ell", "300", "--sigma", "0.5", "--r", "0.3"])


def in_set(draws_csv):
    with open(draws_csv) as f:
        return [r["in_set"] == "1" for r in csv.DictReader(f)]


def iou(a, b):
    inter = sum(x and y for x, y in zip(a, b))
    union = sum(x or y for x, y in zip(a, b))
    return 1.0 if union == 0 else inter / union


def summary(values):
    m = sum(values) / len(values)
    return dict(mean=m, min=min(values), max=max(values), values=values)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--cli", default="build/gpdp")
    ap.add_argument("--case", choices=["meuse", "lucas"], required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--epsilons", default="1,3,10,30,100")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--simulations", type=int, default=16)
    ap.add_argument("--no-functional", action="store_true",
                    help="leave the functional mechanism out of the preview's candidates")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cli = os.path.abspath(args.cli)
    work = os.path.abspath(args.out)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    case = lucas_inputs(cli, root, work) if args.case == "lucas" else meuse_inputs(root)
    n = case["n"]
    delta = f"{n ** -1.1:.6g}"
    epsilons = [float(e) for e in args.epsilons.split(",")]

    t0 = time.time()
    run([cli, "preview", *case["common"], "--kernel", "exp", *case["preview"], "--n", str(n),
         "--delta", delta,
         "--epsilons", args.epsilons, "--simulations", str(args.simulations), "--quiet",
         *(["--no-functional"] if args.no_functional else []),
         "--out", os.path.join(work, "preview")])
    preview_seconds = time.time() - t0
    preview_file = os.path.join(work, "preview", "preview.json")
    with open(preview_file) as f:
        preview = json.load(f)
    theta = preview["theta"]

    # The non-private reference set {μ_D ≥ t} at the preview's reference θ, on the private data.
    ledger = os.path.join(work, "ledger.sqlite")
    base = [cli, "release", "--data", case["private"], *case["common"], "--delta", delta,
            "--dataset", args.case, "--ledger", ledger]
    run([*base, "--kernel", "exp", "--ell", str(theta["ell"]), "--sigma", str(theta["sigma"]),
         "--r", str(theta["r_reference"]), "--insecure-seed", "1",
         "--out", os.path.join(work, "reference"), "--internal-eval", os.path.join(work, "ref-eval")])
    with open(os.path.join(work, "ref-eval", "NOT_FOR_RELEASE_posterior.csv")) as f:
        truth = [float(r["posterior_mean"]) >= case["t"] for r in csv.DictReader(f)]
    share = sum(truth) / len(truth)

    rows = []
    for eps in epsilons:
        result = next(r for r in preview["results"] if r["epsilon"] == eps)
        realised = {"chosen": [], "default": []}
        for s in range(1, args.seeds + 1):
            for which, extra in (("chosen", ["--config-from", preview_file,
                                             "--target-epsilon", f"{eps:g}"]),
                                 ("default", ["--kernel", "exp", "--ell", str(theta["ell"]),
                                              "--sigma", str(theta["sigma"]),
                                              "--target-epsilon", f"{eps:g}"])):
                out = os.path.join(work, f"e{eps:g}-{which}-{s}")
                run([*base, *extra, "--insecure-seed", str(s), "--out", out])
                realised[which].append(iou(in_set(os.path.join(out, "draws.csv")), truth))
                shutil.rmtree(out)
        rows.append(dict(epsilon=eps, chosen=result["best"]["config"],
                         predicted=result["best"]["iou"], predicted_default=result["default"]["iou"],
                         realised=summary(realised["chosen"]),
                         realised_default=summary(realised["default"])))

    lines = [f"case {args.case}: n = {n}, δ = n^-1.1 = {delta}, θ: ℓ = {theta['ell']:.4g}, "
             f"σ = {theta['sigma']:.4g}, reference r = {theta['r_reference']:.4g} ({theta['source']}); "
             f"preview {preview_seconds:.1f} s wall; realised over {args.seeds} seeded releases each; "
             f"chance on the real data = {share:.3f} (simulated {preview['random_set_iou']:.3f}), "
             f"non-private path simulated {preview['nonprivate_iou']:.3f}",
             "",
             "| ε | chosen | predicted IoU | realised IoU | default predicted | default realised "
             "| gain predicted | gain realised |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        c = r["chosen"]
        what = f"{c['family']} ({c['mechanism']}, L = {c['draws']}, c = {c['vote_cutoff']:.2g}, " \
               f"h = {c['smooth']:.3g}, r = {c['r']:.3g}" + \
               (f", s = {c['noise_scale']:.3g})" if "noise_scale" in c else ")")
        p, q, d, e = r["predicted"], r["realised"], r["predicted_default"], r["realised_default"]
        lines.append(
            f"| {r['epsilon']:g} | {what} | {p['mean']:.3f} [{p['lo']:.3f}, {p['hi']:.3f}] "
            f"| {q['mean']:.3f} [{q['min']:.3f}, {q['max']:.3f}] "
            f"| {d['mean']:.3f} [{d['lo']:.3f}, {d['hi']:.3f}] "
            f"| {e['mean']:.3f} [{e['min']:.3f}, {e['max']:.3f}] "
            f"| {p['mean'] - d['mean']:+.3f} | {q['mean'] - e['mean']:+.3f} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(work, "validation.md"), "w") as f:
        f.write(text)
    with open(os.path.join(work, "validation.json"), "w") as f:
        json.dump(dict(case=args.case, n=n, delta=float(delta), chance_real=share, rows=rows,
                       preview_seconds=preview_seconds), f, indent=2)
    print(text, end="")


if __name__ == "__main__":
    main()
