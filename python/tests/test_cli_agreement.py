"""The Python API gives the same numbers as the CLI for the same inputs and seeds (bit for bit:
the CLI writes shortest round-trip decimals and JSON)."""

import json

import numpy as np
import pytest

import gpdp
from conftest import read_csv, write_csv


@pytest.fixture
def files_2d(tmp_path, data_2d):
    X, y = data_2d
    data = write_csv(tmp_path / "train.csv", ["x1", "x2", "y"], np.column_stack([X, y]))
    pts = np.random.default_rng(2).uniform(0, 1, (30, 2))
    points = write_csv(tmp_path / "points.csv", ["x1", "x2"], pts)
    return data, points, X, y, pts


def test_sample_points_matches_cli(cli, tmp_path, files_2d):
    data, points, X, y, pts = files_2d
    out = tmp_path / "draws.csv"
    cli("sample", "--data", data, "--kernel", "se", "--ell", 0.3, "--r", 0.5, "--sigma", 1.5,
        "--points", points, "--draws", 3, "--seed", 12345, "--out", out)
    header, table = read_csv(out)
    assert header == ["x1", "x2", "draw1", "draw2", "draw3"]
    post = gpdp.Posterior(gpdp.Kernel.squared_exponential(0.3), X, y, r=0.5, sigma=1.5)
    draws = post.sample(pts, n_draws=3, rng=gpdp.SeededRng(12345))
    np.testing.assert_array_equal(draws, table[:, 2:])


@pytest.mark.parametrize("kernel,make,eta", [("exp", gpdp.Kernel.exponential, 0.0),
                                             ("matern52", gpdp.Kernel.matern52, 0.2)])
def test_sample_grid_matches_cli(cli, tmp_path, data_1d, kernel, make, eta):
    X, y = data_1d
    data = write_csv(tmp_path / "train.csv", ["x1", "y"], np.column_stack([X, y]))
    out = tmp_path / "draws.csv"
    cli("sample", "--data", data, "--kernel", kernel, "--ell", 0.25, "--r", 0.7, "--sigma", 1.0,
        "--eta", eta, "--grid", "0:1:64", "--draws", 2, "--seed", 7, "--out", out)
    _, table = read_csv(out)
    post = gpdp.Posterior(make(0.25), X, y, r=0.7, sigma=1.0)
    draws = post.sample(gpdp.Grid("0:1:64"), n_draws=2, rng=gpdp.SeededRng(7), eta=eta)
    np.testing.assert_array_equal(draws, table[:, 1:])


def test_posterior_matches_cli(cli, tmp_path, files_2d):
    data, points, X, y, pts = files_2d
    out = tmp_path / "post.csv"
    cli("posterior", "--data", data, "--kernel", "matern32", "--ell", 0.4, "--r", 0.3,
        "--sigma", 2.0, "--points", points, "--threshold", 0.1, "--out", out)
    header, table = read_csv(out)
    assert header == ["x1", "x2", "mean", "variance", "p_exceed"]
    post = gpdp.Posterior(gpdp.Kernel.matern32(0.4), X, y, r=0.3, sigma=2.0)
    np.testing.assert_array_equal(post.mean(pts), table[:, 2])
    np.testing.assert_array_equal(post.variance(pts), table[:, 3])
    np.testing.assert_array_equal(post.excursion_probability(pts, 0.1), table[:, 4])


@pytest.mark.parametrize("conversion", ["mironov", "cks"])
def test_account_matches_cli(cli, conversion):
    proc = cli("account", "--kernel", "exp1d", "--ell", 1, "--n", 100, "--r", 1, "--sigma", 1,
               "--sensitivity", "b7", "--draws", 3, "--delta", 1e-5, "--conversion", conversion,
               "--json")
    j = json.loads(proc.stdout)
    mech = gpdp.privacy.GpMechanism(kernel=gpdp.Kernel.exponential(1.0), n=100, r=1.0, sigma=1.0,
                                    lemma="b7")
    g = gpdp.privacy.Accountant().compose(mech, count=3).epsilon(1e-5, conversion)
    assert g.epsilon == j["epsilon"] and g.alpha == j["alpha"] and g.rdp == j["rdp"]
    b = mech.bounds()
    assert (b.Vn, b.Delta_n, b.kappa, b.tau) == (j["Vn"], j["Delta_n"], j["kappa"], j["tau"])
    assert g.conversion == j["conversion"] == conversion


def test_calibrate_matches_cli(cli):
    proc = cli("calibrate", "--kernel", "se", "--ell", 0.5, "--dim", 2, "--n", 400, "--r", 1,
               "--sigma", 1, "--sensitivity", "b1", "--draws", 2, "--delta", 1e-5, "--solve", "r",
               "--target-epsilon", 1, "--json")
    j = json.loads(proc.stdout)
    mech = gpdp.privacy.GpMechanism(kernel=gpdp.Kernel.squared_exponential(0.5), dim=2, n=400,
                                    r=1.0, sigma=1.0, lemma="b1")
    c = gpdp.privacy.calibrate(mech, solve="r", epsilon=1.0, delta=1e-5, draws=2)
    assert c.value == j["value"] and c.achieved.epsilon == j["epsilon"]
    assert c.achieved.epsilon <= 1.0


def test_search_public_data_matches_cli(cli, tmp_path, data_1d):
    X, y = data_1d
    train = write_csv(tmp_path / "train.csv", ["x1", "y"], zip(X[::2], y[::2]))
    val = write_csv(tmp_path / "val.csv", ["x1", "y"], zip(X[1::2], y[1::2]))
    proc = cli("search", "--data", train, "--validation", val, "--n", 200, "--target-epsilon", 5,
               "--refine", 1, "--json")
    j = json.loads(proc.stdout)
    r = gpdp.experiments.search_public_data(X[::2, None], y[::2], X[1::2, None], y[1::2], n=200,
                                            target_epsilon=5.0, refinement_rounds=1)
    for side in ("unconstrained", "private"):
        for key in ("ell", "r", "sigma", "mean_bce", "cutoff_C", "validation_iou"):
            assert r[side][key] == j[side][key], (side, key)
    assert r["private"]["epsilon"] == j["private"]["epsilon"] < 5.0
    assert r["delta"] == j["delta"] == pytest.approx(200 ** -1.1)
    with pytest.raises(gpdp.InputError):
        gpdp.experiments.search_public_data(X[:, None], 2 * y, X[:, None], y)


def test_hexbin_matches_cli(cli, tmp_path):
    rng = np.random.default_rng(5)
    xy = rng.uniform([0, 0], [10, 6], (500, 2))
    value = np.sin(xy[:, 0]) + xy[:, 1]
    data = write_csv(tmp_path / "pts.csv", ["x", "y", "v"], np.column_stack([xy, value]))
    out = tmp_path / "hex.csv"
    cli("hexbin", "--data", data, "--x", "x", "--y", "y", "--value", "v", "--box", "0:10,0:6",
        "--cell-width", 1.5, "--out", out)
    header, table = read_csv(out)
    h = gpdp.experiments.hexbin(xy, value, box=gpdp.Box.parse("0:10,0:6"), width=1.5)
    col = {name: table[:, i] for i, name in enumerate(header)}
    np.testing.assert_array_equal(h["column"], col["column"])
    np.testing.assert_array_equal(h["row"], col["row"])
    np.testing.assert_array_equal(h["median"], col["median"])
    np.testing.assert_array_equal(h["count"], col["count"])
    np.testing.assert_array_equal(h["unit"][:, 0], col["u"])
    assert h["count"].sum() + h["dropped_outside"] == 500
    # Each point's own hexagon: the nearest centre (spot check against brute force).
    i = int(np.argmax(h["count"]))
    centres = h["centre"]
    members = [p for p in xy if np.argmin(((centres - p) ** 2).sum(1)) == i]
    assert len(members) == h["count"][i]
