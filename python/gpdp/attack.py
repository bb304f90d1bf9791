"""The LiRA membership-inference experiment (paper §4, App. C; docs/mathematics.md §4).

    out = lira(r=1.0, releases=[ReleaseSetting(sigma=1.0, draws=1)], seed=1, shadow=2000, eval=2000)
    out[0].auc, out[0].tpr[0.01], out[0].roc     # (k, 2) array of (FPR, TPR)

Seeded throughout: an experiment, never a release.
"""

from ._core.attack import (
    FPR_LEVELS,
    EmpiricalEpsilon,
    LiraOutcome,
    ReleaseSetting,
    auc,
    dp_max_tpr,
    lira,
    roc_curve,
    tpr_at_fpr,
)

__all__ = [
    "FPR_LEVELS",
    "EmpiricalEpsilon",
    "LiraOutcome",
    "ReleaseSetting",
    "auc",
    "dp_max_tpr",
    "lira",
    "roc_curve",
    "tpr_at_fpr",
]
