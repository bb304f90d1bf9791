"""The posterior's mean, variance and excursion probability as a file: gpdp.posterior.command(
**options) is `gpdp posterior` as a call, with the command's options as keyword arguments (each
request option of `gpdp posterior`: its flag without the leading dashes, '-' written '_': --M-Y is
M_Y; the same values, a flag True, a list a list or "a,b"; an option left out, None or a flag False
takes its default). It fits the posterior to the data file (data, x, y, kernel, ell, r, sigma,
eta) and writes, at the points (exactly one of points, grid, grid2d), the mean μ_D(x), the variance
σ² k_D(x,x) + η² and, with threshold t, p_exceed(x) = Φ((μ_D(x) − t)/sd(x)) as CSV to out. With
transform, center, scale, M_Y or sign the responses are prepared first as gpdp release prepares
them (y ← clip((transform(y) − C)/B, ±M_Y)). Nothing is drawn or released: the output depends on
the data directly and is NOT differentially private.

gpdp.posterior.request(**options) returns the JSON request they make, the one
`gpdp posterior ... --print-request` prints; command() reads it as the CLI does (the one reader,
commands/posterior.hpp), writes the same file and returns the summary as
`gpdp posterior --json` prints it (report) and the CLI's text. Errors name the keywords. In memory,
without files: gpdp.Posterior(...).mean / variance / excursion_probability. (The module is
gpdp.posterior; the class is gpdp.Posterior.)
"""

from . import _command_options, _core

__all__ = ["command", "options", "request"]


def options():
    """gpdp posterior's request options, keyword -> the options table's entry (flag, type, default,
    help, key, parameter): the library's one list (gpdp._core.command_options("posterior"))."""
    return _command_options.table("posterior")


def request(**keywords):
    """The JSON request (a dict) of gpdp posterior's options given as keywords: what
    `gpdp posterior ... --print-request` prints for the same options."""
    return _command_options.request("posterior", keywords)


def command(**keywords):
    """`gpdp posterior` with its options as keywords (module docstring): writes out and returns a
    dict: report (what `gpdp posterior --json` prints, as a dict) and text (what it prints without
    --json)."""
    return _command_options.command("posterior", _core.posterior.command, keywords)
