"""python -m gpdp.distributed audit-study: the markdown table and the --out JSON of
`gpdp audit-study` (every row's witnesses included; the rows' "seconds" aside) on 2 Dask worker
processes, for the table's rows with n <= 2 (about 2 CPU seconds of searches): the searches are
tasks, all rows at once, their starts drawn on the coordinator, their results merged in start order.
"""

import json
import subprocess
import sys

import pytest

pytest.importorskip("dask.distributed")


def without_timing(path):
    report = json.loads(path.read_text())
    for row in report["rows"]:
        del row["seconds"]
    return report


def test_same_table_and_json_as_the_cli_on_2_workers(lab_cli, tmp_path):
    expected = lab_cli("audit-study", "--max-n", "2", "--out", tmp_path / "cli.json").stdout
    got = subprocess.run(
        [sys.executable, "-m", "gpdp.distributed", "audit-study", "--max-n", "2", "--out",
         str(tmp_path / "dask.json"), "--quiet", "--scheduler", "local:2"],
        check=True, capture_output=True, text=True)
    assert got.stdout == expected
    report = without_timing(tmp_path / "dask.json")
    assert report == without_timing(tmp_path / "cli.json")
    assert len(report["rows"]) == (5 * 2 + 2 * 3) * 2
    assert not any(row["violation"] for row in report["rows"])
