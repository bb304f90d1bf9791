#pragma once
// SHA-256 (libsodium crypto_hash_sha256) of bytes: the dataset identity in ledgers and
// certificates.
#include <string>
#include <string_view>

namespace gpdp::release {

// Lower-case hex digest of `bytes`.
std::string sha256_hex(std::string_view bytes);

}  // namespace gpdp::release
