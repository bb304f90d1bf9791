#pragma once
// What a declared command's run returns to its front ends: the report (what the CLI prints with
// --json, what Python returns as data) and the text (what the CLI prints without it).
#include <nlohmann/json.hpp>
#include <string>

namespace gpdp::commands {

struct CommandOutcome {
  nlohmann::json report;
  std::string text;
};

}  // namespace gpdp::commands
