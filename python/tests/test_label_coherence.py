"""bench/label_coherence.py (docs/utility.md, "Label coherence"): the excess agreement is 1 for
labels that always agree with their neighbours, near 0 for coin flips, and the simulated labels
lose coherence as the nugget grows."""
import pathlib
import sys

import numpy as np
from scipy.spatial.distance import pdist

BENCH = pathlib.Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))
try:
    import label_coherence as lc
finally:
    sys.path.pop(0)


def test_excess_agreement_of_coherent_and_random_labels():
    rng = np.random.default_rng(3)
    # Two tight clusters far apart (ℓ = 1), one side each: every close pair agrees.
    X = np.r_[rng.normal(0, 0.01, (60, 2)), rng.normal(10, 0.01, (60, 2))]
    labels = np.r_[np.ones(60, bool), np.zeros(60, bool)]
    k = lc.excess_agreement(pdist(X), labels, 1.0)
    assert k[0] == 1.0
    # Coin flips over the same points: chance agreement. Within a cluster of 60 with a share
    # z standard deviations off ½, κ ≈ 0.017 (z² − 1): |κ| < 0.1 unless a share is 2.4 sd off.
    flips = lc.excess_agreement(pdist(X), rng.random(120) < 0.5, 1.0)
    assert abs(flips[0]) < 0.1


def test_simulated_coherence_falls_with_the_nugget():
    rng = np.random.default_rng(4)
    X = rng.random((300, 2))
    d = pdist(X)
    coherent = lc.simulated(X, d, 0.4, 0.3, 0.0, rng)
    nugget = lc.simulated(X, d, 0.4, 0.3, 0.5, rng)
    assert coherent[1] > 0.3
    assert nugget[1] < coherent[1] - 0.2
