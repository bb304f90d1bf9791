"""Kernel, Posterior, sampling and SamplePath against direct NumPy evaluations of docs/mathematics.md §1."""

import numpy as np
import pytest

import gpdp


def reference_posterior(k, X, y, xs, r, sigma):
    """μ_D and σ² k_D(x, x) by the docs/mathematics.md §1 formulas with NumPy (independent of the C++ code)."""
    K = k(X, X) + r * r * np.eye(len(X))
    kx = k(xs, X)
    mean = kx @ np.linalg.solve(K, y)
    var = sigma**2 * (1 - np.einsum("ij,ji->i", kx, np.linalg.solve(K, kx.T)))
    return mean, var


def exp_kernel(ell):
    return lambda A, B: np.exp(-np.linalg.norm(A[:, None, :] - B[None, :, :], axis=-1) / ell)


def se_kernel(ell):
    return lambda A, B: np.exp(-np.sum((A[:, None, :] - B[None, :, :]) ** 2, axis=-1) / (2 * ell**2))


@pytest.mark.parametrize(
    "make,ref",
    [(gpdp.Kernel.exponential, exp_kernel), (gpdp.Kernel.squared_exponential, se_kernel)],
)
def test_posterior_matches_numpy_formulas(data_2d, make, ref):
    X, y = data_2d
    xs = np.random.default_rng(3).uniform(0, 1, (25, 2))
    post = gpdp.Posterior(make(0.4), X, y, r=0.5, sigma=1.7)
    mean, var = reference_posterior(ref(0.4), X, y, xs, 0.5, 1.7)
    np.testing.assert_allclose(post.mean(xs), mean, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(post.variance(xs), var, rtol=1e-8, atol=1e-11)
    np.testing.assert_allclose(np.diag(post.covariance(xs)), var, rtol=1e-8, atol=1e-11)
    from scipy.stats import norm

    np.testing.assert_allclose(post.excursion_probability(xs, 0.1),
                               norm.cdf((mean - 0.1) / np.sqrt(var)), rtol=1e-8, atol=1e-12)
    K = ref(0.4)(X, X)
    d_eff = np.trace(K @ np.linalg.inv(K + 0.25 * np.eye(len(X))))
    assert post.effective_dimension() == pytest.approx(d_eff, rel=1e-9)


def test_markov_engine_1d_matches_dense_formula(data_1d):
    X, y = data_1d
    xs = np.linspace(0, 1, 33)
    post = gpdp.Posterior(gpdp.Kernel.exponential(0.3), X, y, r=0.4, sigma=1.0)
    mean, var = reference_posterior(exp_kernel(0.3), X[:, None], y, xs[:, None], 0.4, 1.0)
    np.testing.assert_allclose(post.mean(xs), mean, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(post.variance(xs), var, rtol=1e-7, atol=1e-10)


def test_kernel_kappa_and_values():
    k = gpdp.Kernel.exponential(2.0)
    # κ on [0,1]² is exp(−√2/ℓ) (docs/mathematics.md §2).
    assert k.kappa([0, 0], [1, 1]) == pytest.approx(np.exp(-np.sqrt(2) / 2.0), rel=1e-14)
    assert k.kappa(0.0, 1.0) == pytest.approx(np.exp(-0.5), rel=1e-14)
    assert gpdp.Kernel.diagonal().kappa(0, 1) == 0.0
    assert gpdp.Kernel.constant().kappa(0, 1) == 1.0
    A = np.array([[0.0, 0.0], [0.3, 0.4]])
    np.testing.assert_allclose(k.cross(A, A), [[1, np.exp(-0.25)], [np.exp(-0.25), 1]], rtol=1e-14)


def test_input_errors_are_clear(data_2d):
    X, y = data_2d
    k = gpdp.Kernel.squared_exponential(0.5)
    with pytest.raises(TypeError, match="X must be a float64 array, got dtype int64"):
        gpdp.Posterior(k, X.astype(np.int64), y, r=1.0)
    with pytest.raises(TypeError, match="y must be a float64 array, got dtype float32"):
        gpdp.Posterior(k, X, y.astype(np.float32), r=1.0)
    # Shapes that convert are checked by the library itself (gpdp.InputError, also a ValueError).
    with pytest.raises(gpdp.InputError, match="60 covariate rows but 59 responses"):
        gpdp.Posterior(k, X, y[:-1], r=1.0)
    with pytest.raises(ValueError, match="y must be 1-D, got 2-D"):
        gpdp.Posterior(k, X, y[:, None], r=1.0)
    with pytest.raises(ValueError, match="X must be 2-D .* got 3-D"):
        gpdp.Posterior(k, X[:, :, None], y, r=1.0)
    post = gpdp.Posterior(k, X, y, r=1.0)
    for query in (post.mean, post.variance, post.covariance, post.sample_path()):
        with pytest.raises(gpdp.InputError, match=r"3 coordinate\(s\) but the data have 2"):
            query(np.zeros((4, 3)))
    with pytest.raises(gpdp.InputError, match="3 coordinate"):
        post.sample(np.zeros((4, 3)), rng=gpdp.SeededRng(1))
    with pytest.raises(gpdp.InputError, match="1 coordinate"):
        post.sample(gpdp.Grid("0:1:5"), rng=gpdp.SeededRng(1))
    with pytest.raises(TypeError, match="rng must be a gpdp.SeededRng"):
        post.sample(X[:3], rng=np.random.default_rng(1))
    # Library errors: gpdp.InputError is a ValueError carrying the C++ message.
    with pytest.raises(gpdp.InputError) as info:
        gpdp.Posterior(k, X, y, r=-1.0)
    assert isinstance(info.value, ValueError) and "r" in str(info.value)
    with pytest.raises(gpdp.InputError, match="expected auto, dense"):
        post.sample(X[:3], method="fastest", rng=gpdp.SeededRng(1))
    with pytest.raises(gpdp.InputError, match="number of draws must be ≥ 1"):
        post.sample(X[:3], n_draws=0, rng=gpdp.SeededRng(1))


def test_library_errors_are_one_hierarchy():
    # docs/python.md "Errors": every library exception is a gpdp.Error (a RuntimeError); the three
    # kinds are also the matching built-in exceptions.
    assert issubclass(gpdp.Error, RuntimeError)
    for kind in (gpdp.InputError, gpdp.PrivacyError, gpdp.NumericalError, gpdp.ResourceError):
        assert issubclass(kind, gpdp.Error) and kind.__module__ == "gpdp"
    assert issubclass(gpdp.InputError, ValueError)
    assert issubclass(gpdp.NumericalError, ArithmeticError)
    assert issubclass(gpdp.ResourceError, MemoryError)
    with pytest.raises(gpdp.InputError, match="width"):
        gpdp.experiments.hexbin(np.zeros((3, 2)), np.zeros(3), box=gpdp.Box.parse("0:1,0:1"), width=0.0)
    with pytest.raises(gpdp.InputError, match="releases must be ≥ 1"):
        gpdp.privacy.Accountant().compose(
            gpdp.privacy.GpMechanism(kernel=gpdp.Kernel.exponential(0.5), n=10, r=1.0), count=0)
    with pytest.raises(gpdp.InputError, match="nothing to account"):
        gpdp.privacy.Accountant().get_epsilon(0.01)


def test_layouts_give_identical_results(data_2d):
    X, y = data_2d
    post = gpdp.Posterior(gpdp.Kernel.matern32(0.3), X, y, r=0.5)
    xs = np.random.default_rng(5).uniform(0, 1, (50, 2))
    ref = post.mean(xs)
    np.testing.assert_array_equal(post.mean(np.asfortranarray(xs)), ref)
    np.testing.assert_array_equal(post.mean(np.repeat(xs, 2, axis=0)[::2]), ref)  # row stride 2
    wide = np.zeros((50, 4))
    wide[:, 1:3] = xs
    np.testing.assert_array_equal(post.mean(wide[:, 1:3]), ref)  # strided view, read in place
    np.testing.assert_array_equal(post.mean(xs.tolist()), ref)  # lists are converted


def test_seeded_sampling_is_reproducible_and_secure_is_default(data_2d):
    X, y = data_2d
    post = gpdp.Posterior(gpdp.Kernel.exponential(0.5), X, y, r=0.5)
    xs = X[:10]
    a = post.sample(xs, n_draws=4, rng=gpdp.SeededRng(42))
    b = post.sample(xs, n_draws=4, rng=gpdp.SeededRng(42))
    assert a.shape == (10, 4)
    np.testing.assert_array_equal(a, b)
    c = post.sample(xs, n_draws=4)  # rng=None: SecureRng
    assert not np.array_equal(a, c)
    assert gpdp.SecureRng().is_secure and not gpdp.SeededRng(1).is_secure
    assert "NOT private" in gpdp.SeededRng(1).description


def test_sample_moments_match_posterior(data_1d):
    # 4000 draws: the sample mean of each coordinate lies within 5 standard errors of μ_D
    # (false alarm < 1e-5 per coordinate) and the variance within 15 % (≈ 6.7 SE).
    X, y = data_1d
    post = gpdp.Posterior(gpdp.Kernel.squared_exponential(0.2), X, y, r=0.3, sigma=0.8)
    xs = np.linspace(0, 1, 7)
    draws = post.sample(xs, n_draws=4000, rng=gpdp.SeededRng(9))
    mu, var = post.mean(xs), post.variance(xs)
    assert np.all(np.abs(draws.mean(axis=1) - mu) < 5 * np.sqrt(var / 4000))
    np.testing.assert_allclose(draws.var(axis=1, ddof=1), var, rtol=0.15)


def test_sample_path_is_consistent_and_conditional(data_2d):
    X, y = data_2d
    post = gpdp.Posterior(gpdp.Kernel.squared_exponential(0.3), X, y, r=0.5)
    path = post.sample_path(rng=gpdp.SeededRng(3))
    xs1 = np.array([[0.2, 0.2], [0.5, 0.5]])
    v1 = path(xs1)
    v2 = path(np.array([[0.5, 0.5], [0.21, 0.2], [0.2, 0.2]]))
    assert v2[0] == v1[1] and v2[2] == v1[0]  # a point asked twice returns the same value
    assert len(path) == 3
    np.testing.assert_array_equal(path.points[:2], xs1)
    # Conditioning: a nearby point (distance 0.01, ℓ = 0.3) is strongly tied to the answered one.
    assert abs(v2[1] - v1[0]) < 0.2


def test_grid_sampling_and_grid_object(data_1d):
    X, y = data_1d
    grid = gpdp.Grid("0:1:11")
    assert grid.size == 11 and grid.shape == (11,)
    np.testing.assert_allclose(grid.points()[:, 0], np.linspace(0, 1, 11))
    post = gpdp.Posterior(gpdp.Kernel.exponential(0.3), X, y, r=0.5)
    vals, method, _ = post.sample(grid, n_draws=2, rng=gpdp.SeededRng(1), full_output=True)
    assert vals.shape == (11, 2) and method == "markov"
    g2 = gpdp.Grid("0:1:3,0:2:4")
    assert g2.shape == (3, 4)
    pts = g2.points()
    np.testing.assert_allclose(pts[:3, 0], [0, 0.5, 1])  # first axis fastest
    np.testing.assert_allclose(pts[::3, 1], np.linspace(0, 2, 4))
