#include "gpdp/memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include "gpdp/error.hpp"

namespace gpdp {

namespace {
constexpr double kMaxBytes = 1.8e19;  // just below 2^64
// Requests below this are not probed (reading /proc costs ~10 µs, and query paths check in loops)
// unless GPDP_MEMORY_LIMIT is set.
constexpr double kUnprobedBytes = 16e6;

const char* limit_override() {
  const char* env = std::getenv("GPDP_MEMORY_LIMIT");
  return env != nullptr && *env != '\0' ? env : nullptr;
}

// A size such as "4096", "512M", "4G" or "1.5T" (binary multiples), or nullopt.
std::optional<double> parse_size(const std::string& text) {
  std::size_t used = 0;
  double value = 0.0;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::string unit = text.substr(used);
  unit.erase(std::remove_if(unit.begin(), unit.end(), [](unsigned char c) { return c == ' '; }),
             unit.end());
  if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b')) unit.pop_back();
  const std::string units = "KMGT";
  double scale = 1.0;
  if (!unit.empty()) {
    const auto at =
        units.find(static_cast<char>(std::toupper(static_cast<unsigned char>(unit[0]))));
    if (unit.size() != 1 || at == std::string::npos) return std::nullopt;
    scale = std::pow(1024.0, static_cast<double>(at + 1));
  }
  if (!(value >= 0.0) || !std::isfinite(value)) return std::nullopt;
  return value * scale;
}

// The first number of a file (cgroup files hold one value, or "max").
std::optional<double> read_number(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return std::nullopt;
  try {
    return std::stod(word);
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// MemAvailable of /proc/meminfo in bytes (it is given in kB).
std::optional<double> mem_available() {
  std::ifstream in("/proc/meminfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("MemAvailable:", 0) == 0) {
      std::istringstream fields(line.substr(13));
      double kb = 0.0;
      if (fields >> kb) return kb * 1024.0;
    }
  }
  return std::nullopt;
}

// What a cgroup limit leaves (limit − usage), if this process runs under one.
std::optional<double> cgroup_headroom() {
  for (const auto& [limit, usage] :
       {std::pair{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
        std::pair{"/sys/fs/cgroup/memory/memory.limit_in_bytes",
                  "/sys/fs/cgroup/memory/memory.usage_in_bytes"}}) {
    const auto l = read_number(limit);
    if (!l || *l >= kMaxBytes / 2) continue;  // "max", or v1's "no limit" (~2^63)
    return std::max(0.0, *l - read_number(usage).value_or(0.0));
  }
  return std::nullopt;
}
}  // namespace

std::uint64_t available_memory() {
  if (const char* env = limit_override()) {
    const auto limit = parse_size(env);
    if (!limit) {
      throw InputError(fmt::format(
          "GPDP_MEMORY_LIMIT = '{}' is not a size (bytes, or with a K/M/G/T suffix: 4G)", env));
    }
    return static_cast<std::uint64_t>(std::min(*limit, kMaxBytes));
  }
  double bytes = mem_available().value_or(kMaxBytes);
  if (const auto headroom = cgroup_headroom()) bytes = std::min(bytes, *headroom);
  return static_cast<std::uint64_t>(std::min(bytes, kMaxBytes));
}

std::uint64_t dense_bytes(double rows, double cols, double count) {
  const double bytes = 8.0 * std::max(rows, 0.0) * std::max(cols, 0.0) * std::max(count, 0.0);
  return static_cast<std::uint64_t>(std::min(bytes, kMaxBytes));
}

std::string format_bytes(double bytes) {
  if (bytes >= 1e12) return fmt::format("{:.1f} TB", bytes / 1e12);
  if (bytes >= 1e9) return fmt::format("{:.2f} GB", bytes / 1e9);
  return fmt::format("{:.0f} MB", std::ceil(bytes / 1e6));
}

void require_memory(double bytes, const std::string& what, const std::string& how,
                    const std::string& alternatives) {
  if (bytes < kUnprobedBytes && limit_override() == nullptr) return;
  const auto available = static_cast<double>(available_memory());
  if (bytes <= available) return;
  throw ResourceError(fmt::format("{} needs {} of memory ({}), only {} is available; instead: {}",
                                  what, format_bytes(bytes), how, format_bytes(available),
                                  alternatives));
}

}  // namespace gpdp
