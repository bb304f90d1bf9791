"""Know the map before you spend the budget: gpdp.preview.command(**options) is `gpdp preview` as a
call, with the command's options as keyword arguments (each request option of `gpdp preview`: its
flag without the leading dashes, '-' written '_': --M-Y is M_Y, --draws-grid draws_grid,
--calibrate-epsilon calibrate_epsilon; the same values, a flag True, a list a list or "a,b"; an
option left out, None or a flag False takes its default). gpdp.preview.request(**options) returns
the JSON request they make, the one `gpdp preview ... --print-request` prints; command() reads it
as the CLI does (the one reader, preview/request_from_json.hpp), writes into `out` and returns the
preview.json object (report), the CLI's text and the files written. Errors name the keywords.

From public inputs only (the release's evaluation points, threshold, n, δ, the public θ or public
proxy data) the preview simulates releases of every candidate configuration (r- or η-calibrated
paths, L paths with a vote cutoff, smoothing, the functional Gaussian mechanism) and reports per ε
the chosen configuration and its predicted IoU with the non-private set (mean and 5–95 % interval
over held-out simulations), every candidate, the chance and non-private levels. It never sees
private data and spends no budget; its report says the prediction is uncalibrated. With
calibrate_epsilon (and data, dataset, ledger) it spends that ε, recorded in the ledger, on
`--mechanism auto`'s DP summary of the private records and predicts auto's candidates calibrated
by it. docs/utility.md describes the method.

gpdp.preview.run(...) is the uncalibrated preview on points or a gpdp.Grid given as arrays and
returns the preview.json object; gpdp.preview.calibrated(...) the calibrated one on records given
as arrays (X, y).
"""

from . import _command_options, _core
from ._core.preview import calibrated, run

__all__ = ["calibrated", "command", "options", "request", "run"]


def options():
    """gpdp preview's request options, keyword -> the options table's entry (flag, type, default,
    help, key, parameter): the library's one list (gpdp._core.command_options("preview"))."""
    return _command_options.table("preview")


def request(**keywords):
    """The JSON request (a dict) of gpdp preview's options given as keywords: what
    `gpdp preview ... --print-request` prints for the same options."""
    return _command_options.request("preview", keywords)


def command(**keywords):
    """`gpdp preview` with its options as keywords (module docstring): writes the preview into
    `out` (preview.json, and preview.png|svg without calibrate_epsilon). Returns a dict: report
    (preview.json's object), text (the CLI's table and the files written), files."""
    return _command_options.command("preview", _core.preview.command, keywords)
