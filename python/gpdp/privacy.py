"""Rényi-DP accounting of GP posterior sampling (docs/mathematics.md §2), shaped like Google's dp_accounting.

A release is described as data (GpMechanism, the "event"); an Accountant composes events and
answers ε(δ) and δ(ε):

    mech = GpMechanism(kernel=Kernel.exponential(1.0), n=100, r=1.0, sigma=1.0, lemma="b7")
    acc = Accountant().compose(mech, count=3)
    acc.get_epsilon(1e-5, conversion="cks")    # float
    acc.epsilon(1e-5)                          # Guarantee: epsilon, alpha, rdp, note, ...
    calibrate(mech, solve="r", epsilon=1.0, delta=1e-5).value

conversion: "mironov" (Mironov 2017 Prop. 3, the paper's) or "cks" (Canonne–Kamath–Steinke 2020 /
Balle et al. 2020, tighter). Every result states which was used (Guarantee.conversion).
"""

from ._core.privacy import (
    Accountant,
    Calibration,
    GpMechanism,
    Guarantee,
    RdpCurve,
    ResolvedBounds,
    account,
    calibrate,
    conversion_citation,
    gp_alpha_max,
    gp_rdp,
    lemma_assumptions,
    noisy_tau,
    phi_n,
    posterior_variance_scale,
    psi_alpha,
)

__all__ = [
    "Accountant",
    "Calibration",
    "GpMechanism",
    "Guarantee",
    "RdpCurve",
    "ResolvedBounds",
    "account",
    "calibrate",
    "conversion_citation",
    "gp_alpha_max",
    "gp_rdp",
    "lemma_assumptions",
    "noisy_tau",
    "phi_n",
    "posterior_variance_scale",
    "psi_alpha",
]
