#pragma once
// `gpdp preview` as one call, from its typed request (request_from_json.hpp): the uncalibrated
// preview (public inputs only: writes out/preview.json and out/preview.png|svg) or, with
// calibrate_epsilon, the calibrated one (spends it, recorded in the ledger, then writes
// out/preview.json). The CLI (apps/gpdp/cmd_preview.cpp) and Python's gpdp.preview.command run it.
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "gpdp/preview/request_from_json.hpp"

namespace gpdp::preview {

struct PreviewCommandOutcome {
  nlohmann::json report;           // preview.json's object
  std::string text;                // the table and the files written, as the CLI prints them
  std::vector<std::string> files;  // the files written
};

// `progress` (may be empty) receives the uncalibrated preview's progress lines.
PreviewCommandOutcome run_preview_command(
    const PreviewCommand& c, const std::function<void(const std::string&)>& progress = {});

}  // namespace gpdp::preview
