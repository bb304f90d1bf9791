"""gpdp.sample (`gpdp sample` as a call): every request option of the CLI is a keyword, the request
is the CLI's --print-request, and command() prints and writes what the CLI prints and writes;
errors name the keywords."""

import json

import numpy as np
import pytest

import gpdp

TRAIN = "x1,y\n0.05,-0.8\n0.2,-0.3\n0.35,0.4\n0.5,0.9\n0.65,0.6\n0.8,-0.1\n0.95,-0.7\n"
TRAIN2 = "x1,x2,y\n0.1,0.2,1\n0.5,0.5,0\n0.9,0.1,-1\n0.3,0.8,0.4\n0.7,0.7,-0.3\n"
SAMPLE = {"flag": True, "integer": 3, "real": 0.5, "text": "v", "real-list": [1.0, 2.0],
          "text-list": ["a", "b"]}


@pytest.fixture
def data(tmp_path):
    (tmp_path / "train.csv").write_text(TRAIN)
    (tmp_path / "train2.csv").write_text(TRAIN2)
    (tmp_path / "q.csv").write_text("x1,x2\n0,0\n0.5,0.5\n1,1\n")
    return tmp_path


def argv_of(keywords):
    argv = []
    for keyword, value in keywords.items():
        flag = gpdp.sample.options()[keyword]["flag"]
        argv += [flag] if value is True else [flag, str(value)]
    return argv


def test_python_accepts_every_request_option_of_the_cli(cli):
    """The option-parity test: every request option of `gpdp sample` (the library's table, which
    --help lists) is a keyword of gpdp.sample.command / request, under its request key."""
    specs = [s for s in json.loads(gpdp._core.command_options("sample"))
             if s["scope"] == "request"]
    assert {"data", "x", "y", "kernel", "ell", "r", "sigma", "eta", "points", "grid", "grid2d",
            "draws", "seed", "method", "out"} == {s["key"].replace("-", "_") for s in specs}
    assert {"json", "print_request"}.isdisjoint(gpdp.sample.options())
    shown = cli("sample", "--help").stdout
    required = dict(data="train.csv", out="o.csv")
    for spec in specs:
        assert spec["flag"] in shown
        keyword = spec["key"].replace("-", "_")
        made = gpdp.sample.request(**{**required, keyword: SAMPLE[spec["type"]]})
        assert spec["key"] in made, keyword
    with pytest.raises(gpdp.InputError, match="unknown option"):
        gpdp.sample.request(colour="red")
    with pytest.raises(gpdp.InputError, match="^out is required"):
        gpdp.sample.request(data="train.csv", grid="0:1:5")


def test_python_makes_the_request_the_cli_prints(cli):
    """gpdp.sample.request(...) is `gpdp sample ... --print-request` for the same options."""
    keywords = dict(data="train.csv", x="a,b", y="z", kernel="se", ell=0.3, r=0.5,
                    sigma=float("inf"), eta=0.1, grid2d="0:1:3,0:1:4", draws=3, seed=7,
                    method="dense", out="o.csv")
    printed = cli("sample", *argv_of(keywords), "--print-request").stdout
    assert json.dumps(gpdp.sample.request(**keywords), sort_keys=True) == json.dumps(
        json.loads(printed), sort_keys=True)


@pytest.mark.parametrize("keywords", [
    dict(data="train.csv", kernel="exp", ell=0.3, r=0.5, sigma=1.0, grid="0:1:5", draws=3,
         seed=42),
    dict(data="train.csv", kernel="matern52", ell=0.4, eta=0.3, grid="0:1:6", seed=3,
         method="dense"),
    dict(data="train2.csv", kernel="se", ell=0.3, points="q.csv", draws=2, seed=1),
    dict(data="train2.csv", grid2d="0:1:30,0:1:30", seed=9, method="pathwise"),
])
def test_command_is_the_cli(cli, data, monkeypatch, keywords):
    """gpdp.sample.command(...) reads the request as the CLI does: the same JSON, text and file
    (run from two folders, so that out names the same relative file)."""
    (data / "py").mkdir()
    (data / "cli").mkdir()
    keywords = {k: (str(data / v) if k in ("data", "points") else v) for k, v in keywords.items()}
    keywords["out"] = "draws.csv"
    monkeypatch.chdir(data / "py")
    py = gpdp.sample.command(**keywords)
    assert py["report"]["private_rng"] is False
    monkeypatch.chdir(data / "cli")
    text = cli("sample", *argv_of(keywords))
    assert py["text"] == text.stdout
    assert text.stderr == (f"gpdp sample: seeded draw (--seed {keywords['seed']}): reproducible "
                           "and NOT private; omit --seed for a release\n")
    assert (data / "py" / "draws.csv").read_bytes() == (data / "cli" / "draws.csv").read_bytes()
    as_json = cli("sample", *argv_of(keywords), "--json")
    assert py["report"] == json.loads(as_json.stdout)


def test_command_agrees_with_posterior_sample_and_names_keywords(data, tmp_path):
    """The command's draws are gpdp.Posterior(...).sample's with the same seed; its errors name
    keywords."""
    out = tmp_path / "d.csv"
    gpdp.sample.command(data=str(data / "train.csv"), kernel="exp", ell=0.3, r=0.5, grid="0:1:4",
                        draws=2, seed=5, method="dense", out=str(out))
    rows = [line.split(",") for line in out.read_text().splitlines()]
    assert rows[0] == ["x1", "draw1", "draw2"]
    table = [[float(v) for v in line.split(",")] for line in TRAIN.splitlines()[1:]]
    X = [[row[0]] for row in table]
    y = [row[1] for row in table]
    post = gpdp.Posterior(gpdp.Kernel.exponential(0.3), np.array(X), np.array(y), r=0.5,
                          sigma=1.0)
    xs = np.array([float(r[0]) for r in rows[1:]])
    draws = post.sample(xs, n_draws=2, rng=gpdp.SeededRng(5), method="dense")
    assert np.allclose(np.array([[float(v) for v in r[1:]] for r in rows[1:]]), draws,
                       rtol=0, atol=1e-12)
    missing = dict(data=str(data / "train.csv"), out=str(tmp_path / "e.csv"))
    with pytest.raises(gpdp.InputError, match="^draws must be ≥ 1, got 0"):
        gpdp.sample.command(**missing, grid="0:1:3", draws=0)
    with pytest.raises(gpdp.InputError,
                       match="^give exactly one of points FILE, grid lo:hi:m, grid2d"):
        gpdp.sample.command(**missing)
    with pytest.raises(gpdp.InputError, match="^grid needs one axis"):
        gpdp.sample.command(**missing, grid="0:1:3,0:1:3")
    with pytest.raises(gpdp.InputError, match="^r must be positive"):
        gpdp.sample.command(**missing, grid="0:1:3", r=-1)
    assert not (tmp_path / "e.csv").exists()
