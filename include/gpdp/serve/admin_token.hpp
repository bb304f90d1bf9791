#pragma once
// The bearer token of `gpdp serve`'s admin endpoints, read from a file (one line, at least 32
// characters; the file must not be readable by group or others). A request's
// "Authorization: Bearer <token>" is checked in constant time: both sides are hashed with
// BLAKE2b (crypto_generichash) and the digests compared with sodium_memcmp, so neither the
// token's content nor its length shows in the timing.
#include <array>
#include <string>

namespace gpdp::serve {

class AdminToken {
 public:
  // InputError naming the file when it is missing, too short, or readable by group/others.
  static AdminToken load(const std::string& file);
  static AdminToken from_secret(const std::string& secret);

  // Whether `authorization` (the header's value) is "Bearer <the token>".
  bool authorizes(const std::string& authorization) const;

 private:
  std::array<unsigned char, 32> digest_{};
};

}  // namespace gpdp::serve
