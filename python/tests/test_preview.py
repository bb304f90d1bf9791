"""gpdp.preview.run (the library call behind `gpdp preview`): the preview.json object, the same
seed gives the same preview, and it agrees with the CLI on the same public inputs."""

import json
import os
import subprocess

import pytest

import gpdp

COMMON = dict(domain="0:1,0:1", n=30, epsilons=[1.0, 10.0], delta=1e-3, ell=0.3, sigma=1.0, r=0.3,
              draws=[1, 3], simulations=3, seed=5)


def test_preview_schema_and_seed():
    grid = gpdp.Grid("0:1:12,0:1:10")
    a = gpdp.preview.run(grid=grid, **COMMON)
    assert a["epsilons"] == [1.0, 10.0]
    for e in a["results"]:
        assert e["best"]["config"]["epsilon"] <= e["epsilon"]
        assert set(e["best"]["iou"]) == {"mean", "lo", "hi"}
    assert 0 < a["random_set_iou"] < 1
    b = gpdp.preview.run(grid=grid, **COMMON)
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_preview_agrees_with_the_cli(tmp_path):
    cli = os.environ.get("GPDP_CLI")
    if not cli:
        pytest.skip("GPDP_CLI not set")
    out = tmp_path / "prev"
    subprocess.run([cli, "preview", "--domain", "0:1,0:1", "--grid2d", "0:1:12,0:1:10",
                    "--threshold", "0", "--n", "30", "--epsilons", "1,10", "--delta", "1e-3",
                    "--ell", "0.3", "--sigma", "1", "--r", "0.3", "--draws-grid", "1,3",
                    "--simulations", "3", "--seed", "5", "--quiet", "--out", str(out)], check=True)
    with open(out / "preview.json") as f:
        cli_json = json.load(f)
    py_json = gpdp.preview.run(grid=gpdp.Grid("0:1:12,0:1:10"), **COMMON)
    assert py_json["results"] == cli_json["results"]


def _one_sided():
    """240 records on a lattice of the unit square, 95 % of them above the threshold 0."""
    import numpy as np

    i = np.arange(240)
    X = np.c_[(i % 16 + 0.5) / 16, (i // 16 + 0.5) / 15]
    y = np.where(i % 20 == 0, -0.6, 0.6)
    return X, y


def test_calibrated_preview_charges_the_ledger_once_per_call(tmp_path):
    X, y = _one_sided()
    kw = dict(X=X, y=y, points=X[:10], input={"domain": "0:1,0:1", "M_Y": 1},
              options={"kernel": "exp", "ell": 0.3, "sigma": 0.5, "threshold": 0.0, "delta": 1e-3},
              calibrate_epsilon=0.5, epsilons=[1.0, 10.0], ledger=str(tmp_path / "l.sqlite"),
              dataset="d", insecure_seed=3)
    a = gpdp.preview.calibrated(**kw)
    assert a["calibrated"] is True
    assert 0.49 < a["spend"]["epsilon"] <= 0.5 * (1 + 1e-9)
    assert a["spend"]["ledger_release"] == 1
    assert "NOT PRIVATE" in a["summary"]["rng"]
    assert [t["epsilon"] for t in a["targets"]] == [1.0, 10.0]
    for t in a["targets"]:
        assert len(t["candidates"]) == 7
        p = t["predicted"]
        assert p["lo"] <= p["accuracy"] <= p["hi"]
    # The summary sees the majority (0.95 above t, up to its noise).
    assert a["summary"]["share_above"] > 0.85
    # A second call is a second recorded spend.
    assert gpdp.preview.calibrated(**kw)["spend"]["ledger_release"] == 2


def test_calibrated_preview_needs_a_ledger(tmp_path):
    X, y = _one_sided()
    with pytest.raises(Exception, match="ledger"):
        gpdp.preview.calibrated(X=X, y=y, points=X[:10], input={"domain": "0:1,0:1", "M_Y": 1},
                                options={"kernel": "exp", "ell": 0.3, "threshold": 0.0,
                                         "delta": 1e-3},
                                calibrate_epsilon=0.5, epsilons=[1.0], ledger="", dataset="d")


PREVIEW_REQUIRED = dict(domain="0:1,0:1", grid2d="0:1:12,0:1:10", threshold=0.0, delta=1e-3, n=30,
                        epsilons=[1.0, 10.0], out="prev")
SAMPLE = {"flag": True, "integer": 3, "real": 0.5, "text": "v", "real-list": [1.0, 2.0],
          "text-list": ["a", "b"]}


def test_python_accepts_every_request_option_of_the_cli():
    """The option-parity test: every request option of `gpdp preview` (the library's table) is a
    keyword of gpdp.preview.command / request, under its request key."""
    specs = [s for s in json.loads(gpdp._core.command_options("preview")) if s["scope"] == "request"]
    assert len(specs) > 35 and {"mask", "draws_grid", "calibrate_epsilon", "public_data", "M_Y",
                                "no_functional"} <= {s["key"].replace("-", "_") for s in specs}
    assert {"json", "quiet", "print_request"}.isdisjoint(gpdp.preview.options())
    for spec in specs:
        keyword = spec["key"].replace("-", "_")
        made = gpdp.preview.request(**{**PREVIEW_REQUIRED, keyword: SAMPLE[spec["type"]]})
        assert spec["key"] in made, keyword
    with pytest.raises(gpdp.InputError, match="unknown option"):
        gpdp.preview.request(colour="red")
    with pytest.raises(gpdp.InputError, match="^threshold is required"):
        gpdp.preview.request(**{k: v for k, v in PREVIEW_REQUIRED.items() if k != "threshold"})


def test_python_makes_the_request_the_cli_prints(cli):
    """gpdp.preview.request(...) is `gpdp preview ... --print-request` for the same options."""
    keywords = dict(PREVIEW_REQUIRED, x=["lon", "lat"], M_Y=2.0, kernel="matern32", ell=0.25,
                    mask="m.csv", draws_grid=[1.0, 3.0], no_sign=True, seed=12345678901234567890,
                    sigma=float("inf"), calibrate_epsilon=0.5)
    argv = []
    for keyword, value in keywords.items():
        flag = gpdp.preview.options()[keyword]["flag"]
        if value is True:
            argv.append(flag)
        else:
            argv += [flag, ",".join(map(str, value)) if isinstance(value, list) else str(value)]
    printed = cli("preview", *argv, "--print-request").stdout
    assert json.dumps(gpdp.preview.request(**keywords), sort_keys=True) == json.dumps(
        json.loads(printed), sort_keys=True)


def test_command_is_the_cli(tmp_path, cli):
    """gpdp.preview.command(...) reads the request as the CLI does: the same preview.json (but the
    time taken); errors name keywords."""
    keywords = dict(PREVIEW_REQUIRED, ell=0.3, sigma=1.0, r=0.3, draws_grid=[1, 3], simulations=3,
                    seed=5, image="svg")
    py = gpdp.preview.command(**{**keywords, "out": str(tmp_path / "py")})
    argv = []
    for keyword, value in keywords.items():
        if keyword != "out":
            flag = gpdp.preview.options()[keyword]["flag"]
            argv += [flag, ",".join(map(str, value)) if isinstance(value, list) else str(value)]
    cli("preview", *argv, "--quiet", "--out", str(tmp_path / "cli"))
    with open(tmp_path / "cli" / "preview.json") as f:
        cli_json = json.load(f)
    assert py["files"] == [str(tmp_path / "py" / "preview.json"),
                           str(tmp_path / "py" / "preview.svg")]
    py["report"].pop("seconds"), cli_json.pop("seconds")
    assert py["report"] == cli_json
    assert (tmp_path / "py" / "preview.svg").stat().st_size > 0
    with pytest.raises(gpdp.InputError, match="^n .* is required without calibrate_epsilon"):
        gpdp.preview.command(**{k: v for k, v in keywords.items() if k != "n"})
    with pytest.raises(gpdp.InputError, match="^dataset belongs to calibrate_epsilon"):
        gpdp.preview.command(**keywords, dataset="d")
