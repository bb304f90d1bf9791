#pragma once
// The options of `gpdp-lab attack` and `python -m gpdp.distributed attack` (one definition; see
// options/option_spec.hpp): their values make the JSON that attack_request_from_json reads.
#include <vector>

#include "gpdp/options/option_spec.hpp"

namespace gpdp::attack {

std::vector<options::OptionSpec> attack_options();

}  // namespace gpdp::attack
