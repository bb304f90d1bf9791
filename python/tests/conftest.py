"""Shared fixtures: the built `gpdp` CLI (for agreement tests), small data sets as CSV files."""

import os
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def _find_cli():
    env = os.environ.get("GPDP_CLI")
    if env and os.access(env, os.X_OK):
        return env
    built = [c for c in REPO.glob("build*/gpdp") if c.is_file() and os.access(c, os.X_OK)]
    if built:  # the newest build of the CLI
        return str(max(built, key=lambda c: c.stat().st_mtime))
    return shutil.which("gpdp")


@pytest.fixture(scope="session")
def cli():
    """Runs the gpdp CLI: cli(args...) -> CompletedProcess (text); skips when none is built
    (`make test` builds it first and passes GPDP_CLI)."""
    path = _find_cli()
    if path is None:
        pytest.skip("the gpdp CLI is not built (set GPDP_CLI or run make build)")

    def run(*args, check=True):
        proc = subprocess.run([path, *map(str, args)], capture_output=True, text=True)
        if check and proc.returncode != 0:
            raise AssertionError(f"gpdp {' '.join(map(str, args))} failed: {proc.stderr}")
        return proc

    run.path = path
    return run


def write_csv(path, columns, rows):
    """A CSV with a header; numbers written with repr() (round-trip exact)."""
    with open(path, "w") as f:
        f.write(",".join(columns) + "\n")
        for row in rows:
            f.write(",".join(repr(float(v)) for v in row) + "\n")
    return path


def read_csv(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        data = np.array([[float(v) for v in line.split(",")] for line in f if line.strip()])
    return header, data


@pytest.fixture
def data_1d():
    rng = np.random.default_rng(7)
    X = np.sort(rng.uniform(0, 1, 40))
    y = np.clip(np.sin(6 * X) + 0.2 * rng.standard_normal(40), -1, 1)
    return X, y


@pytest.fixture
def data_2d():
    rng = np.random.default_rng(11)
    X = rng.uniform(0, 1, (60, 2))
    y = np.clip(np.cos(4 * X[:, 0]) * np.sin(3 * X[:, 1]) + 0.1 * rng.standard_normal(60), -1, 1)
    return X, y
