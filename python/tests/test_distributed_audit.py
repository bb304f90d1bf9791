"""python -m gpdp.distributed audit: the report of `gpdp audit` (--json, with the best witness of
every order; and the text report) with 1 and 2 Dask worker processes: the restarts are tasks,
their starts drawn on the coordinator, their results merged in start order."""

import subprocess
import sys

import pytest

pytest.importorskip("dask.distributed")

# n = 3 on [0, 1]: a few hundred short local searches (about 2 s on one core).
ARGS = ["--kernel", "exp1d", "--n", "3", "--r", "1", "--sigma", "1", "--delta", "1e-5",
        "--restarts", "3", "--evals", "40", "--alpha", "1.2,1.6", "--seed", "5"]


@pytest.fixture
def one_blas_thread(monkeypatch):
    """The CLI and the coordinator on one BLAS thread, as the workers are: a BLAS call then
    rounds the same wherever it runs."""
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")


@pytest.mark.parametrize("search", ["gradient", "subplex"])
def test_same_report_as_the_cli_on_1_and_2_workers(lab_cli, one_blas_thread, search):
    expected = lab_cli("audit", *ARGS, "--search", search, "--json", "--quiet").stdout
    for scheduler in ("local:1", "local:2"):
        got = subprocess.run(
            [sys.executable, "-m", "gpdp.distributed", "audit", *ARGS, "--search", search,
             "--json", "--quiet", "--scheduler", scheduler],
            check=True, capture_output=True, text=True).stdout
        assert got == expected, scheduler


def test_same_text_report_as_the_cli(lab_cli, one_blas_thread):
    expected = lab_cli("audit", *ARGS, "--quiet").stdout
    got = subprocess.run(
        [sys.executable, "-m", "gpdp.distributed", "audit", *ARGS, "--quiet",
         "--scheduler", "local:1"], check=True, capture_output=True, text=True).stdout
    assert got == expected
