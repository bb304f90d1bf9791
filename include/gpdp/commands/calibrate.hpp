#pragma once
// `gpdp calibrate` as one declared request: its options as data (calibrate_options(): the CLI's
// flags, apps/gpdp/cmd_calibrate.cpp, and Python's gpdp.calibrate keywords), the one reader of its
// JSON request (calibrate_request_from_json: the CLI's, which --print-request prints, and
// Python's gpdp.calibrate.command) and the command's run (run_calibrate_command), which both front
// ends call. The request holds only the options given ({"target-epsilon": 1, "solve": "r",
// "n": 100, "delta": 1e-5}); the reader gives the others the table's defaults. Errors name
// request parameters ("target_epsilon", "draws", "noise_scale"); each front end spells them its
// own way (the CLI as its flags).
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/commands/outcome.hpp"
#include "gpdp/options/option_spec.hpp"
#include "gpdp/privacy/calibrate.hpp"

namespace gpdp::commands {

// --target-epsilon, --solve, the kernel and θ (options/model_options.hpp), every mechanism option
// (options::mechanism_options' Full set), the accounting (--draws, --delta, --conversion) and
// --json (the CLI's own).
std::vector<options::OptionSpec> calibrate_options();

// The request read and validated: what privacy::calibrate is called with.
struct CalibrateCommand {
  privacy::CalibrationParameter solve = privacy::CalibrationParameter::R;
  privacy::CalibrationTarget target;  // ε₀ > 0, 0 < δ < 1, the conversion
  long draws = 1;                     // L ≥ 1
  // Validated (options::to_mechanism). Solving the noise scale without one given: s = 1, a start
  // the calibration replaces.
  privacy::GpMechanism mechanism;
};

// Checks, in this order: solve, target_epsilon, draws, delta, conversion, then the mechanism
// (ParameterError naming the parameter; PrivacyError when the lemma does not apply).
CalibrateCommand calibrate_request_from_json(const nlohmann::json& request);

// The report, and as text the solution.
using CalibrateOutcome = CommandOutcome;

// privacy::calibrate on the command; PrivacyError ("infeasible: ...") when no value meets it.
CalibrateOutcome run_calibrate_command(const CalibrateCommand& c);

}  // namespace gpdp::commands
