// A fixture of the test error_flags_catches_a_flag (scripts/error_flags.py --root
// tests/data/error_flags): one library message names a flag and must be reported; the option spec
// (flag and help) and the message that names the parameter must not.
#include "gpdp/error.hpp"
#include "gpdp/options/option_spec.hpp"

void planted(int draws) {
  gpdp::require(draws >= 1, "--draws must be positive");
  gpdp::require_parameter(draws >= 1, "draws", "draws must be positive");
}

const auto spec =
    gpdp::options::option("--draws", gpdp::options::OptionType::Integer, 1, "L (see --delta)");
