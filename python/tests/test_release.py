"""A certified release round trip through gpdp.release.run (the library call behind
`gpdp release`): outputs, certificate, ledger; a second release beyond the budget is refused
and writes nothing."""

import json
import os

import numpy as np
import pytest

import gpdp
from conftest import read_csv, write_csv


def test_release_round_trip(tmp_path, data_1d):
    X, y = data_1d
    data = write_csv(tmp_path / "train.csv", ["x1", "y"], np.column_stack([X, y]))
    ledger = tmp_path / "ledger.sqlite"
    out = gpdp.release.run(
        data=str(data), out_dir=str(tmp_path / "rel1"), input={"x": ["x1"], "y": "y", "domain": "0:1"},
        dataset="train", kernel="exp", ell=0.3, r=1.0, sigma=1.0, sensitivity="b7", delta=1e-5,
        target_epsilon=1.0, solve="r", grid="0:1:50", ledger=str(ledger), budget=(1.05, 1e-4))
    folder = tmp_path / "rel1"
    files = out["files"]  # names inside the output folder
    assert files and all((folder / f).is_file() for f in files)
    cert = out["certificate"]
    text = json.dumps(cert)
    assert "secure" in text  # the certificate says which generator drew the path
    summary = out["summary"]
    assert summary["epsilon"] <= 1.0 + 1e-12
    # A CSV of released values exists and has one row per grid point.
    csvs = [f for f in files if f.endswith(".csv")]
    assert csvs
    _, table = read_csv(folder / csvs[0])
    assert table.shape[0] == 50
    # The ledger now holds ε ≈ 1 of a 1.05 budget (composed in RDP by the ledger): a second ε = 1 release is refused, nothing written.
    with pytest.raises(gpdp.PrivacyError):
        gpdp.release.run(
            data=str(data), out_dir=str(tmp_path / "rel2"),
            input={"x": ["x1"], "y": "y", "domain": "0:1"}, dataset="train", kernel="exp",
            ell=0.3, r=1.0, sigma=1.0, sensitivity="b7", delta=1e-5, target_epsilon=1.0,
            solve="r", grid="0:1:50", ledger=str(ledger), budget=(1.05, 1e-4))
    assert not (tmp_path / "rel2").exists()
    # The certificate states the attack risk, and errors name the keyword arguments.
    assert set(cert["risk"]["tpr_at_fpr"]) == {"0.001", "0.01", "0.1"}
    assert cert["dataset"]["name"] == "train"
    with pytest.raises(gpdp.InputError, match="^delta must lie in") as refused:
        gpdp.release.run(
            data=str(data), out_dir=str(tmp_path / "rel3"),
            input={"x": ["x1"], "y": "y", "domain": "0:1"}, dataset="train", ledger=str(ledger),
            delta=0.0, grid="0:1:50")
    assert refused.value.parameters == ("delta",)


def test_release_with_snapped_covariates(tmp_path, data_1d):
    X, y = data_1d
    data = write_csv(tmp_path / "train.csv", ["x1", "y"], np.column_stack([X, y]))
    args = dict(input={"x": ["x1"], "y": "y", "domain": "0:1"}, dataset="train", kernel="exp",
                ell=0.3, r=1.0, sigma=1.0, sensitivity="b7", delta=1e-5,
                ledger=str(tmp_path / "l.sqlite"), insecure_seed=1)
    out = gpdp.release.run(data=str(data), out_dir=str(tmp_path / "rel"), grid="0:1:50",
                           snap_covariates=0.05, **args)
    snap = out["certificate"]["covariate_snapping"]
    # 0.05·0.3 = 0.015 per axis (d = 1) holds for half the grid step 1/49: q = 1.
    assert snap["refinement"] == [1]
    assert snap["worst_case"] <= 0.5 / 49 + 1e-15
    assert "measured" not in snap  # private statistics never enter the certificate
    assert out["certificate"]["sampler"].startswith("covariates snapped to lattice nodes")
    with pytest.raises(gpdp.InputError, match="snap_covariates needs a grid"):
        gpdp.release.run(data=str(data), out_dir=str(tmp_path / "rel2"), points=str(data),
                         snap_covariates=0.05, **args)
