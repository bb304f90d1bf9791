"""gpdp.ledger (`gpdp ledger show|export|migrate` as calls): every request option of each
subcommand is a keyword (the ledger file too, the CLI's positional argument), the request is the
CLI's --print-request, and the calls print and write what the CLI does; errors name the
keywords."""

import json

import pytest

import gpdp
from conftest import write_csv

SAMPLE = {"flag": True, "real": 0.5, "text": "v", "text-list": ["a", "b"]}


def argv_of(subcommand, keywords):
    argv = []
    for keyword, value in keywords.items():
        spec = gpdp.ledger.options(subcommand)[keyword]
        if spec["positional"]:
            argv += [str(value)]
        elif isinstance(value, list):
            argv += [spec["flag"], ",".join(value)]
        else:
            argv += [spec["flag"]] if value is True else [spec["flag"], str(value)]
    return argv


@pytest.mark.parametrize("subcommand", ["show", "export", "migrate"])
def test_python_accepts_every_request_option_of_the_cli(cli, subcommand):
    """The option-parity test: every request option of `gpdp ledger SUBCOMMAND` (the library's
    table) is a keyword of gpdp.ledger.request / the call, under its request key, and the request
    is what the CLI prints for the same options."""
    specs = [s for s in json.loads(gpdp._core.command_options(f"ledger {subcommand}"))
             if s["scope"] == "request"]
    assert [s["key"] for s in specs if s["positional"]] == ["ledger"]
    assert {"json", "print_request"}.isdisjoint(gpdp.ledger.options(subcommand))
    every = {}
    for spec in specs:
        keyword = spec["key"].replace("-", "_")
        made = gpdp.ledger.request(subcommand, **{"ledger": "l.sqlite",
                                                  keyword: SAMPLE[spec["type"]]})
        assert spec["key"] in made, keyword
        every[keyword] = SAMPLE[spec["type"]]
    every["ledger"] = "l.sqlite"
    printed = cli("ledger", subcommand, *argv_of(subcommand, every), "--print-request").stdout
    assert json.loads(printed) == gpdp.ledger.request(subcommand, **every)
    with pytest.raises(gpdp.InputError, match="unknown option"):
        gpdp.ledger.request(subcommand, colour="red")
    with pytest.raises(gpdp.InputError, match="^ledger is required"):
        gpdp.ledger.request(subcommand)
    with pytest.raises(gpdp.InputError, match="no subcommand 'drop'"):
        gpdp.ledger.options("drop")


@pytest.fixture
def ledger(cli, tmp_path, data_2d):
    """Two releases of one dataset recorded in a ledger, the second with its path kept."""
    X, y = data_2d
    data = write_csv(tmp_path / "d.csv", ["x1", "x2", "y"], [[*x, v] for x, v in zip(X, y)])
    path = tmp_path / "l.sqlite"
    for name, keep in (("a", []), ("b", ["--keep-path", tmp_path / "p.gpdp"])):
        cli("release", "--data", data, "--domain", "0:1,0:1", "--kernel", "exp", "--ell", "0.3",
            "--r", "3", "--grid2d", "0:1:6,0:1:5", "--threshold", "0", "--delta", "1e-3",
            "--dataset", "d", "--ledger", path, "--budget-epsilon", "9", "--budget-delta", "1e-3",
            *keep, "--out", tmp_path / name)
    return path


def test_show_and_export_are_the_cli(cli, ledger, tmp_path):
    """show's report and table, export's JSON (printed or written) are the CLI's."""
    shown = gpdp.ledger.show(ledger=str(ledger))
    assert shown["text"] == cli("ledger", "show", ledger).stdout
    assert shown["report"] == json.loads(cli("ledger", "show", "--json", ledger).stdout)
    releases = shown["report"]["datasets"][0]["releases"]
    assert [r["kept_path_id"] != "" for r in releases] == [False, True]
    assert "(path kept" in shown["text"].splitlines()[-1]
    assert gpdp.ledger.show(ledger=str(ledger), dataset="other")["report"]["datasets"] == []

    printed = gpdp.ledger.export(ledger=str(ledger))
    assert printed["text"] == cli("ledger", "export", ledger).stdout
    out = tmp_path / "e.json"
    written = gpdp.ledger.export(ledger=str(ledger), out=str(out))
    assert written["text"] == "" and json.loads(out.read_text()) == shown["report"]


def test_migrate_and_errors_name_keywords(ledger, tmp_path):
    """migrate of a current ledger says nothing is left; errors name keywords and leave no
    ledger behind."""
    assert gpdp.ledger.migrate(ledger=str(ledger)) == (
        f"ledger {ledger}: schema 3, nothing left to migrate\n")
    missing = tmp_path / "none.sqlite"
    with pytest.raises(gpdp.InputError, match="^dataset NAME is required with data$"):
        gpdp.ledger.migrate(ledger=str(missing), data="d.csv")
    with pytest.raises(gpdp.InputError, match="^M_Y: must be positive"):
        gpdp.ledger.migrate(ledger=str(missing), data="d.csv", dataset="s", M_Y=0)
    assert not missing.exists()
    with pytest.raises(gpdp.InputError, match="no such file"):
        gpdp.ledger.show(ledger=str(missing))
