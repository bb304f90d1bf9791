"""A kept released path at new points: gpdp.query.command(**options) is `gpdp query` as a call,
with the command's options as keyword arguments (each request option of `gpdp query`: the kept
path file `path` (the CLI's positional argument), then each flag without the leading dashes, '-'
written '_': --data is data, --grid2d grid2d, --path-key path_key, --path-passphrase-env
path_passphrase_env, --insecure-seed insecure_seed; the same values; an option left out or None is
not given). The path kept by `gpdp release --keep-path` answers the new points (exactly one of
points, grid, grid2d), conditionally on everything it has already answered; no budget is consumed
(docs/release.md). The data file must be the release's (its SHA-256 is checked) and the ledger must
hold the path's release. The answers are written to `out` (a CSV), and the path file and its
ledger remember them before they are written.

gpdp.query.request(**options) returns the JSON request they make, the one
`gpdp query ... --print-request` prints; command() reads it as the CLI does (the one reader,
commands/query.hpp) and returns the summary as `gpdp query --json` prints it (report) and the
CLI's text. insecure_seed is for tests: the answers are NOT PRIVATE (report["private"] is False;
the CLI warns on stderr). Errors name the keywords.
"""

from . import _command_options, _core

__all__ = ["command", "options", "request"]


def options():
    """gpdp query's request options, keyword -> the options table's entry (flag, type, default,
    help, key, parameter, positional): the library's one list
    (gpdp._core.command_options("query"))."""
    return _command_options.table("query")


def request(**keywords):
    """The JSON request (a dict) of gpdp query's options given as keywords: what
    `gpdp query ... --print-request` prints for the same options."""
    return _command_options.request("query", keywords)


def command(**keywords):
    """`gpdp query` with its options as keywords (module docstring). Returns a dict: report (what
    `gpdp query --json` prints, as a dict) and text (what it prints without --json)."""
    return _command_options.command("query", _core.query.command, keywords)
