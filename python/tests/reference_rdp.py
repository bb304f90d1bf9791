"""Direct NumPy/SciPy evaluation of docs/mathematics.md §2 (Proposition 3, Lemmas B.1/B.7, Lemma A.3, Theorem 3.1,
Proposition 2, Mironov / CKS conversions), written from the formulas, independent of the C++ code.
Shared by the tests and bench/compare_python.py."""

import numpy as np
from scipy.optimize import minimize_scalar


def v_bar(kappa, n, r):
    return 1 - kappa**2 * (n - 1) / (n - 1 + r**2)


def phi(V, r):
    return 1 / (4 * r**2) if V >= r**2 else V / (V + r**2) ** 2


def delta_b1(n, r, V, M_Y=1.0):
    return 2 * M_Y * (1 + np.sqrt(n - 1) / r) * np.sqrt(phi(V, r))


def delta_b7(r, V, M_Y=1.0):
    return 4 * M_Y * np.sqrt(phi(V, r))


def psi(alpha, tau):
    a = 0.5 * np.log1p(tau) - np.log((1 + alpha * tau) / (1 + tau)) / (2 * (alpha - 1))
    b = -0.5 * np.log1p(tau) - np.log(1 - tau * (alpha - 1)) / (2 * (alpha - 1))
    return np.maximum(a, b)


def eps_alpha(alpha, V, Delta, r, sigma, eta=0.0):
    """Proposition 2 (Theorem 3.1 when eta = 0) for one draw."""
    tau = sigma**2 * V / (sigma**2 * r**2 + eta**2 * (V + r**2))
    return 2 * psi(alpha, tau) + alpha * (V + r**2) * Delta**2 / (
        2 * (sigma**2 * (r**2 - (alpha - 1) * V) + eta**2 * (V + r**2)))


def alpha_max(V, r, sigma, eta=0.0):
    tau = sigma**2 * V / (sigma**2 * r**2 + eta**2 * (V + r**2))
    return 1 + 1 / tau


def convert(rdp, alpha, delta, conversion):
    if conversion == "mironov":
        return rdp + np.log(1 / delta) / (alpha - 1)
    return rdp + np.log((alpha - 1) / alpha) - (np.log(delta) + np.log(alpha)) / (alpha - 1)


def epsilon(V, Delta, r, sigma, draws, delta, conversion="mironov", eta=0.0):
    """min over 1 < α < α_max of the converted L ε_α: dense log grid, then bounded Brent."""
    amax = alpha_max(V, r, sigma, eta)
    u = np.geomspace(1e-8, 1 - 1e-12, 20001)  # α = 1 + u (α_max − 1)
    alphas = 1 + u * (amax - 1)
    f = lambda a: convert(draws * eps_alpha(a, V, Delta, r, sigma, eta), a, delta, conversion)
    vals = f(alphas)
    i = int(np.argmin(vals))
    lo, hi = alphas[max(i - 1, 0)], alphas[min(i + 1, len(alphas) - 1)]
    res = minimize_scalar(f, bounds=(lo, hi), method="bounded", options={"xatol": 1e-14})
    return (res.fun, res.x) if res.fun < vals[i] else (vals[i], alphas[i])
