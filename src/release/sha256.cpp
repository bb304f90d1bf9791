#include "gpdp/release/sha256.hpp"

#include <sodium.h>

#include <array>

#include "gpdp/error.hpp"

namespace gpdp::release {

std::string sha256_hex(std::string_view bytes) {
  if (sodium_init() < 0) throw Error("libsodium could not be initialised");
  std::array<unsigned char, crypto_hash_sha256_BYTES> digest{};
  crypto_hash_sha256(digest.data(), reinterpret_cast<const unsigned char*>(bytes.data()),
                     bytes.size());
  std::array<char, 2 * crypto_hash_sha256_BYTES + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), digest.data(), digest.size());
  return std::string(hex.data(), 2 * crypto_hash_sha256_BYTES);
}

}  // namespace gpdp::release
