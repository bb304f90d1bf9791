"""gpdp.serve.request: every option of `gpdp serve` is a keyword, and the request is the CLI's
--print-request for the same options."""

import json

import pytest

import gpdp


def argv_of(keywords):
    argv = []
    for keyword, value in keywords.items():
        flag = gpdp.serve.options()[keyword]["flag"]
        argv += [flag] if value is True else [flag, str(value)]
    return argv


def test_python_accepts_every_option_of_the_cli():
    """The option-parity test: every request option of `gpdp serve` (the library's table) is a
    keyword of gpdp.serve.request, under its request key."""
    specs = [s for s in json.loads(gpdp._core.command_options("serve")) if s["scope"] == "request"]
    assert {s["key"].replace("-", "_") for s in specs} == {"config", "listen", "json_logs"}
    assert "print_request" not in gpdp.serve.options()
    assert gpdp.serve.request(config="s.json") == {"config": "s.json"}
    with pytest.raises(gpdp.InputError, match="unknown option"):
        gpdp.serve.request(config="s.json", port=80)
    with pytest.raises(gpdp.InputError, match="^config is required"):
        gpdp.serve.request(listen="127.0.0.1:8080")


@pytest.mark.parametrize("keywords", [
    dict(config="serve.json"),
    dict(config="serve.json", listen="127.0.0.1:0", json_logs=True),
    dict(config="/srv/gpdp/serve.json", listen="[::1]:8080", json_logs=False),
])
def test_python_makes_the_request_the_cli_prints(cli, keywords):
    """gpdp.serve.request(...) is `gpdp serve ... --print-request` for the same options (nothing
    is read or served)."""
    printed = cli("serve", *argv_of({k: v for k, v in keywords.items() if v is not False}),
                  "--print-request")
    assert printed.stderr == ""
    assert gpdp.serve.request(**keywords) == json.loads(printed.stdout)
