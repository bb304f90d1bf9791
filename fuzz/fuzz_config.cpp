// libFuzzer target: the JSON input description and the kept-path file decoder on arbitrary bytes.
// Any outcome but a gpdp::Error (or success) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gpdp/error.hpp"
#include "gpdp/release/input.hpp"
#include "gpdp/release/path_store.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    (void)gpdp::release::parse_input_config(text, "fuzz.json");
  } catch (const gpdp::Error&) {
  }
  try {
    (void)gpdp::release::decode_path_file(text, "fuzz.gpdp", {});
  } catch (const gpdp::Error&) {
  }
  return 0;
}
