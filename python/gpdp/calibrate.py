"""Calibrate a mechanism to a target ε: gpdp.calibrate.command(**options) is `gpdp calibrate` as a
call, with the command's options as keyword arguments (each request option of `gpdp calibrate`: its
flag without the leading dashes, '-' written '_': --target-epsilon is target_epsilon, --M-Y M_Y,
--noise-scale noise_scale; the same values, a flag True, a list a list or "a,b"; an option left
out, None or a flag False takes its default). It finds the smallest r, eta, sigma or noise scale s,
or the largest number of draws L, whose exact accountant epsilon (at delta, conversion) meets
target_epsilon, the other parameters as given (docs/mathematics.md §2).

gpdp.calibrate.request(**options) returns the JSON request they make, the one
`gpdp calibrate ... --print-request` prints; command() reads it as the CLI does (the one reader,
commands/calibrate.hpp) and returns the solution as `gpdp calibrate --json` prints it (report) and
the CLI's text. Errors name the keywords. gpdp.privacy.calibrate(mechanism, ...) is the same
calibration on a gpdp.privacy.GpMechanism.
"""

from . import _command_options, _core

__all__ = ["command", "options", "request"]


def options():
    """gpdp calibrate's request options, keyword -> the options table's entry (flag, type, default,
    help, key, parameter): the library's one list (gpdp._core.command_options("calibrate"))."""
    return _command_options.table("calibrate")


def request(**keywords):
    """The JSON request (a dict) of gpdp calibrate's options given as keywords: what
    `gpdp calibrate ... --print-request` prints for the same options."""
    return _command_options.request("calibrate", keywords)


def command(**keywords):
    """`gpdp calibrate` with its options as keywords (module docstring). Returns a dict: report
    (what `gpdp calibrate --json` prints, as a dict) and text (what it prints without --json)."""
    return _command_options.command("calibrate", _core.calibrate.command, keywords)
