"""gpdp.calibrate (`gpdp calibrate` as a call): every request option of the CLI is a keyword, the
request is the CLI's --print-request, and command() prints what the CLI prints; errors name the
keywords."""

import json

import pytest

import gpdp

REQUIRED = dict(target_epsilon=5.0, solve="sigma", delta=1e-5, n=200)
SAMPLE = {"flag": True, "integer": 3, "real": 0.5, "text": "v", "real-list": [1.0, 2.0],
          "text-list": ["a", "b"]}


def argv_of(keywords):
    argv = []
    for keyword, value in keywords.items():
        flag = gpdp.calibrate.options()[keyword]["flag"]
        argv += [flag] if value is True else [flag, str(value)]
    return argv


def test_python_accepts_every_request_option_of_the_cli():
    """The option-parity test: every request option of `gpdp calibrate` (the library's table) is
    a keyword of gpdp.calibrate.command / request, under its request key."""
    specs = [s for s in json.loads(gpdp._core.command_options("calibrate"))
             if s["scope"] == "request"]
    assert len(specs) > 20 and {"target_epsilon", "solve", "kernel", "noise_scale", "M_Y",
                                "Delta_n", "draws", "conversion"} <= {
        s["key"].replace("-", "_") for s in specs}
    assert {"json", "print_request"}.isdisjoint(gpdp.calibrate.options())
    for spec in specs:
        keyword = spec["key"].replace("-", "_")
        made = gpdp.calibrate.request(**{**REQUIRED, keyword: SAMPLE[spec["type"]]})
        assert spec["key"] in made, keyword
    with pytest.raises(gpdp.InputError, match="unknown option"):
        gpdp.calibrate.request(colour="red")
    with pytest.raises(gpdp.InputError, match="^target_epsilon is required"):
        gpdp.calibrate.request(**{k: v for k, v in REQUIRED.items() if k != "target_epsilon"})


def test_python_makes_the_request_the_cli_prints(cli):
    """gpdp.calibrate.request(...) is `gpdp calibrate ... --print-request` for the same options."""
    keywords = dict(REQUIRED, kernel="se", ell=0.3, dim=2, r=0.5, sigma=float("inf"), draws=3,
                    conversion="mironov", M_Y=2.0, kappa=0.1)
    printed = cli("calibrate", *argv_of(keywords), "--print-request").stdout
    assert json.dumps(gpdp.calibrate.request(**keywords), sort_keys=True) == json.dumps(
        json.loads(printed), sort_keys=True)


@pytest.mark.parametrize("keywords", [
    dict(REQUIRED, kernel="se", ell=0.3, dim=2, r=5.0, draws=3, conversion="mironov"),
    dict(target_epsilon=5.0, solve="draws", delta=1e-5, kernel="exp1d", n=50, r=3.0, sigma=2.0,
         sensitivity="b7"),
    dict(target_epsilon=1.0, solve="noise", delta=1e-5, n=100, mechanism="functional",
         domain="0:2", ell=0.5),
])
def test_command_is_the_cli(cli, keywords):
    """gpdp.calibrate.command(...) reads the request as the CLI does: the same JSON and text."""
    py = gpdp.calibrate.command(**keywords)
    assert py["report"] == json.loads(cli("calibrate", *argv_of(keywords), "--json").stdout)
    assert py["text"] == cli("calibrate", *argv_of(keywords)).stdout


def test_command_agrees_with_privacy_calibrate_and_names_keywords():
    """The command is gpdp.privacy.calibrate on the mechanism the options describe; its errors
    name keywords."""
    py = gpdp.calibrate.command(target_epsilon=1.0, solve="r", delta=1e-5, n=400, kernel="se",
                                ell=0.5, dim=2, sensitivity="b1", draws=2)
    mech = gpdp.privacy.GpMechanism(kernel=gpdp.Kernel.squared_exponential(0.5), dim=2, n=400,
                                    r=1.0, sigma=1.0, lemma="b1")
    c = gpdp.privacy.calibrate(mech, solve="r", epsilon=1.0, delta=1e-5, draws=2)
    assert (py["report"]["value"], py["report"]["epsilon"]) == (c.value, c.achieved.epsilon)
    with pytest.raises(gpdp.InputError, match="^draws must be ≥ 1, got 0"):
        gpdp.calibrate.command(**REQUIRED, draws=0)
    with pytest.raises(gpdp.InputError, match="^noise_scale belongs to mechanism"):
        gpdp.calibrate.command(**REQUIRED, noise_scale=1.0)
    with pytest.raises(gpdp.PrivacyError, match="infeasible"):
        gpdp.calibrate.command(target_epsilon=0.01, solve="sigma", delta=1e-5, kernel="exp1d",
                               n=50, r=0.5)
