#pragma once
// gzip decompression (zlib) for the data sets gpdp ships compressed (data/*.csv.gz).
#include <string>
#include <string_view>

namespace gpdp::io {

// The decompressed content of gzip `bytes` (all members); InputError naming `source` when the
// bytes are not valid gzip data.
std::string gunzip(std::string_view bytes, const std::string& source);

}  // namespace gpdp::io
