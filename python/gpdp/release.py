"""Certified releases: gpdp.release.run(**options) is the `gpdp release` command as a call (secure
RNG, privacy ledger checked and written before any output, output folder published atomically).
See docs/release.md for the options, the input description and the outputs.

The options are the command's, as keyword arguments: each request option of `gpdp release` (its
flag without the leading dashes, '-' written '_': --M-Y is M_Y, --target-epsilon target_epsilon,
--out out, --grid2d grid2d), with the same values (a flag: True; a list: a list or "a,b"); an
option left out (or None, or a flag False) takes its default. gpdp.release.request(**options)
returns the JSON request they make, the one `gpdp release ... --print-request` prints; run() reads
that request as the CLI and a batch manifest's entries do. Errors name the keywords.

The post-processing a release applies to its paths is here too (the utility study uses the same):
vote_fraction(paths, level), vote_set(fractions, cutoff), smooth_fields(fields, grid, bandwidth).
"""

import json

from . import _command_options, _core
from ._core.release import smooth_fields, vote_fraction, vote_set

__all__ = ["options", "request", "run", "smooth_fields", "vote_fraction", "vote_set"]


def options():
    """gpdp release's request options, keyword -> the options table's entry (flag, type, default,
    help, key, parameter): the library's one list (gpdp._core.command_options("release"))."""
    return _command_options.table("release")


def _spelled(call, *args):
    return _command_options.spelled("release", call, *args)


def request(**keywords):
    """The JSON request (a dict) of gpdp release's options given as keywords: what
    `gpdp release ... --print-request` prints for the same options."""
    return _command_options.request("release", keywords)


def run(**keywords):
    """A certified release with gpdp release's options as keywords (module docstring): validates,
    accounts (optionally calibrating to target_epsilon), draws with the secure RNG, records the
    release under the named dataset in the ledger, then writes `out` atomically. Returns a dict:
    summary, certificate, files."""
    return _spelled(_core.release.run, json.dumps(request(**keywords)))
