// libFuzzer target: the CSV reader and the release input validation on arbitrary bytes. Any
// outcome but a gpdp::Error (or success) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/release/input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    const auto table = gpdp::io::parse_csv(text, "fuzz.csv");
    if (!table.header.empty()) (void)table.numeric({table.header.front()});
  } catch (const gpdp::Error&) {
  }
  try {
    gpdp::release::InputSpec spec;
    spec.domain = gpdp::Box::parse("0:1,0:1");
    spec.transform =
        size % 2 ? gpdp::release::ResponseTransform::Log : gpdp::release::ResponseTransform::None;
    (void)gpdp::release::prepare_data_from_text(text, "fuzz.csv", spec);
  } catch (const gpdp::Error&) {
  }
  return 0;
}
