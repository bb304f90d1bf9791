"""gpdp.query (`gpdp query` as a call): every request option of the CLI is a keyword (the kept
path file too, the CLI's positional argument), the request is the CLI's --print-request, and
command() answers a real kept path as the CLI does (the same CSV, summary and text); errors name
the keywords."""

import json

import pytest

import gpdp
from conftest import write_csv

REQUIRED = dict(path="p.gpdp", data="d.csv", out="new.csv")
SAMPLE = {"integer": 3, "text": "v"}


def argv_of(keywords):
    argv = []
    for keyword, value in keywords.items():
        spec = gpdp.query.options()[keyword]
        if spec["positional"]:
            argv += [str(value)]
        else:
            argv += [spec["flag"]] if value is True else [spec["flag"], str(value)]
    return argv


def test_python_accepts_every_request_option_of_the_cli():
    """The option-parity test: every request option of `gpdp query` (the library's table) is a
    keyword of gpdp.query.command / request, under its request key."""
    specs = [s for s in json.loads(gpdp._core.command_options("query")) if s["scope"] == "request"]
    assert {s["key"].replace("-", "_") for s in specs} == {
        "path", "data", "points", "grid", "grid2d", "path_key", "path_passphrase_env", "crs", "out",
        "ledger", "insecure_seed"}
    assert [s["key"] for s in specs if s["positional"]] == ["path"]
    assert {"json", "print_request"}.isdisjoint(gpdp.query.options())
    for spec in specs:
        keyword = spec["key"].replace("-", "_")
        made = gpdp.query.request(**{**REQUIRED, keyword: SAMPLE[spec["type"]]})
        assert spec["key"] in made, keyword
    with pytest.raises(gpdp.InputError, match="unknown option"):
        gpdp.query.request(colour="red")
    with pytest.raises(gpdp.InputError, match="^data is required"):
        gpdp.query.request(path="p.gpdp", out="new.csv")


def test_python_makes_the_request_the_cli_prints(cli):
    """gpdp.query.request(...) is `gpdp query ... --print-request` for the same options."""
    keywords = dict(REQUIRED, grid2d="0:1:3,0:1:4", path_key="key", crs="EPSG:4326",
                    ledger="l.sqlite", insecure_seed=7)
    printed = cli("query", *argv_of(keywords), "--print-request").stdout
    assert json.dumps(gpdp.query.request(**keywords), sort_keys=True) == json.dumps(
        json.loads(printed), sort_keys=True)


@pytest.fixture
def two_kept_paths(cli, tmp_path, data_2d):
    """The same seeded release kept twice (folders a and b): each answers the same new points with
    the same values."""
    X, y = data_2d
    data = write_csv(tmp_path / "d.csv", ["x1", "x2", "y"], [[*x, v] for x, v in zip(X, y)])
    for name in ("a", "b"):
        folder = tmp_path / name
        folder.mkdir()
        cli("release", "--data", data, "--domain", "0:1,0:1", "--kernel", "exp", "--ell", "0.3",
            "--r", "3", "--grid2d", "0:1:6,0:1:5", "--threshold", "0", "--delta", "1e-3",
            "--insecure-seed", "7", "--dataset", "d", "--ledger", folder / "l.sqlite",
            "--keep-path", folder / "p.gpdp", "--out", folder / "release")
    points = write_csv(tmp_path / "q.csv", ["x1", "x2"], [[0.25, 0.75], [0.5, 0.5], [0.9, 0.1]])
    return tmp_path, data, points


@pytest.mark.parametrize("where", [dict(points=True), dict(grid2d="0.1:0.9:3,0:1:2")])
def test_command_is_the_cli(cli, two_kept_paths, where):
    """gpdp.query.command(...) answers a kept path as `gpdp query` does: the same CSV, the same
    summary and text (but for the path's own files)."""
    tmp, data, points = two_kept_paths
    where = dict(points=str(points)) if "points" in where else where

    def keywords(name):
        return dict(path=str(tmp / name / "p.gpdp"), data=str(data), out=str(tmp / f"{name}.csv"),
                    insecure_seed=1, **where)

    py = gpdp.query.command(**keywords("a"))
    text = cli("query", *argv_of(keywords("b")))
    assert text.stderr == "gpdp query: --insecure-seed: these answers are NOT PRIVATE\n"
    assert (tmp / "a.csv").read_bytes() == (tmp / "b.csv").read_bytes()
    assert py["text"].replace(str(tmp / "a"), str(tmp / "b")).split("(path")[0] == \
        text.stdout.split("(path")[0]
    report = py["report"]
    assert (report["points"], report["paths"], report["budget_consumed"], report["private"]) == (
        3 if "points" in where else 6, 1, 0, False)
    assert report["out"] == str(tmp / "a.csv") and report["ledger"] == str(tmp / "a" / "l.sqlite")
    assert py["text"] == (
        f"gpdp query → {report['out']}: {report['points']} point(s) of 1 kept path(s), "
        f"conditionally on earlier answers; no budget consumed (path {report['path_id']} in "
        f"ledger {report['ledger']})\n")
    # --json prints the same summary (a second query: the path answers the points again).
    as_json = json.loads(cli("query", *argv_of(keywords("b")), "--json").stdout)
    assert set(as_json) == set(report) and as_json["points"] == report["points"]
    again = gpdp.query.command(**keywords("a"))
    assert again["report"]["points"] == report["points"]
    assert (tmp / "a.csv").read_bytes() == (tmp / "b.csv").read_bytes()


def test_errors_name_keywords(two_kept_paths):
    tmp, data, points = two_kept_paths
    base = dict(path=str(tmp / "a" / "p.gpdp"), data=str(data), out=str(tmp / "o.csv"))
    with pytest.raises(gpdp.InputError,
                       match="^give exactly one of points FILE, grid lo:hi:m, grid2d"):
        gpdp.query.command(**base)
    with pytest.raises(gpdp.InputError, match="^grid2d needs two axes"):
        gpdp.query.command(**base, grid2d="0:1:3")
    with pytest.raises(gpdp.InputError, match="^points/grid/grid2d: the grid has 1 dimension"):
        gpdp.query.command(**base, grid="0:1:3")
    with pytest.raises(gpdp.InputError, match="^path_key/path_passphrase_env: give a key file"):
        gpdp.query.command(**base, points=str(points), path_key="k", path_passphrase_env="V")
    with pytest.raises(gpdp.InputError, match="insecure_seed"):
        gpdp.query.command(**base, points=str(points), insecure_seed=-1)
    assert not (tmp / "o.csv").exists()
