#include "gpdp/release/path_store.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/io/csv.hpp"

namespace gpdp::release {

namespace {

constexpr char kMagic[8] = {'G', 'P', 'D', 'P', 'P', 'A', 'T', 'H'};
constexpr unsigned char kVersion = 1;
constexpr std::size_t kHeader = sizeof(kMagic) + 2;  // magic, version, kind

using Bytes = std::vector<unsigned char>;

void init_sodium() {
  if (sodium_init() < 0) throw Error("libsodium could not be initialised");
}

void append(std::string& out, const void* data, std::size_t size) {
  out.append(static_cast<const char*>(data), size);
}

// Derives the 32-byte secretbox key; `salt` is used (and must be filled) for passphrases.
std::array<unsigned char, crypto_secretbox_KEYBYTES> derive_key(const PathKey& key,
                                                                const unsigned char* salt) {
  std::array<unsigned char, crypto_secretbox_KEYBYTES> k{};
  if (key.kind == PathKey::Kind::KeyFile) {
    std::memcpy(k.data(), key.secret.data(), k.size());
  } else if (crypto_pwhash(k.data(), k.size(), key.secret.data(), key.secret.size(), salt,
                           crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE,
                           crypto_pwhash_ALG_ARGON2ID13) != 0) {
    throw Error("crypto_pwhash ran out of memory");
  }
  return k;
}

std::string corrupted(const std::string& source, const char* why) {
  return fmt::format("{}: not a usable gpdp path file ({})", source, why);
}

}  // namespace

PathKey key_from_file(const std::string& path) {
  std::string text = io::read_file(path);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  PathKey key{PathKey::Kind::KeyFile, {}};
  if (text.size() == crypto_secretbox_KEYBYTES) {
    key.secret = text;
  } else if (text.size() == 2 * crypto_secretbox_KEYBYTES) {
    init_sodium();
    key.secret.resize(crypto_secretbox_KEYBYTES);
    std::size_t len = 0;
    if (sodium_hex2bin(reinterpret_cast<unsigned char*>(key.secret.data()), key.secret.size(),
                       text.data(), text.size(), nullptr, &len, nullptr) != 0 ||
        len != crypto_secretbox_KEYBYTES) {
      throw InputError(fmt::format("{}: key file must hold 32 bytes or 64 hex digits", path));
    }
  } else {
    throw InputError(fmt::format("{}: key file must hold 32 bytes or 64 hex digits", path));
  }
  return key;
}

PathKey key_from_env(const std::string& variable) {
  const char* value = std::getenv(variable.c_str());
  require(
      value != nullptr && *value != '\0',
      fmt::format("environment variable {} (the path passphrase) is not set or empty", variable));
  return {PathKey::Kind::Passphrase, value};
}

void write_private_file_atomic(const std::string& path, const std::string& content, unsigned mode) {
  const std::filesystem::path target(path);
  const auto dir = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  std::string tmp = (dir / ("." + target.filename().string() + ".tmp.XXXXXX")).string();
  const int fd = ::mkstemp(tmp.data());  // mode 0600 from the start
  if (fd < 0) throw InputError(fmt::format("{}: cannot write ({})", path, std::strerror(errno)));
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      throw InputError(fmt::format("{}: write failed ({})", path, std::strerror(err)));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fchmod(fd, static_cast<mode_t>(mode)) != 0 || ::fsync(fd) != 0 || ::close(fd) != 0 ||
      ::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    throw InputError(fmt::format("{}: could not finish writing ({})", path, std::strerror(err)));
  }
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void save_path_file(const std::string& path, const std::string& payload, const PathKey& key) {
  init_sodium();
  std::string out(kMagic, sizeof(kMagic));
  out.push_back(static_cast<char>(kVersion));
  out.push_back(static_cast<char>(key.kind));
  if (key.kind == PathKey::Kind::None) {
    std::array<unsigned char, crypto_generichash_BYTES> sum{};
    crypto_generichash(sum.data(), sum.size(),
                       reinterpret_cast<const unsigned char*>(payload.data()), payload.size(),
                       nullptr, 0);
    append(out, sum.data(), sum.size());
    append(out, payload.data(), payload.size());
  } else {
    std::array<unsigned char, crypto_pwhash_SALTBYTES> salt{};
    std::array<unsigned char, crypto_secretbox_NONCEBYTES> nonce{};
    randombytes_buf(salt.data(), salt.size());
    randombytes_buf(nonce.data(), nonce.size());
    auto k = derive_key(key, salt.data());
    Bytes box(payload.size() + crypto_secretbox_MACBYTES);
    crypto_secretbox_easy(box.data(), reinterpret_cast<const unsigned char*>(payload.data()),
                          payload.size(), nonce.data(), k.data());
    sodium_memzero(k.data(), k.size());
    append(out, salt.data(), salt.size());
    append(out, nonce.data(), nonce.size());
    append(out, box.data(), box.size());
  }
  write_private_file_atomic(path, out, 0600);
}

std::string decode_path_file(const std::string& bytes, const std::string& source,
                             const PathKey& key) {
  init_sodium();
  if (bytes.size() < kHeader || std::memcmp(bytes.data(), kMagic, sizeof(kMagic)) != 0) {
    throw InputError(corrupted(source, "bad header"));
  }
  if (static_cast<unsigned char>(bytes[sizeof(kMagic)]) != kVersion) {
    throw InputError(corrupted(source, "unsupported version"));
  }
  const auto kind = static_cast<unsigned char>(bytes[sizeof(kMagic) + 1]);
  const auto* body = reinterpret_cast<const unsigned char*>(bytes.data()) + kHeader;
  const std::size_t size = bytes.size() - kHeader;
  if (kind == static_cast<unsigned char>(PathKey::Kind::None)) {
    if (size < crypto_generichash_BYTES) throw InputError(corrupted(source, "truncated"));
    std::array<unsigned char, crypto_generichash_BYTES> sum{};
    crypto_generichash(sum.data(), sum.size(), body + sum.size(), size - sum.size(), nullptr, 0);
    if (sodium_memcmp(sum.data(), body, sum.size()) != 0) {
      throw InputError(corrupted(source, "checksum mismatch"));
    }
    return std::string(reinterpret_cast<const char*>(body) + sum.size(), size - sum.size());
  }
  if (kind != static_cast<unsigned char>(PathKey::Kind::KeyFile) &&
      kind != static_cast<unsigned char>(PathKey::Kind::Passphrase)) {
    throw InputError(corrupted(source, "unknown protection"));
  }
  if (key.kind == PathKey::Kind::None) {
    throw ParameterError({"path_key"},
                         fmt::format("{}: the path file is encrypted; give its path_key", source));
  }
  if (static_cast<unsigned char>(key.kind) != kind) {
    throw ParameterError({"path_key"},
                         fmt::format("{}: the path file was encrypted with a {} (path_key)", source,
                                     kind == 1 ? "key file" : "passphrase"));
  }
  constexpr std::size_t prefix = crypto_pwhash_SALTBYTES + crypto_secretbox_NONCEBYTES;
  if (size < prefix + crypto_secretbox_MACBYTES) throw InputError(corrupted(source, "truncated"));
  auto k = derive_key(key, body);
  Bytes plain(size - prefix - crypto_secretbox_MACBYTES);
  const int rc = crypto_secretbox_open_easy(plain.data(), body + prefix, size - prefix,
                                            body + crypto_pwhash_SALTBYTES, k.data());
  sodium_memzero(k.data(), k.size());
  if (rc != 0) throw InputError(corrupted(source, "wrong key or damaged file"));
  return std::string(plain.begin(), plain.end());
}

std::string load_path_file(const std::string& path, const PathKey& key) {
  return decode_path_file(io::read_file(path), path, key);
}

}  // namespace gpdp::release
