#!/usr/bin/env python3
"""gpdp (Python bindings) vs scikit-learn's GaussianProcessRegressor on the same data, in one
process, plus gpdp's accountant vs a direct NumPy/SciPy evaluation of Theorem 3.1 (docs/mathematics.md §2).

    .venv/bin/python bench/compare_python.py [--quick]

The same model on both sides: prior GP(0, σ² k) with k = exp(−‖x − x'‖/ℓ) (scikit-learn:
ConstantKernel(σ²) * Matern(ℓ, ν = 0.5)), noise variance λ² = σ² r² (alpha), no hyperparameter
optimisation, no normalisation. Prints wall-clock time ratios (scikit-learn / gpdp, median of
repeats, same run) and the max |difference| of the means and standard deviations.
"""

import argparse
import pathlib
import statistics
import sys
import time

import numpy as np
from sklearn.gaussian_process import GaussianProcessRegressor
from sklearn.gaussian_process.kernels import ConstantKernel, Matern

import gpdp

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "python" / "tests"))
import reference_rdp as ref  # noqa: E402


def timed(f, repeats):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def compare_regression(dim, n, m, m_sample, draws, ell, r, sigma, repeats):
    rng = np.random.default_rng(dim * 1000 + n)
    X = rng.uniform(0, 1, (n, dim))
    y = np.clip(np.sin(6 * X[:, 0]) + 0.3 * rng.standard_normal(n), -1, 1)
    xs = rng.uniform(0, 1, (m, dim))
    xs_sample = rng.uniform(0, 1, (m_sample, dim))

    def fit_gpdp():
        post = gpdp.Posterior(gpdp.Kernel.exponential(ell), X, y, r=r, sigma=sigma)
        return post, post.mean(xs), np.sqrt(post.variance(xs))

    def fit_sklearn():
        k = ConstantKernel(sigma**2, "fixed") * Matern(ell, "fixed", nu=0.5)
        gp = GaussianProcessRegressor(k, alpha=sigma**2 * r**2, optimizer=None, normalize_y=False)
        gp.fit(X, y)
        mean, std = gp.predict(xs, return_std=True)
        return gp, mean, std

    t_g, (post, mean_g, std_g) = timed(fit_gpdp, repeats)
    t_s, (gp, mean_s, std_s) = timed(fit_sklearn, repeats)
    label = f"{dim}-D n={n}"
    print(f"{label:>12}  fit+predict(mean,std) at m={m}: sklearn {t_s:8.4f} s  gpdp {t_g:8.4f} s  "
          f"ratio {t_s / t_g:7.1f}x   max|Δmean| {np.abs(mean_g - mean_s).max():.2e}  "
          f"max|Δstd| {np.abs(std_g - std_s).max():.2e}")

    t_gs, d_g = timed(lambda: post.sample(xs_sample, n_draws=draws, rng=gpdp.SeededRng(1)), repeats)
    t_ss, d_s = timed(lambda: gp.sample_y(xs_sample, n_samples=draws, random_state=1), repeats)
    # Sanity of both samplers: the draws' mean is near the posterior mean (not an exactness test).
    mu = post.mean(xs_sample)
    print(f"{label:>12}  sample {draws} paths at m={m_sample}:     sklearn {t_ss:8.4f} s  gpdp "
          f"{t_gs:8.4f} s  ratio {t_ss / t_gs:7.1f}x   max|draw mean − μ| gpdp "
          f"{np.abs(d_g.mean(1) - mu).max():.2f} sklearn {np.abs(d_s.mean(1) - mu).max():.2f}")


def compare_accountant():
    print("\naccountant vs direct NumPy/SciPy Theorem 3.1 (dense α scan + bounded Brent):")
    print(f"{'setting':>44}  {'gpdp ε':>12}  {'NumPy ε':>12}  {'rel. diff':>9}")
    worst = 0.0
    for dim, n, r, sigma, draws, conv, lemma in [(1, 100, 1.0, 1.0, 1, "mironov", "b7"),
                                                  (1, 400, 0.3, 2.0, 10, "cks", "b7"),
                                                  (2, 400, 2.0, 1.0, 1, "mironov", "b1"),
                                                  (2, 1000, 5.0, 0.5, 3, "cks", "b1")]:
        ell = 0.5
        kernel = gpdp.Kernel.exponential(ell)
        mech = gpdp.privacy.GpMechanism(kernel=kernel, dim=dim, n=n, r=r, sigma=sigma, lemma=lemma)
        got = gpdp.privacy.Accountant().compose(mech, count=draws).get_epsilon(1e-5, conv)
        V = ref.v_bar(np.exp(-np.sqrt(dim) / ell), n, r)
        D = ref.delta_b7(r, V) if lemma == "b7" else ref.delta_b1(n, r, V)
        want, _ = ref.epsilon(V, D, r, sigma, draws, 1e-5, conv)
        rel = (got - want) / want
        worst = max(worst, abs(rel))
        setting = f"d={dim} n={n} r={r} σ={sigma} L={draws} {lemma} {conv}"
        print(f"{setting:>44}  {got:12.8f}  {want:12.8f}  {rel:+9.1e}")
    print(f"max relative difference {worst:.1e} (negative: gpdp found a lower minimum)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    a = ap.parse_args()
    repeats = 1 if a.quick else 3
    scale = 4 if a.quick else 1
    print(f"gpdp {gpdp.__version__}; times are medians of {repeats} run(s) in this process\n")
    compare_regression(1, 2000 // scale, 20000 // scale, 1000 // scale, 5, 0.3, 0.5, 1.0, repeats)
    compare_regression(2, 2000 // scale, 20000 // scale, 1000 // scale, 5, 0.3, 0.5, 1.0, repeats)
    compare_accountant()


if __name__ == "__main__":
    main()
