#pragma once
// Output files appear whole or not at all: content goes to a temporary file in the same folder,
// is flushed and fsync'ed, then renamed over the target.
#include <string>

namespace gpdp::io {

void write_file_atomic(const std::string& path, const std::string& content);

}  // namespace gpdp::io
