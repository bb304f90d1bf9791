"""gpdp.mechanisms: a release prepared once and drawn with seeds is what `gpdp release
--insecure-seed` publishes on the same records and points (draws, released set, ε), value for
value (the CLI writes shortest round-trip decimals)."""

import json

import numpy as np
import pytest

import gpdp
from conftest import read_csv, write_csv


@pytest.fixture
def records(tmp_path):
    rng = np.random.default_rng(11)
    X = rng.uniform(0, 1, (80, 2))
    raw = np.exp(1.0 + 2.0 * np.sin(4 * X[:, 0]) * X[:, 1] + 0.3 * rng.standard_normal(80))
    data = write_csv(tmp_path / "d.csv", ["x1", "x2", "y"], np.column_stack([X, raw]))
    pts = rng.uniform(0, 1, (25, 2))
    points = write_csv(tmp_path / "pts.csv", ["x1", "x2"], pts)
    return X, raw, pts, data, points


INPUT = {"domain": "0:1,0:1", "M_Y": 1, "transform": "log", "center": 1.0, "scale": 2.0}


@pytest.mark.parametrize("options,flags", [
    ({"kernel": "exp", "ell": 0.3, "sigma": 0.5, "target_epsilon": 3, "delta": 1e-3,
      "threshold": 1.2},
     ["--kernel", "exp", "--ell", 0.3, "--sigma", 0.5, "--target-epsilon", 3, "--delta", 1e-3,
      "--threshold", 1.2]),
    ({"kernel": "matern32", "ell": 0.3, "r": 2.0, "sigma": 0.5, "draws": 3, "vote_cutoff": 0.6,
      "delta": 1e-3, "threshold": 1.2, "sensitivity": "b1-sharp"},
     ["--kernel", "matern32", "--ell", 0.3, "--r", 2.0, "--sigma", 0.5, "--draws", 3,
      "--vote-cutoff", 0.6, "--delta", 1e-3, "--threshold", 1.2, "--sensitivity", "b1-sharp"]),
    ({"mechanism": "functional", "kernel": "exp", "ell": 0.3, "r": 3.0, "target_epsilon": 2,
      "solve": "noise", "delta": 1e-3, "threshold": 1.2},
     ["--mechanism", "functional", "--kernel", "exp", "--ell", 0.3, "--r", 3.0,
      "--target-epsilon", 2, "--solve", "noise", "--delta", 1e-3, "--threshold", 1.2]),
    ({"mechanism": "grid-mean", "kernel": "exp", "ell": 0.3, "sigma": 0.5, "target_epsilon": 3,
      "delta": 1e-3, "threshold": 1.2, "cells": "4,3"},
     ["--mechanism", "grid-mean", "--kernel", "exp", "--ell", 0.3, "--sigma", 0.5,
      "--target-epsilon", 3, "--delta", 1e-3, "--threshold", 1.2, "--cells", "4,3"]),
    ({"mechanism": "grid-mean", "kernel": "exp", "ell": 0.3, "sigma": 0.5, "target_epsilon": 3,
      "delta": 1e-3, "threshold": 1.2, "cells": "4,3", "grid_map": "cells"},
     ["--mechanism", "grid-mean", "--kernel", "exp", "--ell", 0.3, "--sigma", 0.5,
      "--target-epsilon", 3, "--delta", 1e-3, "--threshold", 1.2, "--cells", "4,3",
      "--grid-map", "cells"]),
    ({"kernel": "exp", "ell": 0.3, "sigma": 0.05, "target_epsilon": 5, "delta": 1e-3,
      "threshold": 1.2, "prior_mean": "dp:0.2", "draws": 3, "vote_cutoff": 0.5},
     ["--kernel", "exp", "--ell", 0.3, "--sigma", 0.05, "--target-epsilon", 5, "--delta", 1e-3,
      "--threshold", 1.2, "--prior-mean", "dp:0.2", "--draws", 3, "--vote-cutoff", 0.5]),
])
def test_seam_equals_cli_release(cli, tmp_path, records, options, flags):
    X, raw, pts, data, points = records
    out = tmp_path / "rel"
    cli("release", "--data", data, "--x", "x1,x2", "--y", "y", "--domain", "0:1,0:1",
        "--transform", "log", "--center", 1.0, "--scale", 2.0, "--points", points, *flags,
        "--dataset", "seam", "--ledger", tmp_path / "l.sqlite", "--out", out,
        "--insecure-seed", 9)
    header, table = read_csv(out / "draws.csv")
    L = options.get("draws", 1)
    published = table[:, header.index("draw_1"):header.index("draw_1") + L]
    in_set = table[:, header.index("in_set")]
    cert = json.loads((out / "certificate.json").read_text())

    prep = gpdp.mechanisms.prepare(X=X, y=raw, points=pts, input=INPUT, options=options)
    assert prep.epsilon == cert["guarantee"]["epsilon"]
    d = prep.describe()
    assert d["theta"] == cert["theta"]
    assert d["mechanism"] == cert["mechanism"]
    assert [p["epsilon"] for p in d["parts"]] == [p["epsilon"] for p in cert["parts"]]
    r = prep.release(9)
    assert set(r) == {"fields", "set", "probability", "prior_mean", "auto"}
    assert r["auto"] is None
    assert r["fields"].shape == (len(pts), L)
    np.testing.assert_array_equal(r["fields"], published)
    np.testing.assert_array_equal(r["set"], in_set)
    if options.get("grid_map") == "cells":
        assert cert["grid_mean"]["map"] == "cells"
        assert r["probability"] is None and "probability" not in header
    elif options.get("mechanism") == "grid-mean":
        np.testing.assert_array_equal(r["probability"], table[:, header.index("probability")])
    else:
        assert r["probability"] is None
    if "prior_mean" in options:
        assert r["prior_mean"] == cert["prior_mean"]["model_units"]
    else:
        assert r["prior_mean"] is None
    assert not np.array_equal(prep.release(10)["fields"], published)


def test_prepare_refuses_bad_options(records):
    X, raw, pts, _, _ = records
    base = {"kernel": "exp", "ell": 0.3, "delta": 1e-3, "threshold": 0}
    with pytest.raises(gpdp.InputError, match="'ledger'"):
        gpdp.mechanisms.prepare(X=X, y=raw, points=pts, input=INPUT,
                                options={**base, "ledger": "x.sqlite"})
    with pytest.raises(gpdp.InputError, match="domain"):
        gpdp.mechanisms.prepare(X=X, y=raw, points=pts + 1.5, input=INPUT, options=base)
    with pytest.raises(gpdp.InputError):
        gpdp.mechanisms.prepare(X=X, y=raw, input=INPUT, options=base)  # no points
    with pytest.raises(gpdp.InputError, match="grid_map belongs to the grid mean"):
        gpdp.mechanisms.prepare(X=X, y=raw, points=pts, input=INPUT,
                                options={**base, "r": 2, "sigma": 0.5, "grid_map": "cells"})
    with pytest.raises(gpdp.InputError, match="gp or cells"):
        gpdp.mechanisms.prepare(X=X, y=raw, points=pts, input=INPUT,
                                options={**base, "mechanism": "grid-mean", "target_epsilon": 1,
                                         "grid_map": "raw"})


def test_prepare_on_a_grid_with_smoothing(records):
    X, raw, _, _, _ = records
    prep = gpdp.mechanisms.prepare(
        X=X, y=raw, grid=gpdp.Grid("0:1:12,0:1:10"), input=INPUT,
        options={"kernel": "exp", "ell": 0.3, "r": 2, "sigma": 0.5, "delta": 1e-3,
                 "threshold": 1.2, "smooth": 0.1})
    r = prep.release(1)
    assert r["fields"].shape == (120, 1)
    assert set(np.unique(r["set"])) <= {0.0, 1.0}


def test_prepare_with_snapped_covariates(records):
    # snap_covariates 0.05 with ℓ = 0.3 on the 1/32 grid: q = 2, the nearest node round(64 x)/64;
    # the release is the one of the records snapped beforehand, and ε is unchanged.
    X, raw, _, _, _ = records
    grid = gpdp.Grid("0:1:33,0:1:33")
    options = {"kernel": "exp", "ell": 0.3, "r": 2, "sigma": 0.5, "delta": 1e-3, "threshold": 1.2}
    snapped = gpdp.mechanisms.prepare(X=X, y=raw, grid=grid, input=INPUT,
                                      options={**options, "snap_covariates": 0.05})
    beforehand = gpdp.mechanisms.prepare(X=np.round(64 * X) / 64, y=raw, grid=grid, input=INPUT,
                                         options=options)
    plain = gpdp.mechanisms.prepare(X=X, y=raw, grid=grid, input=INPUT, options=options)
    assert snapped.epsilon == plain.epsilon
    np.testing.assert_array_equal(snapped.release(3)["fields"], beforehand.release(3)["fields"])
    with pytest.raises(gpdp.InputError, match="snap_covariates"):
        gpdp.mechanisms.prepare(X=X, y=raw, points=X[:5], input=INPUT,
                                options={**options, "snap_covariates": 0.05})


def test_prepare_accepts_mechanism_auto(cli, tmp_path, records):
    """mechanism "auto" (issue #28): the total ε (choosing included) is within the target, each
    release reports the choice, and it equals `gpdp release --mechanism auto --insecure-seed`."""
    X, raw, pts, data, points = records
    options = {"mechanism": "auto", "kernel": "exp", "ell": 0.3, "sigma": 0.5,
               "target_epsilon": 3, "choose_fraction": 0.2, "delta": 1e-3, "threshold": 1.2}
    prep = gpdp.mechanisms.prepare(X=X, y=raw, points=pts, input=INPUT, options=options)
    assert prep.epsilon <= 3
    assert prep.describe()["auto"]["choose_fraction"] == 0.2
    r = prep.release(9)
    choice = r["auto"]
    assert choice["chosen"] in [c["name"] for c in choice["candidates"]]
    assert choice["epsilon_total"] <= 3
    assert abs(choice["epsilon_choosing"] - 0.2 * 3) < 1e-6
    out = tmp_path / "out"
    cli("release", "--data", data, "--x", "x1,x2", "--points", points, "--domain", "0:1,0:1",
        "--M-Y", 1, "--transform", "log", "--center", 1.0, "--scale", 2.0, "--kernel", "exp",
        "--ell", 0.3, "--sigma", 0.5, "--mechanism", "auto", "--target-epsilon", 3,
        "--choose-fraction", 0.2, "--delta", 1e-3, "--threshold", 1.2, "--insecure-seed", 9,
        "--dataset", "d", "--ledger", tmp_path / "l.sqlite", "--out", out)
    cert = json.loads((out / "certificate.json").read_text())
    assert cert["auto"]["chosen"] == choice["chosen"]
    assert cert["guarantee"]["epsilon"] == pytest.approx(prep.epsilon, rel=1e-12)
    with pytest.raises(gpdp.InputError, match="auto"):
        gpdp.mechanisms.prepare(X=X, y=raw, points=pts, input=INPUT,
                                options={**options, "solve": "noise"})
