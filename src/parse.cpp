#include "parse.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp {

namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}
}  // namespace

double parse_double(std::string_view text, const std::string& what) {
  const auto t = trim(text);
  double value = 0.0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size()) {
    throw InputError(fmt::format("{}: '{}' is not a number", what, text));
  }
  if (!std::isfinite(value)) throw InputError(fmt::format("{}: '{}' is not finite", what, text));
  return value;
}

long long parse_integer(std::string_view text, const std::string& what) {
  const auto t = trim(text);
  long long value = 0;
  const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
  if (t.empty() || ec != std::errc() || ptr != t.data() + t.size()) {
    throw InputError(fmt::format("{}: '{}' is not an integer", what, text));
  }
  return value;
}

}  // namespace gpdp
