"""python -m gpdp.distributed COMMAND takes exactly the options of `gpdp COMMAND` or
`gpdp-lab COMMAND` (one definition
in the library: gpdp._core.command_options): --help lists every option of the spec with its
default, and the same argv makes the same request (--print-request) from both front ends."""

import json
import subprocess
import sys

import pytest

from gpdp import _core
from gpdp.distributed import options
from gpdp.distributed.__main__ import COMMANDS

SAMPLES = {"integer": "7", "real": "0.25", "real-list": "1.5,2", "text-list": "a,b",
           "text": "some-text"}
# Positional arguments whose front ends accept only some values (reproduce's target: argparse's
# choices).
POSITIONAL_SAMPLES = {"target": "table1"}
# The commands both front ends have, with their options as data.
SHARED = sorted(set(_core.option_commands()) & set(COMMANDS))
# The research tools among them: gpdp-lab's commands, not gpdp's.
LAB = {"attack", "audit", "audit-study", "reproduce"}


@pytest.fixture(scope="session")
def program_of(cli, lab_cli):
    """The CLI that runs a command: gpdp-lab for the research tools, gpdp for the rest."""
    return lambda command: lab_cli if command in LAB else cli


def distributed(*args, check=True):
    return subprocess.run([sys.executable, "-m", "gpdp.distributed", *map(str, args)],
                          check=check, capture_output=True, text=True)


def test_the_converted_commands_are_shared():
    assert {"attack", "audit-study", "reproduce"} <= set(SHARED)


@pytest.mark.parametrize("command", SHARED)
def test_help_lists_every_option_with_its_default(command):
    text = " ".join(distributed(command, "--help").stdout.split())  # argparse wraps lines
    for spec in json.loads(_core.command_options(command)):
        if spec["scope"] == "cli":
            assert spec["flag"] + " " not in text, spec["flag"]
            continue
        assert spec["flag"] in text
        if spec["alias"]:
            assert spec["alias"] + " " in text
        if spec["default_text"]:
            assert f"(default: {spec['default_text']})" in text, spec["flag"]


def argv_of_every_option(command, use_alias):
    argv = []
    for spec in options.specs(command):
        if spec["flag"] == "--print-request":
            continue
        if spec["positional"]:  # its value alone
            argv.append(POSITIONAL_SAMPLES.get(spec["flag"], SAMPLES[spec["type"]]))
            continue
        argv.append(spec["alias"] if use_alias and spec["alias"] else spec["flag"])
        if spec["type"] != "flag":
            argv.append(SAMPLES[spec["type"]])
    return argv


@pytest.mark.parametrize("command", SHARED)
@pytest.mark.parametrize("use_alias", [False, True])
def test_same_argv_same_request_as_the_cli(program_of, command, use_alias):
    argv = argv_of_every_option(command, use_alias)
    expected = program_of(command)(command, *argv, "--print-request").stdout
    assert distributed(command, *argv, "--print-request").stdout == expected
    assert json.loads(expected)  # a request with every option in it


@pytest.mark.parametrize("command", SHARED)
def test_defaults_and_a_repeated_option_as_the_cli(program_of, command):
    required = []
    for spec in options.specs(command):
        if spec["required"]:
            required += [spec["flag"], SAMPLES[spec["type"]]]
    repeated = next(s["flag"] for s in options.specs(command) if s["type"] == "integer")
    for argv in (required, required + [repeated, "3", repeated, "4"]):
        expected = program_of(command)(command, *argv, "--print-request").stdout
        assert distributed(command, *argv, "--print-request").stdout == expected


def test_an_abbreviated_flag_is_refused_as_by_the_cli(lab_cli):
    assert lab_cli("attack", "--shad", "300", "--print-request", check=False).returncode != 0
    assert distributed("attack", "--shad", "300", "--print-request", check=False).returncode != 0


def test_a_library_error_names_the_flag_as_the_cli_does(lab_cli):
    # The library names the parameter (draws); both command lines print it as their flag.
    argv = ["attack", "--draws", "0", "--shadow", "50", "--eval", "50", "--quiet"]
    assert lab_cli(*argv, check=False).stderr == "gpdp-lab: error: --draws must be ≥ 1, got 0\n"
    r = distributed(*argv, "--scheduler", "processes:1", check=False)
    assert r.returncode != 0
    assert "gpdp.distributed attack: --draws must be ≥ 1, got 0" in r.stderr


def test_a_malformed_value_is_refused_naming_the_flag():
    r = distributed("attack", "--seeds", "three", check=False)
    assert r.returncode != 0
    assert "--seeds: expected a whole number, got 'three'" in r.stderr
