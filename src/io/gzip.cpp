#include "gpdp/io/gzip.hpp"

#include <fmt/format.h>
#include <zlib.h>

#include <array>

#include "gpdp/error.hpp"

namespace gpdp::io {

std::string gunzip(std::string_view bytes, const std::string& source) {
  z_stream zs{};
  // 16 + MAX_WBITS: expect a gzip header and trailer (not a raw zlib stream).
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
    throw Error(fmt::format("{}: zlib could not be initialised", source));
  }
  std::string out;
  std::array<char, 1 << 16> buffer{};
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  bool complete = false;
  for (;;) {
    zs.next_out = reinterpret_cast<Bytef*>(buffer.data());
    zs.avail_out = static_cast<uInt>(buffer.size());
    const int status = inflate(&zs, Z_NO_FLUSH);
    out.append(buffer.data(), buffer.size() - zs.avail_out);
    if (status == Z_STREAM_END) {
      complete = zs.avail_in == 0;
      if (complete) break;
      inflateReset(&zs);  // a further gzip member follows
    } else if (status != Z_OK || (zs.avail_in == 0 && zs.avail_out != 0)) {
      break;  // corrupt, or the input ended inside a member (truncated)
    }
  }
  inflateEnd(&zs);
  if (!complete) {
    throw InputError(fmt::format("{}: not a valid gzip file (corrupt or truncated)", source));
  }
  return out;
}

}  // namespace gpdp::io
