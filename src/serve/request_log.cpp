#include "gpdp/serve/request_log.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "gpdp/release/ledger.hpp"

namespace gpdp::serve {

namespace {

// Printable ASCII kept; anything else as \xHH (targets are URL-encoded by well-behaved clients).
std::string escaped(const std::string& s) {
  std::string out;
  for (const unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
      out.push_back(static_cast<char>(c));
    } else {
      out += fmt::format("\\x{:02x}", c);
    }
  }
  return out;
}

}  // namespace

std::string RequestLog::format(const RequestRecord& r) const {
  const std::string time = release::utc_timestamp();
  if (json_) {
    nlohmann::json j{{"time", time},
                     {"client", r.client},
                     {"method", r.method},
                     {"target", r.target},
                     {"status", r.status},
                     {"bytes", r.bytes},
                     {"ms", std::round(r.milliseconds * 1000) / 1000}};
    if (!r.release.empty()) j["release"] = r.release;
    if (r.points >= 0) j["points"] = r.points;
    if (r.new_points >= 0) j["new_points"] = r.new_points;
    if (!r.error.empty()) j["error"] = r.error;
    return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  std::string line =
      fmt::format("{} {} {} \"{}\" {} {}B {:.3f}ms", time, escaped(r.client), escaped(r.method),
                  escaped(r.target), r.status, r.bytes, r.milliseconds);
  if (!r.release.empty()) line += " release=" + escaped(r.release);
  if (r.points >= 0) line += fmt::format(" points={}", r.points);
  if (r.new_points >= 0) line += fmt::format(" new={}", r.new_points);
  if (!r.error.empty()) line += " error=\"" + escaped(r.error) + "\"";
  return line;
}

void RequestLog::write(const RequestRecord& r) {
  const std::string line = format(r) + "\n";
  std::lock_guard lock(mutex_);
  std::fwrite(line.data(), 1, line.size(), out_);
  std::fflush(out_);
}

}  // namespace gpdp::serve
