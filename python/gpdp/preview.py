"""Know the map before you spend the budget: gpdp.preview.run(...) is `gpdp preview` as a call.

From public inputs only (the release's evaluation points, threshold, n, δ, the public θ or public
proxy data) it simulates releases of every candidate configuration (r- or η-calibrated paths, L
paths with a vote cutoff, smoothing, the functional Gaussian mechanism) and returns the
preview.json object: per ε the chosen configuration and its predicted IoU with the non-private set
(mean and 5–95 % interval over held-out simulations), every candidate, the chance and non-private
levels. It never sees private data and spends no budget; its report says the prediction is
uncalibrated. docs/utility.md describes the method.

gpdp.preview.calibrated(...) is `gpdp preview --calibrate-epsilon`: it spends a small ε, recorded in
a ledger, on `--mechanism auto`'s DP summary of the private records and predicts auto's candidates
(accuracy with a 5–95 % interval, IoU) at each target ε on simulations calibrated by it.
"""

from ._core.preview import calibrated, run

__all__ = ["calibrated", "run"]
