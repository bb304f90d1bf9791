"""python -m gpdp.distributed reproduce: the same tables as the plain CLI, with 1 and 2 Dask
worker processes, and after a worker is killed mid-run (its tasks are rerun elsewhere)."""

import functools
import json
import os
import pathlib
import signal
import subprocess
import sys

import pytest

from gpdp import _core

distributed = pytest.importorskip("dask.distributed")

from gpdp.distributed import map_tasks, open_executor  # noqa: E402

# table1 --quick, reduced to 12 pairs per setting (about 2 s on one core).
ARGS = ["table1", "--quick", "--pairs", "12", "--seed", "5"]


def comparable(folder):
    """The files of a table run, without their timing fields (the wall time, the seconds)."""
    out = {}
    for name in ("table1.csv", "table1.md", "table1.json"):
        text = (folder / name).read_text()
        if name.endswith(".json"):
            doc = json.loads(text)
            doc.pop("seconds")
            for run in doc["runs"]:
                run.pop("seconds")
            text = json.dumps(doc, sort_keys=True)
        elif name.endswith(".md"):
            text = "\n".join(l for l in text.splitlines() if not l.startswith("Wall time"))
        out[name] = text
    return out


@pytest.fixture(scope="module")
def cli_tables(lab_cli, tmp_path_factory):
    out = tmp_path_factory.mktemp("cli")
    lab_cli("reproduce", *ARGS, "--out", out)
    return comparable(out)


def distributed_run(out, scheduler):
    subprocess.run(
        [sys.executable, "-m", "gpdp.distributed", "reproduce", *ARGS, "--out", str(out),
         "--scheduler", scheduler],
        check=True, capture_output=True, text=True,
    )
    return comparable(out)


def distributed(*args):
    return subprocess.run([sys.executable, "-m", "gpdp.distributed", "reproduce", *map(str, args)],
                          capture_output=True, text=True)


@pytest.mark.parametrize("argv", [
    ["table4", "--quick", "--pairs", "3", "--conversion", "cks", "--out", "o"],
    ["fig4-lucas", "--data-dir", "d", "--sensitivity", "b1-sharp", "--seed", "9", "--list"],
    [],
])
def test_same_request_as_the_cli(lab_cli, argv):
    """--print-request: the library's table parsed by both front ends (the target positional)."""
    expected = lab_cli("reproduce", *argv, "--print-request").stdout
    assert distributed(*argv, "--print-request").stdout == expected
    assert json.loads(expected).get("target") == (argv[0] if argv else None)


def test_list_and_errors_as_the_cli(lab_cli):
    listed = lab_cli("reproduce", "--list").stdout
    assert distributed("--list").stdout == listed
    r = distributed()  # no target: the list, then the refusal
    assert (r.returncode, r.stdout) == (1, listed)
    assert r.stderr == "gpdp.distributed reproduce: reproduce: name a target (listed above)\n"
    r = distributed("table1", "--quick", "--out", "o", "--conversion", "rdp")
    assert r.stderr == "gpdp.distributed reproduce: --conversion must be mironov or cks\n"
    r = distributed("table1", "--quick")
    assert r.stderr == "gpdp.distributed reproduce: reproduce: --out DIR is required\n"
    assert distributed("table9", "--out", "o").returncode == 2  # argparse: not a target


@pytest.mark.parametrize("scheduler", ["local:1", "local:2"])
def test_same_tables_as_the_cli(cli_tables, tmp_path, scheduler):
    assert distributed_run(tmp_path, scheduler) == cli_tables


def test_a_killed_worker_changes_nothing(cli_tables, tmp_path):
    """kill -9 one of the two workers of the LocalCluster once 5 tasks have finished: Dask reruns
    its tasks on the other worker (and the restarted one); the tables are still the CLI's."""
    killed = []
    with open_executor("local:2") as executor:
        pids = executor._client.run(os.getpid)

        def progress(done, total, kind, seconds):
            if done == 5 and not killed:
                pid = sorted(pids.values())[0]
                os.kill(pid, signal.SIGKILL)
                killed.append(pid)

        request = {"target": "table1", "out": str(tmp_path), "quick": True, "pairs": 12, "seed": 5}
        _core.reproduce(json.dumps(request),
                        functools.partial(map_tasks, executor, progress=progress), workers=2)
        assert killed, "no worker was killed"
        assert killed[0] not in executor._client.run(os.getpid).values()
    assert comparable(tmp_path) == cli_tables
