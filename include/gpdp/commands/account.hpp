#pragma once
// `gpdp account` as one declared request: its options as data (account_options(): the CLI's
// flags, apps/gpdp/cmd_account.cpp, and Python's gpdp.account keywords), the one reader of its
// JSON request (account_request_from_json: the CLI's, which --print-request prints, and Python's
// gpdp.account.command) and the command's run (run_account_command), which both front ends call.
// The request holds only the options given ({"n": 100, "delta": 0.005, "kernel": "exp1d"}); the
// reader gives the others the table's defaults. Errors name request parameters ("draws", "delta",
// "noise_scale"); each front end spells them its own way (the CLI as its flags).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/options/mechanism_flags.hpp"
#include "gpdp/options/option_spec.hpp"
#include "gpdp/privacy/mechanism.hpp"

namespace gpdp::commands {

// The kernel and θ (options/model_options.hpp), every mechanism option (options::mechanism_options'
// Full set), the accounting (--draws, --delta, --conversion) and --json (the CLI's own).
std::vector<options::OptionSpec> account_options();

// The request read and validated: what privacy::account is called with.
struct AccountCommand {
  // Validated (options::to_mechanism); σ = inf is the covariance-only bound.
  privacy::GpMechanism mechanism;
  options::Accounting accounting;  // L ≥ 1, 0 < δ < 1, the conversion
};

// Checks, in this order: the mechanism, draws, delta, conversion (ParameterError naming the
// parameter; PrivacyError when the lemma does not apply).
AccountCommand account_request_from_json(const nlohmann::json& request);

struct AccountOutcome {
  nlohmann::json report;  // the guarantee, bounds and attack risk as JSON (the CLI's --json)
  std::string text;       // the same as the CLI prints without --json
  std::string note;       // the guarantee's note (the CLI prints "gpdp: note: ..."), or ""
};

// privacy::account of the command's L draws, their bounds and their membership-attack risk.
AccountOutcome run_account_command(const AccountCommand& c);

}  // namespace gpdp::commands
