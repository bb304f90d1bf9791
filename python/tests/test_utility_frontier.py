"""bench/utility_frontier.py --quick (CI's run of the utility frontier, docs/utility.md): every map of
the full run is measured on every data set, the scores are the held-out records' (the two trivial
maps' accuracies add up to one; the non-private map beats the better trivial map on the data sets
with signal), every gpdp mechanism accounted to at most the ε it is compared at (the script exits
otherwise), and the table and plots are written."""

import json
import pathlib
import subprocess
import sys

import numpy as np
import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = REPO / "bench" / "utility_frontier.py"


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    out = tmp_path_factory.mktemp("frontier")
    proc = subprocess.run([sys.executable, str(SCRIPT), "--quick", "--quiet", "--out", str(out)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return out, json.loads((out / "frontier.json").read_text())


def test_every_map_on_every_data_set(quick):
    out, report = quick
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import utility_frontier as uf
    finally:
        sys.path.pop(0)
    assert report["epsilons"] == [1.0, 10.0]
    assert set(report["results"]) == {d.name for d in uf.DATASETS}
    expected = {name for name, _ in uf.MECHANISMS} | {
        "trivial-out", "trivial-in", "non-private GP", "noisy grid (k=10)", "noisy sign grid (cells=ℓ)"}
    for name, res in report["results"].items():
        summary = res["summary"]
        assert set(summary) == expected, name
        for mname, cells in summary.items():
            keys = {"all"} if mname in ("trivial-out", "trivial-in", "non-private GP") else {"1.0", "10.0"}
            assert set(cells) == keys, (name, mname)
            for c in cells.values():
                assert c["seeds"] == 2
                assert 0.0 <= c["accuracy_mean"] <= 1.0 and 0.0 <= c["iou_mean"] <= 1.0
        assert (out / f"{name}.png").stat().st_size > 10_000
    assert "| grid mean + GP |" in (out / "frontier.md").read_text()


def test_scores_are_the_held_out_records(quick):
    _, report = quick
    for name, res in report["results"].items():
        s = res["summary"]
        out_acc = s["trivial-out"]["all"]["accuracy_mean"]
        in_acc = s["trivial-in"]["all"]["accuracy_mean"]
        # The trivial maps are complementary on the same held-out records.
        assert out_acc + in_acc == pytest.approx(1.0, abs=1e-12), name
        # "Nowhere exceeds" scores the held-out share below t: close to the data set's share
        # (the held-out records are a random fifth, or a CV fold).
        assert out_acc == pytest.approx(1.0 - res["meta"]["share_above"], abs=0.08), name
    # Where the data carry spatial signal, the non-private GP map must beat both trivial maps
    # (a misaligned split, mislabelled truth or wrong threshold would put it at the trivial level).
    for name in ("lucas98", "boston", "sacramento"):
        s = report["results"][name]["summary"]
        best_trivial = max(s["trivial-out"]["all"]["accuracy_mean"],
                           s["trivial-in"]["all"]["accuracy_mean"])
        assert s["non-private GP"]["all"]["accuracy_mean"] > best_trivial + 0.05, name


def test_evidence_checks_and_report_from(quick, tmp_path):
    """The issue's checks are computed from the table (recomputed here from the summary), and
    --report-from redraws the same table and checks from frontier.json without measuring."""
    out, report = quick
    for name, res in report["results"].items():
        s = res["summary"]
        for e in report["epsilons"]:
            c = report["evidence"][name][str(e)]
            grid = max(s[m][str(e)]["accuracy_mean"]
                       for m in ("noisy grid (k=10)", "noisy sign grid (cells=ℓ)"))
            own = s["grid mean + GP"][str(e)]["accuracy_mean"]
            assert c["B"] == pytest.approx(own - grid, abs=1e-12)
            assert c["B_vs_cells_map"] == pytest.approx(
                own - s["grid mean, cells map"][str(e)]["accuracy_mean"], abs=1e-12)
            assert s[c["best"]][str(e)]["accuracy_mean"] - grid == pytest.approx(c["A"], abs=1e-12)
    again = tmp_path / "again"
    proc = subprocess.run([sys.executable, str(SCRIPT), "--report-from", str(out / "frontier.json"),
                           "--out", str(again)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    text = (out / "frontier.md").read_text()
    assert "## Evidence (issue #27)" in text
    assert (again / "frontier.md").read_text() == text
    assert (again / "meuse.png").stat().st_size > 10_000


def _frontier():
    sys.path.insert(0, str(SCRIPT.parent))
    try:
        import utility_frontier as uf
    finally:
        sys.path.pop(0)
    return uf


def test_grid_mean_on_the_sign_grids_cells():
    """The "(cells=ℓ)" grid-mean rows release on the noisy sign grid baseline's cells: Meuse's
    padded domain is 2896 × 4053 m and ℓ = 498 m (a tenth of its diagonal), so round(4053 / 498)
    = 8 cells on each axis; gpdp's mechanism block names exactly those cells (a row that lost its
    `cells` would get the default rule's 4 × 6 at ε = 3)."""
    import gpdp.mechanisms as gm

    uf = _frontier()
    rec = uf.load(next(d for d in uf.DATASETS if d.name == "meuse"))
    assert uf.cells_of_side_ell(rec) == 8
    options = dict(uf.MECHANISMS)
    train = np.arange(len(rec.value))
    for name in ("grid mean, cells map, sign (cells=ℓ)", "grid mean + GP, sign (cells=ℓ)"):
        prep = gm.prepare(X=rec.X, y=rec.value, points=rec.X[:5], input=uf.gpdp_input(rec, options[name]),
                          options=uf.gpdp_options(rec, train, 3.0, len(train) ** -1.1, options[name]))
        assert prep.describe()["mechanism"]["cells"] == [8, 8], name
        assert prep.epsilon <= 3.0 * (1 + 1e-9)


def test_maps_names_may_hold_commas():
    uf = _frontier()
    known = [m for m, _ in uf.MECHANISMS]
    assert uf.map_names("grid mean, cells map, sign (cells=ℓ),grid mean + GP, sign (cells=ℓ)", known) == [
        "grid mean, cells map, sign (cells=ℓ)", "grid mean + GP, sign (cells=ℓ)"]
    # The longest known name wins: "grid mean + GP, sign" is a name and a prefix of none here.
    assert uf.map_names("grid mean + GP, sign,auto,grid mean, cells map", known) == [
        "grid mean + GP, sign", "auto", "grid mean, cells map"]
    assert uf.map_names("no such map,auto", known) == ["no such map", "auto"]


def test_report_of_a_partial_run_without_base(quick, tmp_path):
    """A --maps run without --base (e.g. auto alone) has no rows for the checks' other maps: the
    report skips those checks instead of failing after the measuring, and keeps every score."""
    out, report = quick
    keep = ("trivial-out", "trivial-in", "non-private GP", "noisy grid (k=10)",
            "noisy sign grid (cells=ℓ)", "auto")
    partial = json.loads(json.dumps(report))
    for res in partial["results"].values():
        res["summary"] = {m: v for m, v in res["summary"].items() if m in keep}
    (tmp_path / "partial.json").write_text(json.dumps(partial))
    proc = subprocess.run([sys.executable, str(SCRIPT), "--report-from", str(tmp_path / "partial.json"),
                           "--out", str(tmp_path / "again")], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    again = json.loads((tmp_path / "again" / "frontier.json").read_text())
    assert again["evidence"] == {} and again["evidence_auto"] == {}
    assert again["results"]["meuse"]["summary"]["auto"] == partial["results"]["meuse"]["summary"]["auto"]
