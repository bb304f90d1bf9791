"""The privacy-budget ledger: gpdp.ledger.show / export / migrate(**options) are
`gpdp ledger show|export|migrate` as calls, with each subcommand's options as keyword arguments
(the ledger file `ledger`, the CLI's positional argument, then each flag without the leading
dashes, '-' written '_': --dataset is dataset, --ledger-key ledger_key, --M-Y M_Y,
--new-dataset-despite-overlap new_dataset_despite_overlap; a flag True; an option left out or None
is not given).

* show(ledger=..., dataset=None): every dataset (or one) with its releases, budget and spend, and
  the schema-1 rows not migrated yet: report (what `gpdp ledger show --json` prints) and text (its
  table). Record fingerprints are never part of it.
* export(ledger=..., dataset=None, out=None): the same report; written to `out` when given
  (text ""), else text is its JSON as the CLI prints it.
* migrate(ledger=..., data=None, dataset=None, ...): upgrades a schema-1 ledger and, with a data
  file (read as gpdp release reads it: x, y, config, transform, ...), assigns that file's releases
  to `dataset`; returns the lines the CLI prints.

gpdp.ledger.request("show", **options) returns the JSON request they make, the one
`gpdp ledger show ... --print-request` prints; options("show") lists the keywords. Each call reads
its request as the CLI does (the one reader, commands/ledger.hpp). Errors name the keywords.
"""

from . import _command_options, _core

__all__ = ["export", "migrate", "options", "request", "show"]

SUBCOMMANDS = ("show", "export", "migrate")


def _command(subcommand):
    if subcommand not in SUBCOMMANDS:
        raise _core.InputError(f"gpdp ledger has no subcommand {subcommand!r} "
                               f"(it has {', '.join(SUBCOMMANDS)})")
    return f"ledger {subcommand}"


def options(subcommand):
    """gpdp ledger SUBCOMMAND's request options, keyword -> the options table's entry (flag, type,
    default, help, key, parameter, positional): the library's one list
    (gpdp._core.command_options("ledger show") ...)."""
    return _command_options.table(_command(subcommand))


def request(subcommand, **keywords):
    """The JSON request (a dict) of gpdp ledger SUBCOMMAND's options given as keywords: what
    `gpdp ledger SUBCOMMAND ... --print-request` prints for the same options."""
    return _command_options.request(_command(subcommand), keywords)


def show(**keywords):
    """`gpdp ledger show` (module docstring): a dict with report and text."""
    return _command_options.command("ledger show", _core.ledger.show, keywords)


def export(**keywords):
    """`gpdp ledger export` (module docstring): a dict with report and text."""
    return _command_options.command("ledger export", _core.ledger.export, keywords)


def migrate(**keywords):
    """`gpdp ledger migrate` (module docstring): the lines the CLI prints."""
    return _command_options.command("ledger migrate", _core.ledger.migrate, keywords)
