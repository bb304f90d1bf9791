#include "gpdp/serve/admin_token.hpp"

#include <fmt/format.h>
#include <sodium.h>

#include <filesystem>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"

namespace gpdp::serve {

namespace {

constexpr std::size_t kMinTokenLength = 32;

std::array<unsigned char, 32> digest(const std::string& text) {
  if (sodium_init() < 0) throw Error("libsodium could not be initialised");
  std::array<unsigned char, 32> out{};
  crypto_generichash(out.data(), out.size(), reinterpret_cast<const unsigned char*>(text.data()),
                     text.size(), nullptr, 0);
  return out;
}

}  // namespace

AdminToken AdminToken::load(const std::string& file) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto perms = fs::status(file, ec).permissions();
  require(!ec && fs::exists(file), fmt::format("{}: admin token file not found", file));
  require((perms & (fs::perms::group_all | fs::perms::others_all)) == fs::perms::none,
          fmt::format("{}: admin token file is readable by group or others (chmod 600 it)", file));
  std::string text = io::read_file(file);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  require(text.size() >= kMinTokenLength && text.find_first_of(" \t\r\n") == std::string::npos,
          fmt::format("{}: the admin token must be one line of at least {} non-blank characters",
                      file, kMinTokenLength));
  return from_secret(text);
}

AdminToken AdminToken::from_secret(const std::string& secret) {
  AdminToken t;
  t.digest_ = digest(secret);
  return t;
}

bool AdminToken::authorizes(const std::string& authorization) const {
  constexpr std::string_view scheme = "Bearer ";
  const std::string given =
      authorization.rfind(scheme, 0) == 0 ? authorization.substr(scheme.size()) : std::string();
  const auto d = digest(given);
  // Always compared (an empty or malformed header costs the same as a wrong token).
  return sodium_memcmp(d.data(), digest_.data(), d.size()) == 0 && !given.empty();
}

}  // namespace gpdp::serve
