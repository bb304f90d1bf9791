"""gpdp.posterior (`gpdp posterior` as a call): every request option of the CLI is a keyword, the
request is the CLI's --print-request, and command() prints and writes what the CLI prints and
writes; errors name the keywords."""

import json

import numpy as np
import pytest

import gpdp

TRAIN = "x1,y\n0.05,0.8\n0.2,1.3\n0.35,2.4\n0.5,0.9\n0.65,3.6\n0.8,1.1\n0.95,0.7\n"
TRAIN2 = "lon,lat,v\n0.1,0.2,5.5\n0.7,0.4,2.3\n0.4,0.9,1.2\n0.6,0.6,3.1\n"
SAMPLE = {"flag": True, "integer": 3, "real": 0.5, "text": "v", "real-list": [1.0, 2.0],
          "text-list": ["a", "b"]}


@pytest.fixture
def data(tmp_path):
    (tmp_path / "train.csv").write_text(TRAIN)
    (tmp_path / "train2.csv").write_text(TRAIN2)
    (tmp_path / "q.csv").write_text("lat,lon\n0.3,0.6\n0.8,0.1\n")
    return tmp_path


def argv_of(keywords):
    argv = []
    for keyword, value in keywords.items():
        flag = gpdp.posterior.options()[keyword]["flag"]
        argv += [flag] if value is True else [flag, str(value)]
    return argv


def test_python_accepts_every_request_option_of_the_cli(cli):
    """The option-parity test: every request option of `gpdp posterior` (the library's table,
    which --help lists) is a keyword of gpdp.posterior.command / request, under its request
    key."""
    specs = [s for s in json.loads(gpdp._core.command_options("posterior"))
             if s["scope"] == "request"]
    assert {"data", "x", "y", "kernel", "ell", "r", "sigma", "eta", "points", "grid", "grid2d",
            "transform", "center", "scale", "M_Y", "sign", "threshold", "out"} == {
        s["key"].replace("-", "_") for s in specs}
    assert {"json", "print_request"}.isdisjoint(gpdp.posterior.options())
    shown = cli("posterior", "--help").stdout
    required = dict(data="train.csv", out="o.csv")
    for spec in specs:
        assert spec["flag"] in shown
        keyword = spec["key"].replace("-", "_")
        made = gpdp.posterior.request(**{**required, keyword: SAMPLE[spec["type"]]})
        assert spec["key"] in made, keyword
    with pytest.raises(gpdp.InputError, match="unknown option"):
        gpdp.posterior.request(colour="red")
    with pytest.raises(gpdp.InputError, match="^data is required"):
        gpdp.posterior.request(grid="0:1:5", out="o.csv")


def test_python_makes_the_request_the_cli_prints(cli):
    """gpdp.posterior.request(...) is `gpdp posterior ... --print-request` for the same options."""
    keywords = dict(data="train.csv", x="a,b", y="z", kernel="se", ell=0.3, r=0.5, sigma=2.0,
                    eta=0.1, points="q.csv", transform="log", center=1.0, scale=0.5, M_Y=2.0,
                    sign=True, threshold=0.25, out="o.csv")
    printed = cli("posterior", *argv_of(keywords), "--print-request").stdout
    assert json.dumps(gpdp.posterior.request(**keywords), sort_keys=True) == json.dumps(
        json.loads(printed), sort_keys=True)


@pytest.mark.parametrize("keywords", [
    dict(data="train.csv", kernel="exp", ell=0.3, r=0.5, sigma=1.0, grid="0:1:5", threshold=1.0),
    dict(data="train.csv", kernel="se", ell=0.2, eta=0.4, grid="0:1:9"),
    dict(data="train.csv", grid="0:1:7", transform="log", center=0.5, scale=2.0, M_Y=1.5,
         threshold=1.2),
    dict(data="train.csv", grid="0:1:4", sign=True, center=1.0, threshold=0.0),
    dict(data="train2.csv", x="lon,lat", y="v", kernel="matern32", ell=0.5, points="q.csv",
         M_Y=4.0),
    dict(data="train2.csv", x="lon,lat", y="v", grid2d="0:1:4,0:1:3", threshold=2.0),
])
def test_command_is_the_cli(cli, data, monkeypatch, keywords):
    """gpdp.posterior.command(...) reads the request as the CLI does: the same JSON, text and
    file (run from two folders, so that out names the same relative file)."""
    (data / "py").mkdir()
    (data / "cli").mkdir()
    keywords = {k: (str(data / v) if k in ("data", "points") else v) for k, v in keywords.items()}
    keywords["out"] = "post.csv"
    monkeypatch.chdir(data / "py")
    py = gpdp.posterior.command(**keywords)
    monkeypatch.chdir(data / "cli")
    text = cli("posterior", *argv_of(keywords))
    assert py["text"] == text.stdout
    assert text.stderr == ""
    assert (data / "py" / "post.csv").read_bytes() == (data / "cli" / "post.csv").read_bytes()
    as_json = cli("posterior", *argv_of(keywords), "--json")
    assert py["report"] == json.loads(as_json.stdout)


def test_command_agrees_with_the_posterior_and_names_keywords(data, tmp_path):
    """The command's columns are gpdp.Posterior's mean, variance and excursion probability; its
    errors name keywords."""
    out = tmp_path / "p.csv"
    gpdp.posterior.command(data=str(data / "train.csv"), kernel="exp", ell=0.3, r=0.5,
                           grid="0:1:5", threshold=1.0, out=str(out))
    lines = out.read_text().splitlines()
    assert lines[0] == "x1,mean,variance,p_exceed"
    table = np.array([[float(v) for v in r[1:]] for r in (line.split(",") for line in lines[1:])])
    train = np.array([[float(v) for v in line.split(",")] for line in TRAIN.splitlines()[1:]])
    post = gpdp.Posterior(gpdp.Kernel.exponential(0.3), train[:, 0], train[:, 1], r=0.5,
                          sigma=1.0)
    xs = np.linspace(0.0, 1.0, 5)
    assert np.allclose(table[:, 0], post.mean(xs), rtol=0, atol=1e-12)
    assert np.allclose(table[:, 1], post.variance(xs), rtol=0, atol=1e-12)
    assert np.allclose(table[:, 2], post.excursion_probability(xs, t=1.0), rtol=0, atol=1e-9)
    given = dict(data=str(data / "train.csv"), grid="0:1:3", out=str(tmp_path / "e.csv"))
    with pytest.raises(gpdp.InputError, match="^M_Y must be positive"):
        gpdp.posterior.command(**given, M_Y=0.0)
    with pytest.raises(gpdp.InputError, match="^threshold must be a finite number"):
        gpdp.posterior.command(**given, threshold=float("inf"))
    with pytest.raises(gpdp.InputError, match="^scale must be positive"):
        gpdp.posterior.command(**given, scale=-1.0)
    (data / "neg.csv").write_text("x1,y\n0.1,1\n0.2,-3\n")
    with pytest.raises(gpdp.InputError, match="^transform log needs positive responses, got -3"):
        gpdp.posterior.command(**{**given, "data": str(data / "neg.csv")}, transform="log")
    assert not (tmp_path / "e.csv").exists()
