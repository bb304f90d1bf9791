#pragma once
// The options of `gpdp preview` as data (options/option_spec.hpp): the CLI's flags
// (apps/gpdp/cmd_preview.cpp), the request keys preview::preview_request_from_json reads
// (preview/request_from_json.hpp) and Python's gpdp.preview.command keywords. The release's
// groups (input, points, kernel) are release_options.hpp's; --json and --quiet are the CLI's own
// (scope Cli). Listed in the release layer so that the command table (commands/) can name it.
#include <vector>

#include "gpdp/options/option_spec.hpp"

namespace gpdp::release {

std::vector<options::OptionSpec> preview_options();

}  // namespace gpdp::release
