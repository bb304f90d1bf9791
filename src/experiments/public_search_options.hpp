#pragma once
// The options of `gpdp search` and `python -m gpdp.distributed search` (one definition; see
// options/option_spec.hpp): their values make the JSON that public_search_request_from_json reads.
#include <vector>

#include "gpdp/options/option_spec.hpp"

namespace gpdp::experiments {

std::vector<options::OptionSpec> public_search_options();

}  // namespace gpdp::experiments
