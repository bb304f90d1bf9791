"""python -m gpdp.distributed release-batch: a batch through Dask LocalCluster(2) gives folders,
certificates and ledger rows that match; a budget exhausted halfway refuses the rest (nothing
drawn); a coordinator killed with SIGKILL at each step of the protocol and restarted leaves the
ledger equal to the published folders, with no double spending; a seeded release drawn on a worker
equals `gpdp release` with the same seed; a bad manifest is refused naming the release and the
field, with nothing recorded."""

import json
import os
import pathlib
import signal
import sqlite3
import subprocess
import sys

import numpy as np
import pytest

from conftest import read_csv, write_csv

HERE = pathlib.Path(__file__).resolve().parent

DEFAULTS = {
    "x": "x1", "y": "y", "domain": "0:1", "M-Y": 1, "kernel": "exp", "ell": 0.3, "r": 4,
    "sigma": 1, "sensitivity": "b7", "delta": 1e-5, "threshold": 0, "grid": "0:1:25",
}


def dataset_csv(path, seed):
    """15 records of a smooth signal with noise; seeds give disjoint records."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0, 1, 15))
    y = np.sin(6 * x) + 0.3 * rng.standard_normal(15)
    return write_csv(path, ["x1", "y"], np.column_stack([x, y]))


def write_manifest(tmp_path, releases, defaults=None, name="batch.json"):
    manifest = {"ledger": "ledger.sqlite", "defaults": dict(DEFAULTS, **(defaults or {})),
                "releases": releases}
    path = tmp_path / name
    path.write_text(json.dumps(manifest, indent=1))
    return path


def four_regions(tmp_path):
    (tmp_path / "out").mkdir()
    releases = []
    for k in range(4):
        dataset_csv(tmp_path / f"region{k}.csv", seed=100 + k)
        releases.append({"data": f"region{k}.csv", "dataset": f"region-{k}", "out": f"out/r{k}"})
    return releases


def one_dataset_four_times(tmp_path):
    (tmp_path / "out").mkdir()
    dataset_csv(tmp_path / "wells.csv", seed=7)
    return [{"data": "wells.csv", "dataset": "wells", "out": f"out/w{k}"} for k in range(4)]


def batch(manifest, *extra, scheduler="processes:2", kill_at=None):
    """Runs the coordinator as its own process, in its own session; returns (exit status, stdout,
    stderr). With kill_at = "EVENT:K" the coordinator kills itself right after its K-th EVENT
    (batch_killed_at.py). Output goes through files, not pipes: workers that outlive a killed
    coordinator would hold pipes open. Whatever is left of the session is killed afterwards."""
    launcher = ([str(HERE / "batch_killed_at.py"), kill_at] if kill_at else
                ["-m", "gpdp.distributed"])
    cmd = [sys.executable, *launcher, "release-batch", "--manifest", str(manifest),
           "--scheduler", scheduler, *map(str, extra)]
    out_file, err_file = manifest.with_suffix(".stdout"), manifest.with_suffix(".stderr")
    with open(out_file, "w") as out, open(err_file, "w") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, start_new_session=True)
        try:
            code = proc.wait(timeout=240)
        finally:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    return code, out_file.read_text(), err_file.read_text()


def ledger_rows(path):
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT id, dataset, out_dir, state, state_note, epsilon FROM releases ORDER BY id")
        return [dict(zip(["id", "dataset", "out", "state", "note", "epsilon"], r)) for r in rows]


def spent(cli, ledger, dataset):
    report = json.loads(cli("ledger", "show", ledger, "--json").stdout)
    (d,) = [d for d in report["datasets"] if d["dataset"] == dataset]
    return d["epsilon_spent"], d["budget"]["epsilon"]


def assert_ledger_matches_folders(tmp_path, ledger, outs, settled=True):
    """Every published folder has its ledger release (same id in its certificate); every release
    is published (with its folder) or abandoned with a reason (after a restart: settled)."""
    rows = ledger_rows(ledger)
    by_out = {}
    for r in rows:
        by_out.setdefault(r["out"], []).append(r)
        if settled:
            assert r["state"] in ("published", "abandoned"), r
        if r["state"] == "abandoned":
            assert r["note"], r
    for out in outs:
        folder = tmp_path / out
        published = [r for r in by_out.get(str(folder), []) if r["state"] == "published"]
        assert len(published) <= 1  # never released twice
        if folder.exists():
            cert = json.loads((folder / "certificate.json").read_text())
            ids = [r["id"] for r in by_out[str(folder)]]
            assert cert["ledger"]["release_id"] in ids
            if settled:
                assert published and published[0]["id"] == cert["ledger"]["release_id"]
        else:
            assert not published
    return rows


def test_batch_on_a_local_cluster_publishes_what_the_ledger_records(tmp_path, cli):
    pytest.importorskip("dask.distributed")
    manifest = write_manifest(tmp_path, four_regions(tmp_path))
    code, out, err = batch(manifest, "--json", scheduler="local:2")
    assert code == 0, err
    outcome = json.loads(out)
    assert [r["status"] for r in outcome["releases"]] == ["published"] * 4
    rows = assert_ledger_matches_folders(tmp_path, tmp_path / "ledger.sqlite",
                                         [f"out/r{k}" for k in range(4)])
    assert [r["state"] for r in rows] == ["published"] * 4
    for k, r in enumerate(rows):
        folder = tmp_path / f"out/r{k}"
        cert = json.loads((folder / "certificate.json").read_text())
        assert cert["private"] is True and cert["rng"] == "secure (libsodium randombytes)"
        assert cert["ledger"]["recorded"].startswith("before the draw")
        assert cert["dataset"]["name"] == f"region-{k}" == r["dataset"]
        assert cert["guarantee"]["epsilon"] == pytest.approx(r["epsilon"])
        for f in cert["outputs"]:
            assert (folder / f["file"]).is_file()
        _, draws = read_csv(folder / "draws.csv")
        assert draws.shape[0] == 25
    # The ledger recorded each release before its draw was dispatched, as the events show.
    lines = err.splitlines()
    for k in range(4):
        recorded = next(i for i, l in enumerate(lines) if f"releases[{k}]" in l and "recorded" in l)
        dispatched = next(i for i, l in enumerate(lines) if l.strip().startswith("dispatched"))
        assert recorded < dispatched
    # Running the same manifest again releases nothing more.
    code, out, _ = batch(manifest, "--json", scheduler="processes:1")
    assert code == 0
    assert [r["status"] for r in json.loads(out)["releases"]] == ["already-published"] * 4
    assert len(ledger_rows(tmp_path / "ledger.sqlite")) == 4


def test_budget_exhausted_halfway_refuses_the_rest(tmp_path, cli):
    # b7, r = 4, n = 15: two releases compose to ε = 1.74, three to 2.09 (at δ = 1e-4): a budget
    # of 1.9 holds two of them.
    manifest = write_manifest(tmp_path, one_dataset_four_times(tmp_path))
    code, out, err = batch(manifest, "--json", "--budget-epsilon", 1.9, "--budget-delta", 1e-4,
                           scheduler="processes:1")
    assert code == 3, err
    releases = json.loads(out)["releases"]
    assert [r["status"] for r in releases] == ["published", "published", "refused", "refused"]
    for r in releases[2:]:
        assert "privacy budget exceeded" in r["message"] and "nothing drawn" in r["message"]
        assert r["release_id"] is None
        assert not (tmp_path / f"out/w{r['index']}").exists()
    rows = assert_ledger_matches_folders(tmp_path, tmp_path / "ledger.sqlite",
                                         [f"out/w{k}" for k in range(4)])
    assert len(rows) == 2
    used, budget = spent(cli, tmp_path / "ledger.sqlite", "wells")
    assert used <= budget
    # The refused releases were never dispatched: one dispatch of the two recorded ones.
    assert [l.strip() for l in err.splitlines() if l.strip().startswith("dispatched")] == [
        "dispatched: releases 1, 2"]


# Kill points: EVENT:K = right after the K-th event of that kind. Waves of 2, budget for all 4.
KILL_POINTS = ["reserved:1", "reserved:3", "dispatched:2", "drawn:1", "folder:1", "folder:3",
               "published:2"]


@pytest.mark.parametrize("kill_at", KILL_POINTS)
def test_coordinator_killed_then_resumed_keeps_ledger_equal_to_folders(tmp_path, cli, kill_at):
    manifest = write_manifest(tmp_path, one_dataset_four_times(tmp_path))
    args = ["--wave", 2, "--budget-epsilon", 6, "--budget-delta", 1e-4]
    outs = [f"out/w{k}" for k in range(4)]
    ledger = tmp_path / "ledger.sqlite"
    code, _, err = batch(manifest, *args, kill_at=kill_at, scheduler="processes:1")
    assert code == -signal.SIGKILL, err
    before = ledger_rows(ledger)
    assert_ledger_matches_folders(tmp_path, ledger, outs, settled=False)
    code, out, err = batch(manifest, *args, "--json", scheduler="processes:1")
    assert code in (0, 3), err
    outcome = json.loads(out)
    rows = assert_ledger_matches_folders(tmp_path, ledger, outs)
    statuses = [r["status"] for r in outcome["releases"]]
    assert set(statuses) <= {"published", "already-published", "abandoned"}
    # No double spending: one ledger release per folder; a release reserved but never drawn is
    # resumed under its reservation, not recorded again.
    assert len(rows) == 4 and len({r["out"] for r in rows}) == 4
    assert [r["id"] for r in rows[: len(before)]] == [r["id"] for r in before]
    abandoned = [r for r in rows if r["state"] == "abandoned"]
    event = kill_at.split(":")[0]
    if event == "reserved":  # nothing was drawn before the crash: everything is published
        assert not abandoned
    if event in ("dispatched", "drawn"):  # the dispatched wave's draws may exist: abandoned
        assert len(abandoned) == 2
        assert all("never drawn again" in r["note"] for r in abandoned)
    if event in ("folder", "published"):  # a folder in place is published after the restart
        assert not abandoned or all("never drawn again" in r["note"] for r in abandoned)
    used, budget = spent(cli, ledger, "wells")
    assert used <= budget
    # A third run changes nothing.
    code, out, _ = batch(manifest, *args, "--json", scheduler="processes:1")
    assert ledger_rows(ledger) == rows


def test_seeded_batch_release_equals_the_cli_release(tmp_path, cli):
    dataset_csv(tmp_path / "wells.csv", seed=7)
    (tmp_path / "out").mkdir()
    release = {"data": "wells.csv", "dataset": "wells", "out": "out/batch", "insecure-seed": 5,
               "draws": 2}
    manifest = write_manifest(tmp_path, [release])
    code, out, err = batch(manifest, "--json", scheduler="processes:1")
    assert code == 0, err
    assert json.loads(out)["releases"][0]["message"] == "seeded: NOT PRIVATE"
    flags = [f"--{k}={v}" for k, v in DEFAULTS.items()]
    cli("release", "--data", tmp_path / "wells.csv", "--dataset", "wells", *flags,
        "--out", tmp_path / "out/cli", "--draws", 2, "--insecure-seed", 5,
        "--ledger", tmp_path / "cli.sqlite")
    batch_cert = json.loads((tmp_path / "out/batch/certificate.json").read_text())
    cli_cert = json.loads((tmp_path / "out/cli/certificate.json").read_text())
    assert batch_cert["private"] is False and "NOT PRIVATE" in batch_cert["rng"]
    assert (tmp_path / "out/batch/draws.csv").read_bytes() == (
        tmp_path / "out/cli/draws.csv").read_bytes()
    assert batch_cert["guarantee"] == cli_cert["guarantee"]
    assert batch_cert["sampler"] == cli_cert["sampler"]


@pytest.mark.parametrize("change, named", [
    ({"ell": "0.2"}, "'ell': expected a number"),
    ({"delta": 2}, "'delta': must lie in (0, 1)"),
    ({"colour": "red"}, "unknown option 'colour'"),
    ({"keep-path": "p.bin"}, "'keep-path' is not available in a batch"),
    ({"points": "pts.csv"}, "'points'/'grid'/'grid2d': give exactly one"),
    ({"data": "missing.csv"}, "missing.csv"),
])
def test_bad_manifest_is_refused_naming_release_and_field(tmp_path, change, named):
    releases = four_regions(tmp_path)
    releases[2].update(change)
    manifest = write_manifest(tmp_path, releases)
    code, _, err = batch(manifest, scheduler="processes:1")
    assert code == 1
    assert "releases[2] (dataset 'region-2')" in err and named in err, err
    assert not any((tmp_path / "out").iterdir())  # nothing drawn, nothing published
    ledger = tmp_path / "ledger.sqlite"
    assert not ledger.exists() or ledger_rows(ledger) == []  # nothing recorded


def test_batch_accepts_mechanism_auto(tmp_path, cli):
    """A manifest's release with mechanism "auto" (issue #28): the summary is drawn and the
    candidate chosen by the coordinator, the chosen draw made by a worker; the certificate and the
    ledger hold the whole spend (summary then the envelope), within the target."""
    (tmp_path / "out").mkdir()
    dataset_csv(tmp_path / "wells.csv", seed=7)
    auto = {"data": "wells.csv", "dataset": "wells", "out": "out/auto", "mechanism": "auto",
            "target-epsilon": 2, "insecure-seed": 3}
    manifest = write_manifest(tmp_path, [auto])
    code, out, err = batch(manifest, "--json", scheduler="processes:1")
    assert code == 0, err
    assert [r["status"] for r in json.loads(out)["releases"]] == ["published"]
    cert = json.loads((tmp_path / "out/auto/certificate.json").read_text())
    assert cert["guarantee"]["epsilon"] <= 2
    assert [p["event"]["kind"] for p in cert["parts"]] == ["grid-mean", "choice"]
    assert "reference only" in cert["auto"]["candidates"][0]["name"]
    assert cert["auto"]["chosen"] != cert["auto"]["candidates"][0]["name"]
    (row,) = ledger_rows(tmp_path / "ledger.sqlite")
    assert row["epsilon"] == pytest.approx(cert["guarantee"]["epsilon"])
    refused = write_manifest(tmp_path, [dict(auto, out="out/r", **{"refuse-if-useless": True})],
                             name="refused.json")
    code, _, err = batch(refused, scheduler="processes:1")
    assert code != 0 and "refuse-if-useless" in err
