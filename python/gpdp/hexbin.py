"""Point records aggregated to hexagons: gpdp.hexbin.command(**options) is `gpdp hexbin` as a call,
with the command's options as keyword arguments (each request option of `gpdp hexbin`: its flag
without the leading dashes, '-' written '_': --cell-width is cell_width; the same values, a flag
True; an option left out, None or a flag False takes its default). It reads the CSV `data`, keeps
the rows `where` selects, aggregates `value` (its log with log=True) to the hexagons of the
declared `box` `cell_width` apart (median and count per non-empty hexagon, paper App. D.2) and
writes them to the CSV `out` (column,row,x,y,u,v,median,count).

gpdp.hexbin.request(**options) returns the JSON request they make, the one
`gpdp hexbin ... --print-request` prints; command() reads it as the CLI does (the one reader,
commands/hexbin.hpp) and returns what `gpdp hexbin --json` prints (report) and the CLI's line
(text). Errors name the keywords. gpdp.experiments.hexbin(xy, values, box=..., width=...) is the
same aggregation on arrays.
"""

from . import _command_options, _core

__all__ = ["command", "options", "request"]


def options():
    """gpdp hexbin's request options, keyword -> the options table's entry (flag, type, default,
    help, key, parameter): the library's one list (gpdp._core.command_options("hexbin"))."""
    return _command_options.table("hexbin")


def request(**keywords):
    """The JSON request (a dict) of gpdp hexbin's options given as keywords: what
    `gpdp hexbin ... --print-request` prints for the same options."""
    return _command_options.request("hexbin", keywords)


def command(**keywords):
    """`gpdp hexbin` with its options as keywords (module docstring): writes `out`. Returns a dict:
    report (what `gpdp hexbin --json` prints, as a dict) and text (what it prints without
    --json)."""
    return _command_options.command("hexbin", _core.hexbin.command, keywords)
