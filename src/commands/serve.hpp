#pragma once
// `gpdp serve`'s options as data (serve_options(): the CLI's flags, apps/gpdp/cmd_serve.cpp, and
// Python's gpdp.serve keywords). The CLI's --print-request prints the request they make
// ({"config": "serve.json", "listen": "127.0.0.1:8080"}); its one reader,
// serve::serve_request_from_json (serve/request.hpp), sits beside the server, in the CLI's own
// layer (the HTTP library stays out of the product library and Python).
#include <vector>

#include "gpdp/options/option_spec.hpp"

namespace gpdp::commands {

// --config (required), --listen, --json-logs.
std::vector<options::OptionSpec> serve_options();

}  // namespace gpdp::commands
