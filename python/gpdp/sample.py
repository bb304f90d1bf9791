"""Exact posterior draws as a file: gpdp.sample.command(**options) is `gpdp sample` as a call, with
the command's options as keyword arguments (each request option of `gpdp sample`: its flag without
the leading dashes, '-' written '_'; the same values, a flag True, a list a list or "a,b"; an
option left out or None takes its default). It fits the posterior to the data file (data, x, y,
kernel, ell, r, sigma, eta), draws L exact paths of f_D (+ g) at the points (exactly one of
points, grid, grid2d) with the method asked for, and writes them as CSV to out (x1..xd,
draw1..drawL). Without seed the secure generator draws; a seed makes a reproducible draw that is
NOT private (report["private_rng"] is False; the CLI warns on stderr). No privacy is accounted:
gpdp.release is the certified release.

gpdp.sample.request(**options) returns the JSON request they make, the one
`gpdp sample ... --print-request` prints; command() reads it as the CLI does (the one reader,
commands/sample.hpp), writes the same file and returns the summary as `gpdp sample --json` prints
it (report) and the CLI's text. Errors name the keywords. In memory, without files:
gpdp.Posterior(...).sample(xs, n_draws=L, rng=...).
"""

from . import _command_options, _core

__all__ = ["command", "options", "request"]


def options():
    """gpdp sample's request options, keyword -> the options table's entry (flag, type, default,
    help, key, parameter): the library's one list (gpdp._core.command_options("sample"))."""
    return _command_options.table("sample")


def request(**keywords):
    """The JSON request (a dict) of gpdp sample's options given as keywords: what
    `gpdp sample ... --print-request` prints for the same options."""
    return _command_options.request("sample", keywords)


def command(**keywords):
    """`gpdp sample` with its options as keywords (module docstring): writes out and returns a
    dict: report (what `gpdp sample --json` prints, as a dict) and text (what it prints without
    --json)."""
    return _command_options.command("sample", _core.sample.command, keywords)
