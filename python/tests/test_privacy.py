"""gpdp.privacy against a direct NumPy/SciPy evaluation of docs/mathematics.md §2 (reference_rdp.py)."""

import numpy as np
import pytest

import gpdp
from gpdp.privacy import Accountant, GpMechanism, calibrate
import reference_rdp as ref

CASES = [  # (kernel, dim, n, r, sigma, eta, lemma, draws)
    (gpdp.Kernel.exponential(1.0), 1, 100, 1.0, 1.0, 0.0, "b7", 1),
    (gpdp.Kernel.exponential(0.3), 1, 400, 0.5, 2.0, 0.0, "b7", 5),
    (gpdp.Kernel.exponential(0.5), 2, 400, 2.0, 1.0, 0.0, "b1", 1),
    (gpdp.Kernel.exponential(0.5), 2, 50, 0.8, 3.0, 0.5, "b1", 3),
]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("conversion", ["mironov", "cks"])
def test_accountant_matches_direct_formula(case, conversion):
    kernel, dim, n, r, sigma, eta, lemma, draws = case
    mech = GpMechanism(kernel=kernel, dim=dim, n=n, r=r, sigma=sigma, eta=eta, lemma=lemma)
    kappa = np.exp(-np.sqrt(dim) / kernel.lengthscale)
    V = ref.v_bar(kappa, n, r)
    Delta = ref.delta_b7(r, V) if lemma == "b7" else ref.delta_b1(n, r, V)
    b = mech.bounds()
    assert b.kappa == pytest.approx(kappa, rel=1e-13)
    assert b.Vn == pytest.approx(V, rel=1e-13)
    assert b.Delta_n == pytest.approx(Delta, rel=1e-12)
    alphas = 1 + np.array([0.01, 0.3, 0.9]) * (ref.alpha_max(V, r, sigma, eta) - 1)
    np.testing.assert_allclose(mech.rdp(alphas), ref.eps_alpha(alphas, V, Delta, r, sigma, eta),
                               rtol=1e-11)
    g = Accountant().compose(mech, count=draws).epsilon(1e-5, conversion)
    want, _ = ref.epsilon(V, Delta, r, sigma, draws, 1e-5, conversion, eta)
    # The accountant's optimiser must find the minimum found by the dense scan + Brent (or lower).
    assert g.epsilon <= want * (1 + 1e-9)
    assert g.epsilon >= want * (1 - 1e-6)


def test_accountant_shape_and_inverse():
    mech = GpMechanism(kernel=gpdp.Kernel.exponential(1.0), n=100, r=1.0, sigma=1.0, lemma="b7")
    acc = Accountant()
    assert acc.compose(mech, count=2) is acc  # chaining, as dp_accounting
    acc.compose(mech)
    assert acc.total_releases == 3
    eps = acc.get_epsilon(1e-5, "mironov")
    assert acc.get_delta(eps, "mironov") == pytest.approx(1e-5, rel=1e-6)
    assert acc.get_epsilon(1e-5) == acc.get_epsilon(1e-5, "cks")  # the one default
    three = Accountant().compose(mech, count=3)
    assert three.get_epsilon(1e-5, conversion="cks") == acc.get_epsilon(1e-5, "cks")
    assert acc.get_epsilon(1e-5, "cks") < eps  # CKS is tighter
    assert np.isinf(mech.rdp(mech.alpha_max + 1))


def test_calibration_meets_target_and_errors():
    mech = GpMechanism(kernel=gpdp.Kernel.exponential(0.5), dim=2, n=400, r=1.0, sigma=1.0)
    c = calibrate(mech, solve="r", epsilon=1.0, delta=1e-5)
    assert c.parameter == "r" and c.achieved.epsilon <= 1.0
    # The solution is (nearly) the smallest: 1 % smaller r misses the target.
    smaller = GpMechanism(kernel=gpdp.Kernel.exponential(0.5), dim=2, n=400, r=0.99 * c.value,
                          sigma=1.0)
    assert Accountant().compose(smaller).get_epsilon(1e-5) > 1.0
    with pytest.raises(gpdp.PrivacyError):
        GpMechanism(kernel=gpdp.Kernel.squared_exponential(1.0), n=10, r=1.0, lemma="b7")
    with pytest.raises(gpdp.PrivacyError, match="in d ≥ 2 it is false"):  # docs/privacy.md
        GpMechanism(kernel=gpdp.Kernel.exponential(1.0), dim=2, n=10, r=1.0, lemma="b7")
    with pytest.raises(gpdp.InputError, match="n"):
        GpMechanism(kernel=gpdp.Kernel.exponential(1.0), n=0, r=1.0)
    with pytest.raises(gpdp.InputError):
        Accountant().compose(mech).get_epsilon(1e-5, conversion="renyi")
