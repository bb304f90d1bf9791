"""gpdp.hexbin (`gpdp hexbin` as a call): every request option of the CLI is a keyword, the
request is the CLI's --print-request, and command() writes the CLI's file and prints what the CLI
prints; errors name the keywords."""

import json

import numpy as np
import pytest

import gpdp

SAMPLE = {"flag": True, "real": 0.5, "text": "v"}


def argv_of(keywords):
    argv = []
    for keyword, value in keywords.items():
        flag = gpdp.hexbin.options()[keyword]["flag"]
        argv += [flag] if value is True else [flag, str(value)]
    return argv


@pytest.fixture
def records(tmp_path):
    rng = np.random.default_rng(11)
    xy = rng.uniform([0, 0], [10, 6], (300, 2))
    price = np.exp(rng.normal(11, 0.5, 300))
    year = rng.choice([1997, 1998, 1999], 300)
    path = tmp_path / "sales.csv"
    with open(path, "w") as f:
        f.write("px,py,price,syear\n")
        for (x, y), p, t in zip(xy, price, year):
            f.write(f"{float(x)!r},{float(y)!r},{float(p)!r},{t}\n")
    return path


def test_python_accepts_every_request_option_of_the_cli(records):
    """The option-parity test: every request option of `gpdp hexbin` (the library's table) is a
    keyword of gpdp.hexbin.command / request, under its request key."""
    specs = [s for s in json.loads(gpdp._core.command_options("hexbin"))
             if s["scope"] == "request"]
    keywords = {s["key"].replace("-", "_") for s in specs}
    assert keywords == {"data", "x", "y", "value", "log", "box", "cell_width", "where", "out"}
    assert {"json", "print_request"}.isdisjoint(gpdp.hexbin.options())
    required = dict(data=records, value="price", box="0:10,0:6", cell_width=1.0, out="h.csv")
    for spec in specs:
        keyword = spec["key"].replace("-", "_")
        made = gpdp.hexbin.request(**{**required, keyword: SAMPLE[spec["type"]]})
        assert spec["key"] in made, keyword
    with pytest.raises(gpdp.InputError, match="unknown option"):
        gpdp.hexbin.request(colour="red")
    with pytest.raises(gpdp.InputError, match="^box is required"):
        gpdp.hexbin.request(data=records, value="price", cell_width=1.0, out="h.csv")


@pytest.mark.parametrize("extra", [
    dict(),
    dict(log=True, where="syear=1998"),
    dict(where="syear=1997,1999", cell_width=0.75),
    dict(box="2:8,1:5"),  # records outside the box are dropped and counted
])
def test_command_is_the_cli(cli, records, tmp_path, extra):
    """gpdp.hexbin.command(...) reads the request as the CLI does: the same request, the same
    CSV, the same JSON and line."""
    keywords = dict(data=records, x="px", y="py", value="price", box="0:10,0:6", cell_width=1.5)
    keywords.update(extra)
    py_out, cli_out = tmp_path / "py.csv", tmp_path / "cli.csv"
    printed = cli("hexbin", *argv_of({**keywords, "out": cli_out}), "--print-request").stdout
    assert json.loads(printed) == gpdp.hexbin.request(**keywords, out=str(cli_out))
    py = gpdp.hexbin.command(**keywords, out=str(py_out))
    as_json = cli("hexbin", *argv_of({**keywords, "out": cli_out}), "--json")
    assert py_out.read_bytes() == cli_out.read_bytes()
    assert {**py["report"], "out": None} == {**json.loads(as_json.stdout), "out": None}
    text = cli("hexbin", *argv_of({**keywords, "out": cli_out})).stdout
    assert py["text"] == text.replace(str(cli_out), str(py_out))
    years = np.loadtxt(records, delimiter=",", skiprows=1)[:, 3]
    kept = {"syear=1998": 1998 == years, "syear=1997,1999": years != 1998}.get(
        extra.get("where"), np.ones_like(years, dtype=bool))
    assert py["report"]["records_used"] + py["report"]["records_outside_box"] == kept.sum()
    assert (py["report"]["records_outside_box"] > 0) == ("box" in extra)


def test_command_agrees_with_the_array_call_and_names_keywords(records, tmp_path):
    """The file is gpdp.experiments.hexbin of the rows kept; errors name keywords, never flags,
    and write nothing."""
    out = tmp_path / "h.csv"
    r = gpdp.hexbin.command(data=records, x="px", y="py", value="price", log=True,
                            where="syear=1998", box="0:10,0:6", cell_width=1.5, out=str(out))
    table = np.loadtxt(records, delimiter=",", skiprows=1)
    kept = table[table[:, 3] == 1998]
    h = gpdp.experiments.hexbin(kept[:, :2], np.log(kept[:, 2]), box=gpdp.Box.parse("0:10,0:6"),
                                width=1.5)
    cells = np.loadtxt(out, delimiter=",", skiprows=1, ndmin=2)
    np.testing.assert_array_equal(cells[:, 7], h["count"])
    np.testing.assert_allclose(cells[:, 6], h["median"], rtol=1e-15)
    assert r["report"]["cells"] == len(h["count"])
    assert r["report"]["records_used"] == len(kept)
    assert r["text"] == (f"{out}: {len(h['count'])} non-empty hexagons from {len(kept)} records "
                         "(0 outside the box dropped)\n")
    bad = tmp_path / "bad.csv"
    common = dict(data=records, x="px", y="py", value="price", out=str(bad))
    with pytest.raises(gpdp.InputError, match="^cell_width must be positive, got 0"):
        gpdp.hexbin.command(**common, box="0:10,0:6", cell_width=0.0)
    with pytest.raises(gpdp.InputError, match="^box needs two ranges"):
        gpdp.hexbin.command(**common, box="0:10", cell_width=1.0)
    with pytest.raises(gpdp.InputError, match="^where must look like COLUMN=VALUE"):
        gpdp.hexbin.command(**common, box="0:10,0:6", cell_width=1.0, where="syear")
    with pytest.raises(gpdp.InputError, match="no records left after where syear=2000$"):
        gpdp.hexbin.command(**common, box="0:10,0:6", cell_width=1.0, where="syear=2000")
    with pytest.raises(gpdp.InputError, match="^hexbin: every record lies outside box$"):
        gpdp.hexbin.command(**common, box="20:30,20:30", cell_width=1.0)
    assert not bad.exists()
