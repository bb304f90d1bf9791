"""`gpdp serve`'s options as keyword arguments: gpdp.serve.request(**options) returns the JSON
request that `gpdp serve ... --print-request` prints for the same options (config, the server's
configuration file; listen, "HOST:PORT" over the file's; json_logs, a flag), the request the CLI's
one reader reads (serve/request.hpp) before it starts the server. There is no serving call:
`gpdp serve` runs the HTTP server (docs/serve.md).
"""

from . import _command_options

__all__ = ["options", "request"]


def options():
    """gpdp serve's request options, keyword -> the options table's entry (flag, type, default,
    help, key, parameter): the library's one list (gpdp._core.command_options("serve"))."""
    return _command_options.table("serve")


def request(**keywords):
    """The JSON request (a dict) of gpdp serve's options given as keywords: what
    `gpdp serve ... --print-request` prints for the same options."""
    return _command_options.request("serve", keywords)
