#pragma once
// The one-screen text summary `gpdp release` prints (the library's summary JSON, in words).
#include <nlohmann/json.hpp>
#include <string>

namespace gpdp::cli {

std::string format_release_summary(const nlohmann::json& summary);

}  // namespace gpdp::cli
