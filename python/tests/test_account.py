"""gpdp.account (`gpdp account` as a call): every request option of the CLI is a keyword, the
request is the CLI's --print-request, and command() prints what the CLI prints (its stdout, and its
note on stderr); errors name the keywords."""

import json

import pytest

import gpdp

REQUIRED = dict(n=200, delta=1e-5)
SAMPLE = {"flag": True, "integer": 3, "real": 0.5, "text": "v", "real-list": [1.0, 2.0],
          "text-list": ["a", "b"]}


def argv_of(keywords):
    argv = []
    for keyword, value in keywords.items():
        flag = gpdp.account.options()[keyword]["flag"]
        argv += [flag] if value is True else [flag, str(value)]
    return argv


def test_python_accepts_every_request_option_of_the_cli():
    """The option-parity test: every request option of `gpdp account` (the library's table) is a
    keyword of gpdp.account.command / request, under its request key."""
    specs = [s for s in json.loads(gpdp._core.command_options("account"))
             if s["scope"] == "request"]
    assert len(specs) > 15 and {"kernel", "ell", "r", "sigma", "eta", "n", "noise_scale", "M_Y",
                                "Delta_n", "Vn", "draws", "delta", "conversion"} <= {
        s["key"].replace("-", "_") for s in specs}
    assert {"json", "print_request"}.isdisjoint(gpdp.account.options())
    for spec in specs:
        keyword = spec["key"].replace("-", "_")
        made = gpdp.account.request(**{**REQUIRED, keyword: SAMPLE[spec["type"]]})
        assert spec["key"] in made, keyword
    with pytest.raises(gpdp.InputError, match="unknown option"):
        gpdp.account.request(colour="red")
    with pytest.raises(gpdp.InputError, match="^delta is required"):
        gpdp.account.request(n=10)


def test_python_makes_the_request_the_cli_prints(cli):
    """gpdp.account.request(...) is `gpdp account ... --print-request` for the same options."""
    keywords = dict(REQUIRED, kernel="se", ell=0.3, dim=2, r=0.5, sigma=float("inf"), draws=3,
                    conversion="mironov", M_Y=2.0, kappa=0.1, domain="0:1,0:2")
    printed = cli("account", *argv_of(keywords), "--print-request").stdout
    assert json.dumps(gpdp.account.request(**keywords), sort_keys=True) == json.dumps(
        json.loads(printed), sort_keys=True)


@pytest.mark.parametrize("keywords", [
    dict(kernel="exp1d", ell=1.0, n=100, r=1.0, sigma=1.0, sensitivity="b7", draws=1,
         delta=0.005, conversion="mironov"),
    dict(REQUIRED, kernel="se", ell=0.3, dim=2, r=5.0, draws=3, eta=0.5),
    dict(n=100, delta=1e-5, mechanism="functional", noise_scale=0.3, domain="0:2", ell=0.5),
    dict(n=80, delta=1e-5, sensitivity="b8", rkhs_norm=2.0, kernel="se", ell=0.4),
    dict(n=10, r=1000.0, delta=0.5),  # the converted ε is clamped at 0: a note
])
def test_command_is_the_cli(cli, keywords):
    """gpdp.account.command(...) reads the request as the CLI does: the same JSON, text and
    note."""
    py = gpdp.account.command(**keywords)
    as_json = cli("account", *argv_of(keywords), "--json")
    assert py["report"] == json.loads(as_json.stdout)
    text = cli("account", *argv_of(keywords))
    assert py["text"] == text.stdout
    assert text.stderr == as_json.stderr == (f"gpdp: note: {py['note']}\n" if py["note"] else "")


def test_command_agrees_with_privacy_account_and_names_keywords():
    """The command is gpdp.privacy.account on the mechanism the options describe; its errors name
    keywords."""
    py = gpdp.account.command(n=400, delta=1e-5, kernel="se", ell=0.5, dim=2, sensitivity="b1",
                              draws=2, conversion="mironov")
    mech = gpdp.privacy.GpMechanism(kernel=gpdp.Kernel.squared_exponential(0.5), dim=2, n=400,
                                    r=1.0, sigma=1.0, lemma="b1")
    g = gpdp.privacy.account(mech, draws=2, delta=1e-5, conversion="mironov")
    assert (py["report"]["epsilon"], py["report"]["alpha"]) == (g.epsilon, g.alpha)
    assert py["note"] == ""
    with pytest.raises(gpdp.InputError, match="^draws must be ≥ 1, got 0"):
        gpdp.account.command(**REQUIRED, draws=0)
    with pytest.raises(gpdp.InputError, match="^noise_scale belongs to mechanism"):
        gpdp.account.command(**REQUIRED, noise_scale=1.0)
    with pytest.raises(gpdp.InputError, match="^sensitivity b8 needs rkhs_norm"):
        gpdp.account.command(**REQUIRED, sensitivity="b8")
    with pytest.raises(gpdp.PrivacyError, match="b7 does not apply"):
        gpdp.account.command(**REQUIRED, sensitivity="b7", dim=2)
