"""A command's options as keyword arguments (gpdp.release.run, gpdp.preview.command,
gpdp.account.command, gpdp.calibrate.command, gpdp.hexbin.command, gpdp.query.command,
gpdp.sample.command, gpdp.posterior.command): the library's options table of the command
(gpdp._core.command_options), keyword = request key with '_' for '-'; the keywords given become
[(flag, [texts])] as the CLI's parser receives argv, that parser (gpdp._core.parse_options) makes
the request, and a library error's parameters (and flags) are spelled back as keywords."""

import json

from . import _core
from ._core import Error, InputError


def table(command):
    """The command's request options, keyword -> the options table's entry (flag, type, default,
    help, key, parameter)."""
    specs = json.loads(_core.command_options(command))
    return {s["key"].replace("-", "_"): s for s in specs if s["scope"] == "request"}


def _text(value):
    return repr(value) if isinstance(value, float) else str(value)


def given(command, keywords):
    """[(flag, [texts])] of the keywords given (None, or a flag False: left out)."""
    options = table(command)
    unknown = sorted(set(keywords) - set(options))
    if unknown:
        raise InputError(f"unknown option(s) {', '.join(unknown)} (gpdp {command}'s options: "
                         f"{', '.join(sorted(options))})")
    out = []
    for name, value in keywords.items():
        spec = options[name]
        if value is None or (spec["type"] == "flag" and value is False):
            continue
        if spec["type"] == "flag":
            if value is not True:
                raise InputError(f"{name} is a flag: True or False, got {value!r}")
            texts = []
        elif isinstance(value, (list, tuple)):
            texts = [_text(v) for v in value]
        else:
            texts = [_text(value)]
        out.append((spec["flag"], texts))
    return out


def request(command, keywords):
    """The command's JSON request (a dict) from its options given as keywords: the options given,
    as `gpdp COMMAND ... --print-request` prints them (the command's reader applies the defaults)."""
    made, _ = spelled(command, _core.parse_options, command, given(command, keywords), True)
    return json.loads(made)


def command(command, run, keywords):
    """run(the JSON request text of the keywords): the command's library run (e.g.
    gpdp._core.preview.command), its errors spelled as keywords."""
    return spelled(command, run, json.dumps(request(command, keywords)))


def spelled(command, call, *args):
    """call(*args), a library error's parameters (and flags) spelled as the command's keywords."""
    try:
        return call(*args)
    except Error as e:
        options = table(command)
        spelling = {}
        for name, spec in options.items():
            spelling[spec["parameter"]] = "/".join(
                filter(None, (spelling.get(spec["parameter"]), name)))
        message = _core.spell_parameters(str(e), list(e.parameters), spelling)
        # The options parser names flags ("--threshold is required"): the longest first.
        for name, spec in sorted(options.items(), key=lambda item: -len(item[1]["flag"])):
            message = message.replace(spec["flag"], name)
        error = type(e)(message)
        error.parameters = e.parameters
        raise error from None
