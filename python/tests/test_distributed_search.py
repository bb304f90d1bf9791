"""python -m gpdp.distributed search / reproduce fig4-lucas: the same report and the same files as
the plain CLI, with 1 and 2 Dask worker processes. The search's θ evaluations are
"public_search.ell" tasks (one per length-scale of a round); in 2-D a worker that has not seen a
length-scale's earlier rounds replays them, so the numbers do not depend on where tasks run."""

import random
import subprocess
import sys

import pytest
from conftest import REPO

pytest.importorskip("dask.distributed")

# A 2-D field observed at 40 training and 60 validation points (both public); a small grid with
# two refinement rounds: 3 + up to 2 x 9 tasks, the hybrid route's kept state exercised.
GRID = ["--ell-range", "0.1:3:3", "--r-range", "0.05:20:5", "--sigma-range", "0.05:5:3",
        "--refine", "2", "--n", "50", "--target-epsilon", "10", "--delta", "1e-3"]
FIG4_FILES = ["fig4-lucas.md", "fig4-lucas.png", "fig4-lucas.tif", "fig4-lucas.geojson"]


def distributed(*args):
    return subprocess.run([sys.executable, "-m", "gpdp.distributed", *map(str, args)],
                          check=True, capture_output=True, text=True)


def field(x1, x2):
    return 0.9 * (0.6 - ((x1 - 0.4) ** 2 + (x2 - 0.6) ** 2) * 4.0) - 0.1


@pytest.fixture(scope="module")
def public_data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("public")
    rng = random.Random(5)
    for name, count in (("train.csv", 40), ("val.csv", 60)):
        lines = ["x1,x2,y"]
        for _ in range(count):
            x1, x2 = rng.random(), rng.random()
            y = max(-1.0, min(1.0, field(x1, x2) + rng.uniform(-0.3, 0.3)))
            lines.append(f"{x1!r},{x2!r},{y!r}")
        (folder / name).write_text("\n".join(lines) + "\n")
    return ["--data", folder / "train.csv", "--validation", folder / "val.csv", *GRID]


@pytest.fixture(scope="module")
def cli_search(cli, public_data, tmp_path_factory):
    out = tmp_path_factory.mktemp("cli-search") / "search.json"
    json_report = cli("search", *public_data, "--json", "--out", out).stdout
    text = cli("search", *public_data).stdout
    return json_report, out.read_bytes(), text


@pytest.mark.parametrize("scheduler", ["local:1", "local:2"])
def test_search_same_report_as_the_cli(cli_search, public_data, tmp_path, scheduler):
    json_report = distributed("search", *public_data, "--json", "--out", tmp_path / "s.json",
                              "--scheduler", scheduler).stdout
    assert (json_report, (tmp_path / "s.json").read_bytes()) == cli_search[:2]
    assert '"private"' in json_report
    if scheduler == "local:2":
        assert distributed("search", *public_data, "--quiet",
                           "--scheduler", scheduler).stdout == cli_search[2]


def test_fig4_lucas_same_files_as_the_cli(lab_cli, tmp_path):
    """The full fig4-lucas (409 hexagons to fit, 313 to score): about 7 s on one core."""
    args = ["fig4-lucas", "--data-dir", REPO / "data"]
    lab_cli("reproduce", *args, "--out", tmp_path / "cli")
    distributed("reproduce", *args, "--out", tmp_path / "dask", "--scheduler", "local:2")
    for name in FIG4_FILES:
        assert (tmp_path / "dask" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes(), \
            name
