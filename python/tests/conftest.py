"""Shared fixtures: the built `gpdp` and `gpdp-lab` CLIs (for agreement tests), small data sets as
CSV files."""

import os
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]


def _find_program(name, env_var):
    env = os.environ.get(env_var)
    if env and os.access(env, os.X_OK):
        return env
    built = [c for c in REPO.glob(f"build*/{name}") if c.is_file() and os.access(c, os.X_OK)]
    if built:  # the newest build of the program
        return str(max(built, key=lambda c: c.stat().st_mtime))
    return shutil.which(name)


def _runner(name, env_var):
    """Runs the program: run(args...) -> CompletedProcess (text); skips when none is built
    (`make test` builds both first and passes GPDP_CLI and GPDP_LAB_CLI)."""
    path = _find_program(name, env_var)
    if path is None:
        pytest.skip(f"the {name} CLI is not built (set {env_var} or run make build)")

    def run(*args, check=True):
        proc = subprocess.run([path, *map(str, args)], capture_output=True, text=True)
        if check and proc.returncode != 0:
            raise AssertionError(f"{name} {' '.join(map(str, args))} failed: {proc.stderr}")
        return proc

    run.path = path
    return run


@pytest.fixture(scope="session")
def cli():
    """The product CLI, gpdp (release, preview, query, ...)."""
    return _runner("gpdp", "GPDP_CLI")


@pytest.fixture(scope="session")
def lab_cli():
    """The research tools, gpdp-lab (reproduce, attack, audit, audit-study, curves, ops)."""
    return _runner("gpdp-lab", "GPDP_LAB_CLI")


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
