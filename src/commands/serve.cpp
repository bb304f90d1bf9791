// gpdp serve's options (serve.hpp).
#include "serve.hpp"

namespace gpdp::commands {

std::vector<options::OptionSpec> serve_options() {
  using options::option;
  using options::OptionType;
  return {option("--config", OptionType::Text, nullptr,
                 "Server configuration (JSON; see docs/serve.md)")
              .as_required(),
          option("--listen", OptionType::Text, nullptr,
                 "HOST:PORT to listen on (overrides the config; port 0 = any free port)"),
          option("--json-logs", OptionType::Flag, false,
                 "Log one JSON object per request instead of text")};
}

}  // namespace gpdp::commands
