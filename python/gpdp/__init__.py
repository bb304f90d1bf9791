"""gpdp: differentially private Gaussian-process posterior sample paths.

The C++ core (gpdp._core) with NumPy in and out:

    import numpy as np, gpdp
    post = gpdp.Posterior(gpdp.Kernel.exponential(0.3), X, y, r=0.5, sigma=1.0)
    post.mean(xs); post.variance(xs); post.excursion_probability(xs, t=0.0)
    draws = post.sample(xs, n_draws=3, rng=gpdp.SeededRng(1))   # (m, 3); rng=None: SecureRng
    path = post.sample_path()                                    # lazy, conditional queries
    path(xs1); path(xs2)

`gpdp sample` and `gpdp posterior` (a data file in, a CSV out) as calls: gpdp.sample,
gpdp.posterior.
Privacy accounting lives in gpdp.privacy (`gpdp account` and `gpdp calibrate` as calls:
gpdp.account, gpdp.calibrate), the experiments in gpdp.attack / gpdp.experiments, certified
releases in gpdp.release (`gpdp hexbin` as a call: gpdp.hexbin; a kept path's new points:
gpdp.query; `gpdp serve`'s request: gpdp.serve), matplotlib helpers in gpdp.plot.

Arrays: points are float64 (m, d) arrays, or (m,) when d = 1; C- or F-ordered or strided views
are read in place (mean, variance and excursion_probability copy only blocks of about 8 MiB at a
time). Other dtypes raise TypeError (convert with .astype(numpy.float64)); wrong shapes raise
ValueError. Library errors raise gpdp.InputError (a ValueError), gpdp.PrivacyError,
gpdp.NumericalError (an ArithmeticError), gpdp.ResourceError (a MemoryError: a dense request
refused before allocating), all subclasses of gpdp.Error, with the C++ message.

Dense factorisations run on the CPU unless gpdp.set_factor_device("gpu") selects cuSOLVER (a
build with -DGPDP_CUDA=ON and a CUDA device; docs/scale.md).
"""

from . import _core
from ._core import (
    Box,
    Error,
    Grid,
    InputError,
    Kernel,
    NumericalError,
    Posterior,
    PrivacyError,
    ResourceError,
    Rng,
    SamplePath,
    SecureRng,
    SeededRng,
    __version__,
    factor_device,
    gpu_unavailable_reason,
    set_factor_device,
)
from . import privacy, attack, experiments, release, preview, mechanisms, account, calibrate, hexbin, ledger, query, sample, posterior, serve  # noqa: E402  (submodules; gpdp.plot on demand)

__all__ = [
    "Box",
    "Error",
    "Grid",
    "InputError",
    "Kernel",
    "NumericalError",
    "Posterior",
    "PrivacyError",
    "ResourceError",
    "Rng",
    "SamplePath",
    "SecureRng",
    "SeededRng",
    "__version__",
    "account",
    "attack",
    "calibrate",
    "factor_device",
    "gpu_unavailable_reason",
    "hexbin",
    "ledger",
    "mechanisms",
    "posterior",
    "sample",
    "set_factor_device",
    "experiments",
    "preview",
    "privacy",
    "query",
    "release",
    "serve",
]
