"""The options of a gpdp.distributed command, from the library's one definition of the command's
options (gpdp._core.command_options; the CLI's `gpdp COMMAND` reads the same list): argparse
arguments with the CLI's flags, aliases, defaults and help, and the command's request built from
what was given by the library's parser (gpdp._core.parse_options) — the request `gpdp COMMAND`
builds from the same argv. Options the spec marks CLI-only (e.g. --threads) are left out: the
workers are chosen with --scheduler.
"""

import json

_LISTS = ("real-list", "text-list")
_METAVARS = {"integer": "INT", "real": "REAL", "text": "TEXT", "real-list": "REAL,...",
             "text-list": "TEXT,..."}


def specs(command):
    """The command's options (dicts: flag, alias, type, default, default_text, required, help,
    key, parameter, scope), the CLI-only ones left out."""
    from gpdp import _core

    return [s for s in json.loads(_core.command_options(command)) if s["scope"] != "cli"]


def _dest(spec):
    return "option_" + spec["flag"].lstrip("-").replace("-", "_")


def add_arguments(parser, command, choices=None):
    """Adds the command's options to an argparse parser (values collected as text, unparsed); a
    positional one (e.g. reproduce's `target`) by its place. `choices`: {flag or positional name:
    the values argparse accepts} for a front end that knows them."""
    for spec in specs(command):
        help_text = spec["help"].replace("%", "%%")
        if spec["default_text"]:
            help_text += f" (default: {spec['default_text']})"
        kwargs = {"help": help_text}
        if choices and spec["flag"] in choices:
            kwargs["choices"] = choices[spec["flag"]]
        if spec["positional"]:
            # argparse names a positional by its dest: the name as metavar, our dest inside.
            kwargs["metavar"] = spec["flag"]
            kwargs["nargs"] = None if spec["required"] else "?"
            parser.add_argument(_dest(spec), **kwargs)
            continue
        names = [spec["flag"]] + ([spec["alias"]] if spec["alias"] else [])
        kwargs["dest"] = _dest(spec)
        if spec["type"] == "flag":
            kwargs["action"] = "store_true"
        else:
            kwargs["metavar"] = _METAVARS[spec["type"]]
            kwargs["required"] = spec["required"]
            kwargs["action"] = "extend" if spec["type"] in _LISTS else "append"
            if spec["type"] in _LISTS:
                kwargs["nargs"] = "+"
        parser.add_argument(*names, **kwargs)


def in_flags(error, command):
    """The error's message with the parameters it names (error.parameters) spelled as the
    command's flags, as `gpdp COMMAND` prints it; its text as it is for a command without listed
    options."""
    from gpdp import _core

    parameters = list(getattr(error, "parameters", ()))
    if not parameters or command not in _core.option_commands():
        return str(error)
    flags = {}
    for spec in specs(command):
        flags.setdefault(spec["parameter"], []).append(spec["flag"])
    spelling = {parameter: "/".join(names) for parameter, names in flags.items()}
    return _core.spell_parameters(str(error), parameters, spelling)


def parse(args, command):
    """(request JSON text, front-end options dict) from the parsed arguments: the library types
    the values and fills in the defaults, as for the CLI."""
    from gpdp import _core

    given = []
    for spec in specs(command):
        value = getattr(args, _dest(spec))
        if spec["positional"] and value is not None:
            given.append((spec["flag"], [value]))
        elif value is True:
            given.append((spec["flag"], []))
        elif value:
            given.append((spec["flag"], list(value)))
    request, front_end = _core.parse_options(command, given)
    return request, json.loads(front_end)


def print_request(request, front_end):
    """With --print-request: prints the request (one JSON line, as the CLI does) and returns
    True."""
    if not front_end.get("print-request"):
        return False
    print(request)
    return True
