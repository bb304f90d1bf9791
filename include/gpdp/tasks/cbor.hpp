#pragma once
// Task results between processes: CBOR bytes (RFC 8949). Unlike text JSON, CBOR keeps every
// double bit for bit (±inf, denormals, −0; NaN stays NaN), so a result computed on a worker is
// the value the same task computes in process.
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace gpdp::tasks {

std::string to_cbor(const nlohmann::json& value);
// Throws InputError when `bytes` are not one complete CBOR value.
nlohmann::json from_cbor(std::string_view bytes);

}  // namespace gpdp::tasks
