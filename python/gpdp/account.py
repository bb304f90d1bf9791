"""The privacy guarantee of a release: gpdp.account.command(**options) is `gpdp account` as a call,
with the command's options as keyword arguments (each request option of `gpdp account`: its flag
without the leading dashes, '-' written '_': --M-Y is M_Y, --Delta-n Delta_n, --noise-scale
noise_scale; the same values, a flag True, a list a list or "a,b"; an option left out, None or a
flag False takes its default). It gives the (ε, δ) guarantee of L released sample paths, the bounds
behind it (V_n, Δ_n, κ, τ̃) and the membership-attack risk it allows (docs/mathematics.md §2).

gpdp.account.request(**options) returns the JSON request they make, the one
`gpdp account ... --print-request` prints; command() reads it as the CLI does (the one reader,
commands/account.hpp) and returns the guarantee as `gpdp account --json` prints it (report), the
CLI's text and its note (what the CLI writes on stderr as "gpdp: note: ..."; "" when none). Errors
name the keywords. gpdp.privacy.account(mechanism, ...) is the same accountant on a
gpdp.privacy.GpMechanism.
"""

from . import _command_options, _core

__all__ = ["command", "options", "request"]


def options():
    """gpdp account's request options, keyword -> the options table's entry (flag, type, default,
    help, key, parameter): the library's one list (gpdp._core.command_options("account"))."""
    return _command_options.table("account")


def request(**keywords):
    """The JSON request (a dict) of gpdp account's options given as keywords: what
    `gpdp account ... --print-request` prints for the same options."""
    return _command_options.request("account", keywords)


def command(**keywords):
    """`gpdp account` with its options as keywords (module docstring). Returns a dict: report
    (what `gpdp account --json` prints, as a dict), text (what it prints without --json) and note
    (what it notes on stderr, without "gpdp: note: "; "" when none)."""
    return _command_options.command("account", _core.account.command, keywords)
