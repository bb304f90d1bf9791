"""gpdp.attack and gpdp.experiments bindings: seeded determinism and basic sanity on small sizes
(the science is tested in the C++ suites; here: the bindings pass arguments and results through)."""

import numpy as np
import pytest

import gpdp
from gpdp.attack import ReleaseSetting, lira


def test_lira_is_seeded_and_sane():
    releases = [ReleaseSetting(sigma=1.0, draws=1), ReleaseSetting(sigma=float("inf"), draws=2)]
    a = lira(r=0.5, releases=releases, seed=3, shadow=300, eval=300)
    b = lira(r=0.5, releases=releases, seed=3, shadow=300, eval=300)
    assert len(a) == 2
    for x, y in zip(a, b):
        assert x.auc == y.auc and x.tpr == y.tpr
        np.testing.assert_array_equal(x.roc, y.roc)
        assert 0.0 <= x.auc <= 1.0
        assert x.roc[0].tolist() == [0.0, 0.0] and x.roc[-1].tolist() == [1.0, 1.0]
    assert "inf" in a[1].release.label and "L=2" in a[1].release.label
    with pytest.raises(gpdp.InputError):
        lira(r=0.5, releases=releases, seed=3, noise=1.5, shadow=10, eval=10)


def test_roc_helpers_on_known_scores():
    # Perfectly separated scores: AUC 1, TPR 1 at every FPR level.
    assert gpdp.attack.auc([3.0, 4.0], [1.0, 2.0]) == 1.0
    assert gpdp.attack.tpr_at_fpr([3.0, 4.0], [1.0, 2.0], 0.1) == 1.0
    roc = gpdp.attack.roc_curve([1.0, 2.0], [1.0, 2.0])
    assert roc.shape[1] == 2
    assert gpdp.attack.dp_max_tpr(0.1, 0.0, 0.0) == pytest.approx(0.1)


def test_excursion_building_blocks():
    grid = gpdp.Grid("0:1:101")
    w = gpdp.experiments.trapezoid_weights(grid)
    assert w.sum() == pytest.approx(1.0)
    pair = gpdp.experiments.field_1d(grid, n=50, nsr=1.0, rng=gpdp.SeededRng(1))
    again = gpdp.experiments.field_1d(grid, n=50, nsr=1.0, rng=gpdp.SeededRng(1))
    np.testing.assert_array_equal(pair["y"], again["y"])
    assert pair["X"].shape == (50, 1) and np.abs(pair["y"]).max() <= 1.0
    paths = np.array([[1.0, -1.0, 1.0], [-1.0, -1.0, 1.0]])
    fractions = gpdp.release.vote_fraction(paths, 0.0)
    np.testing.assert_array_equal(fractions, [2 / 3, 1 / 3])
    np.testing.assert_array_equal(gpdp.release.vote_set(fractions, 0.5), [1.0, 0.0])
    with pytest.raises(gpdp.InputError):
        gpdp.release.vote_set(fractions, 0.0)
    field = np.full((grid.size, 2), 3.0)
    field[50, 1] = np.nan  # a blank cell stays blank; the others keep the constant
    smoothed = gpdp.release.smooth_fields(field, grid, 0.05)
    assert np.isnan(smoothed[50, 1]) and np.nanmax(np.abs(smoothed - 3.0)) < 1e-12
    a = np.array([1.0, 1.0, 0.0])
    assert gpdp.experiments.intersection_over_union(a, a, np.ones(3)) == 1.0
    eps = gpdp.experiments.excursion_epsilon(ell=0.5, r=1.0, sigma=1.0, n=100)
    mech = gpdp.privacy.GpMechanism(kernel=gpdp.Kernel.exponential(0.5), n=100, r=1.0, lemma="b7")
    assert eps == gpdp.privacy.Accountant().compose(mech).get_epsilon(0.005, conversion="mironov")


def test_excursion_study_small():
    out = gpdp.experiments.excursion(n=50, nsr=0.43, pairs=3, validation_pairs=3, releases=2,
                                     refinement_rounds=0, grid="0:1:101", threads=1)
    again = gpdp.experiments.excursion(n=50, nsr=0.43, pairs=3, validation_pairs=3, releases=2,
                                       refinement_rounds=0, grid="0:1:101", threads=2)
    assert out["theta_private"] == again["theta_private"]
    np.testing.assert_array_equal(out["pairs"]["iou_release_mean"], again["pairs"]["iou_release_mean"])
    assert out["epsilon_private"] < 10.0
    assert "d_eff" in out["table_markdown"]
