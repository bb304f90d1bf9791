#pragma once
// The one reader of `gpdp serve`'s JSON request (its options: commands/serve.hpp): the server
// configuration file loaded and checked (config.hpp), the listen address given on top of it. The
// CLI's --print-request prints the request; Python's gpdp.serve.request makes the same one.
// Errors name request parameters ("listen") or the configuration file and its key; the CLI spells
// parameters as its flags.
#include <nlohmann/json.hpp>

#include "gpdp/serve/config.hpp"

namespace gpdp::serve {

// The request read and validated: what the server is started with.
struct ServeRequest {
  ServeConfig config;      // the file's, with the listen address given (if any) on top
  bool json_logs = false;  // one JSON object per request in the log instead of text
};

// Checks, in this order: the configuration file (load_serve_config: InputError naming the file
// and the key), then listen ("HOST:PORT"; an empty text is an option not given).
ServeRequest serve_request_from_json(const nlohmann::json& request);

}  // namespace gpdp::serve
