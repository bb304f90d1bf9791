"""matplotlib helpers: an excursion map, ε curves, ROC curves.

Each function draws on `ax` (a new figure when None) and returns the Axes. matplotlib is imported
lazily, so `import gpdp` works without it (pip install "gpdp[plot]").
"""

from __future__ import annotations

import numpy as np


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(5, 4))
    return ax


def excursion_map(grid, values, *, ax=None, data=None, level=None, cmap="viridis", title=None,
                  colorbar=True):
    """A map of `values` on a gpdp.Grid (point order: first axis fastest).

    2-D grids are drawn as an image (0/1 release sets or probabilities), with an optional contour
    at `level` and training covariates `data` ((n, 2) array) as dots; 1-D grids as a line.
    """
    ax = _axes(ax)
    values = np.asarray(values, dtype=np.float64)
    if values.size != grid.size:
        raise ValueError(f"values has {values.size} entries but the grid has {grid.size} points")
    axes = grid.axes
    if grid.dim == 1:
        ax.plot(axes[0], values, color="C0")
        if level is not None:
            ax.axhline(level, color="0.4", lw=0.8, ls="--")
        if data is not None:
            d = np.asarray(data, dtype=np.float64).reshape(-1)
            ax.plot(d, np.full_like(d, values.min()), "|", color="k", alpha=0.5)
        ax.set_xlabel("x")
    elif grid.dim == 2:
        nx, ny = grid.shape
        image = values.reshape(ny, nx)  # first axis fastest: rows are x2, columns x1
        extent = (axes[0][0], axes[0][-1], axes[1][0], axes[1][-1])
        im = ax.imshow(image, origin="lower", extent=extent, cmap=cmap, aspect="auto",
                       interpolation="nearest")
        if level is not None:
            ax.contour(axes[0], axes[1], image, levels=[level], colors="w", linewidths=1.0)
        if data is not None:
            d = np.asarray(data, dtype=np.float64)
            ax.scatter(d[:, 0], d[:, 1], s=4, c="k", alpha=0.5)
        if colorbar:
            ax.figure.colorbar(im, ax=ax)
        ax.set_xlabel("x1")
        ax.set_ylabel("x2")
    else:
        raise ValueError(f"excursion_map draws 1-D or 2-D grids, got {grid.dim}-D")
    if title:
        ax.set_title(title)
    return ax


def epsilon_curve(x, epsilons, *, ax=None, label=None, xlabel="draws L", logx=False, logy=False,
                  target=None):
    """ε against a parameter (draws L, r, σ, ...), with an optional horizontal target ε₀."""
    ax = _axes(ax)
    ax.plot(np.asarray(x), np.asarray(epsilons), marker="o", ms=3, label=label)
    if target is not None:
        ax.axhline(target, color="0.4", lw=0.8, ls="--", label=f"ε₀ = {target:g}")
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("ε")
    if label is not None or target is not None:
        ax.legend()
    return ax


def rdp_curve(mechanism_or_accountant, *, ax=None, alphas=None, label=None):
    """α ↦ ε_α of a GpMechanism, RdpCurve or Accountant on its admissible range."""
    ax = _axes(ax)
    f = mechanism_or_accountant
    amax = f.alpha_max
    if alphas is None:
        hi = min(amax, 1e3)
        alphas = 1 + np.geomspace(1e-3, (hi - 1) * (1 - 1e-6), 200)
    values = f.rdp(np.asarray(alphas)) if hasattr(f, "rdp") else f(np.asarray(alphas))
    ax.plot(alphas, values, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("Rényi order α")
    ax.set_ylabel("ε_α")
    if label is not None:
        ax.legend()
    return ax


def roc(curves, *, ax=None, log=True, epsilon=None, delta=0.0):
    """ROC curves: `curves` maps a label to a (k, 2) array of (FPR, TPR) (e.g. LiraOutcome.roc).

    log=True draws log-log axes (the low-FPR corner, as in the paper); with `epsilon` the largest
    TPR an (ε, δ)-DP mechanism allows is drawn as a dashed line.
    """
    ax = _axes(ax)
    if not isinstance(curves, dict):
        curves = {None: curves}
    for label, pts in curves.items():
        pts = np.asarray(pts, dtype=np.float64)
        ax.plot(pts[:, 0], pts[:, 1], label=label)
    lo = 1e-4 if log else 0.0
    fpr = np.geomspace(1e-4, 1, 200) if log else np.linspace(0, 1, 200)
    ax.plot(fpr, fpr, color="0.6", lw=0.8, ls=":", label="chance")
    if epsilon is not None:
        from ._core.attack import dp_max_tpr

        ax.plot(fpr, [dp_max_tpr(f, epsilon, delta) for f in fpr], color="k", lw=0.8, ls="--",
                label=f"(ε={epsilon:g}, δ={delta:g}) bound")
    if log:
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lo, 1)
        ax.set_ylim(lo, 1)
    ax.set_xlabel("false-positive rate")
    ax.set_ylabel("true-positive rate")
    ax.legend()
    return ax
