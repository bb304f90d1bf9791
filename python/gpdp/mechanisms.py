"""Releases prepared once and drawn with seeds: what a utility benchmark measures.

    import gpdp
    prep = gpdp.mechanisms.prepare(
        X=X, y=y, points=held_out_X,
        input={"domain": "0:1,0:1", "M_Y": 1, "center": t, "scale": 1.5},
        options={"kernel": "exp", "ell": 0.2, "sigma": 0.5, "target_epsilon": 1,
                 "delta": 1e-4, "threshold": t})
    prep.epsilon          # ε(δ) of one release, all its parts composed
    prep.describe()       # the certificate's mechanism block: θ, solved r/η/s, each part's ε
    r = prep.release(7)   # {"fields": (m, L), "set": (m,), "probability": (m,) or None}

X, y are the RAW records (the input description's transform, centring, scaling and clipping are
applied as `gpdp release` applies them); points (or grid=gpdp.Grid) are where the map is
evaluated, in the same coordinates. options are `gpdp release`'s option names without "--"
(underscores may stand for hyphens: vote_cutoff = vote-cutoff). prepare() validates, accounts
(calibrates) and factorises once; release(seed) draws exactly what `gpdp release --insecure-seed
seed` would release on the same records and points (the same map mechanism, snapping and
released set), in model units. Seeded: NOT private, and nothing is recorded in a ledger.
"""

from ._core import mechanisms as _m

PreparedRelease = _m.PreparedRelease


def _option_name(key):
    if key in ("Delta_n", "Delta-n"):
        return "Delta-n"
    return key.replace("_", "-")


def prepare(*, X, y, points=None, grid=None, input, options):
    """A PreparedRelease (see the module docstring)."""
    opts = {_option_name(k): v for k, v in dict(options).items()}
    return _m.prepare(X=X, y=y, points=points, grid=grid, input=dict(input), options=opts)


__all__ = ["PreparedRelease", "prepare"]
