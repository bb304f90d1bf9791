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
