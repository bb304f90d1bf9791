#include "gpdp/tasks/cbor.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"

namespace gpdp::tasks {

std::string to_cbor(const nlohmann::json& value) {
  std::string bytes;
  nlohmann::json::to_cbor(value, bytes);
  return bytes;
}

nlohmann::json from_cbor(std::string_view bytes) {
  try {
    return nlohmann::json::from_cbor(bytes.begin(), bytes.end());
  } catch (const nlohmann::json::exception& e) {
    throw InputError(
        fmt::format("task result: not a CBOR value ({} bytes): {}", bytes.size(), e.what()));
  }
}

}  // namespace gpdp::tasks
