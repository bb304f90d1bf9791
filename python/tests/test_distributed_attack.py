"""python -m gpdp.distributed attack / reproduce fig2 / reproduce ops-abalone: the same report and
the same files as the plain CLI, with 1 and 2 Dask worker processes (the attack's (r, seed) items
and the OPS repeats are tasks; each derives its streams from its params only)."""

import subprocess
import sys

import pytest
from conftest import REPO

pytest.importorskip("dask.distributed")

# One configuration, 4 seeds (4 "attack.lira" tasks) with the non-private benchmark; small sizes.
ATTACK = ["--r", "1", "--sigma", "5", "--draws", "3", "--shadow", "300", "--eval", "300",
          "--seeds", "4", "--seed", "11", "--benchmark"]
# Figure 2 at quick size with 100 datasets per hypothesis: 5 r x 3 seeds = 15 tasks.
FIG2 = ["fig2", "--quick", "--pairs", "100", "--seed", "3"]
FIG2_FILES = ["fig2.csv", "fig2.md", "fig2.png", "fig2_left.png", "fig2_right.png", "fig2_roc.png"]


def distributed(*args):
    return subprocess.run([sys.executable, "-m", "gpdp.distributed", *map(str, args)],
                          check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def cli_attack(lab_cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("cli-attack")
    text = lab_cli("attack", *ATTACK, "--quiet", "--roc-csv", out / "roc.csv").stdout
    json_report = lab_cli("attack", *ATTACK, "--quiet", "--json").stdout
    return text, json_report, (out / "roc.csv").read_bytes()


def test_attack_sweep_same_report_as_the_cli(cli_attack, tmp_path, scheduler="local:2"):
    text = distributed("attack", *ATTACK, "--roc-csv", tmp_path / "roc.csv",
                       "--scheduler", scheduler).stdout
    json_report = distributed("attack", *ATTACK, "--json", "--quiet",
                              "--scheduler", scheduler).stdout
    assert (text, json_report, (tmp_path / "roc.csv").read_bytes()) == cli_attack


@pytest.fixture(scope="module")
def cli_fig2(lab_cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("cli-fig2")
    lab_cli("reproduce", *FIG2, "--out", out)
    return {name: (out / name).read_bytes() for name in FIG2_FILES}


@pytest.mark.parametrize("scheduler", ["local:1", "local:2"])
def test_fig2_same_files_as_the_cli(cli_fig2, tmp_path, scheduler):
    distributed("reproduce", *FIG2, "--out", tmp_path, "--scheduler", scheduler)
    assert {name: (tmp_path / name).read_bytes() for name in FIG2_FILES} == cli_fig2


def test_ops_repeats_same_table_as_the_cli(lab_cli, tmp_path):
    """ops-abalone --quick with 2 repeats: 32 "ops.repeat" tasks on 2 worker processes."""
    args = ["ops-abalone", "--quick", "--pairs", "2", "--seed", "9", "--data-dir", REPO / "data"]
    lab_cli("reproduce", *args, "--out", tmp_path / "cli")
    distributed("reproduce", *args, "--out", tmp_path / "dask", "--scheduler", "local:2")
    for name in ("ops-abalone.csv", "ops-abalone.md"):
        cli_text, dask_text = ((tmp_path / d / name).read_text() for d in ("cli", "dask"))
        if name.endswith(".md"):  # the run time is the only difference allowed
            cli_text, dask_text = (
                "\n".join(line.split(" Run time")[0] for line in t.splitlines())
                for t in (cli_text, dask_text))
        assert dask_text == cli_text, name
