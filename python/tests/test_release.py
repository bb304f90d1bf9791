"""A certified release round trip through gpdp.release.run (the library call behind
`gpdp release`): outputs, certificate, ledger; a second release beyond the budget is refused
and writes nothing. Python takes every request option of the CLI (the option-parity test) and
makes the request the CLI's --print-request prints."""

import json
import os

import numpy as np
import pytest

import gpdp
from conftest import read_csv, write_csv

INPUT = dict(x=["x1"], y="y", domain="0:1")


def test_release_round_trip(tmp_path, data_1d):
    X, y = data_1d
    data = write_csv(tmp_path / "train.csv", ["x1", "y"], np.column_stack([X, y]))
    ledger = tmp_path / "ledger.sqlite"
    out = gpdp.release.run(
        data=str(data), out=str(tmp_path / "rel1"), **INPUT,
        dataset="train", kernel="exp", ell=0.3, r=1.0, sigma=1.0, sensitivity="b7", delta=1e-5,
        target_epsilon=1.0, solve="r", grid="0:1:50", threshold=0.0, ledger=str(ledger),
        budget_epsilon=1.05, budget_delta=1e-4)
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
            data=str(data), out=str(tmp_path / "rel2"), **INPUT, dataset="train", kernel="exp",
            ell=0.3, r=1.0, sigma=1.0, sensitivity="b7", delta=1e-5, target_epsilon=1.0,
            solve="r", grid="0:1:50", threshold=0.0, ledger=str(ledger), budget_epsilon=1.05,
            budget_delta=1e-4)
    assert not (tmp_path / "rel2").exists()
    # The certificate states the attack risk, and errors name the keyword arguments.
    assert set(cert["risk"]["tpr_at_fpr"]) == {"0.001", "0.01", "0.1"}
    assert cert["dataset"]["name"] == "train"
    with pytest.raises(gpdp.InputError, match="^delta: must lie in") as refused:
        gpdp.release.run(
            data=str(data), out=str(tmp_path / "rel3"), **INPUT, dataset="train",
            ledger=str(ledger), delta=0.0, grid="0:1:50", threshold=0)
    assert refused.value.parameters == ("delta",)


def test_release_with_snapped_covariates(tmp_path, data_1d):
    X, y = data_1d
    data = write_csv(tmp_path / "train.csv", ["x1", "y"], np.column_stack([X, y]))
    args = dict(**INPUT, dataset="train", kernel="exp", ell=0.3, r=1.0, sigma=1.0,
                sensitivity="b7", delta=1e-5, threshold=0, ledger=str(tmp_path / "l.sqlite"),
                insecure_seed=1)
    out = gpdp.release.run(data=str(data), out=str(tmp_path / "rel"), grid="0:1:50",
                           snap_covariates=0.05, **args)
    snap = out["certificate"]["covariate_snapping"]
    # 0.05·0.3 = 0.015 per axis (d = 1) holds for half the grid step 1/49: q = 1.
    assert snap["refinement"] == [1]
    assert snap["worst_case"] <= 0.5 / 49 + 1e-15
    assert "measured" not in snap  # private statistics never enter the certificate
    assert out["certificate"]["sampler"].startswith("covariates snapped to lattice nodes")
    with pytest.raises(gpdp.InputError, match="snap_covariates needs a grid"):
        gpdp.release.run(data=str(data), out=str(tmp_path / "rel2"), points=str(data),
                         snap_covariates=0.05, **args)


# A value each option type accepts (as a keyword and as the CLI's text).
SAMPLE = {"integer": 7, "real": 0.25, "text": "some-text", "real-list": [1.5, 2.0],
          "text-list": ["a", "b"], "flag": True}


def test_python_accepts_every_request_option_of_the_cli():
    """The option-parity test: every request option of `gpdp release` (the library's table) is a
    keyword of gpdp.release.run / request, under its request key."""
    specs = [s for s in json.loads(gpdp._core.command_options("release")) if s["scope"] == "request"]
    assert len(specs) > 50 and {"mask", "smooth", "mechanism", "keep_path", "config_from"} <= {
        s["key"].replace("-", "_") for s in specs}
    for spec in specs:
        keyword = spec["key"].replace("-", "_")
        made = gpdp.release.request(**{**REQUIRED, keyword: SAMPLE[spec["type"]]})
        assert spec["key"] in made, keyword
    with pytest.raises(gpdp.InputError, match="unknown option"):
        gpdp.release.request(colour="red")
    with pytest.raises(gpdp.InputError, match="^threshold is required"):
        gpdp.release.request(**{k: v for k, v in REQUIRED.items() if k != "threshold"})


REQUIRED = dict(data="d.csv", threshold=0.5, delta=1e-4, out="o", dataset="d", ledger="l.sqlite")


def test_python_makes_the_request_the_cli_prints(cli):
    """gpdp.release.request(...) is `gpdp release ... --print-request` for the same options
    (tests/test_release_request.cpp checks a manifest's entry against the CLI)."""
    keywords = dict(REQUIRED, x=["lon", "lat"], M_Y=2.0, kernel="matern32", ell=0.25, draws=3,
                    prior_mean="dp:0.2", target_epsilon=2.0, grid2d="0:1:8,0:1:8", mask="m.csv",
                    budget_epsilon=4.0, budget_delta=1e-3, budget_orders=[2.0, 8.0],
                    insecure_seed=12345678901234567890, new_dataset_despite_overlap=True,
                    sigma=float("inf"))
    argv = []
    for keyword, value in keywords.items():
        flag = gpdp.release.options()[keyword]["flag"]
        if value is True:
            argv.append(flag)
        else:
            argv += [flag, ",".join(map(str, value)) if isinstance(value, list) else str(value)]
    printed = cli("release", *argv, "--print-request").stdout
    assert json.loads(printed) == gpdp.release.request(**keywords)
    assert json.dumps(gpdp.release.request(**keywords), sort_keys=True) == json.dumps(
        json.loads(printed), sort_keys=True)
