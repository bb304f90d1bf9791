#pragma once
// The kept state of a released path (`gpdp release --keep-path F`): evaluated points and their
// values plus the public parameters needed to rebuild the posterior, NEVER the data. It is private
// state (unsnapped values of the path), so the file is always created with mode 0600 and, when a
// key is given, encrypted and authenticated with libsodium's secretbox (XSalsa20-Poly1305); a
// passphrase is stretched with crypto_pwhash (Argon2id). Unencrypted files carry a BLAKE2b
// checksum so that corruption is detected. Any damaged, truncated or wrongly-keyed file is an
// InputError naming the path.
#include <string>

namespace gpdp::release {

struct PathKey {
  enum class Kind { None, KeyFile, Passphrase } kind = Kind::None;
  std::string secret;  // key file contents (32 raw bytes or 64 hex digits) or the passphrase
};

// Reads a key file (32 raw bytes, or 64 hex digits with optional trailing newline).
PathKey key_from_file(const std::string& path);
// The passphrase held in environment variable `variable` (never on the command line).
PathKey key_from_env(const std::string& variable);

// Writes `payload` (UTF-8 JSON) to `path` atomically with mode 0600.
void save_path_file(const std::string& path, const std::string& payload, const PathKey& key);
// Reads it back; InputError if missing, corrupted, or the key does not open it.
std::string load_path_file(const std::string& path, const PathKey& key);
std::string decode_path_file(const std::string& bytes, const std::string& source,
                             const PathKey& key);

// Writes `content` to `path` atomically (temporary file, fsync, rename, fsync of the folder) with
// the given permission bits.
void write_private_file_atomic(const std::string& path, const std::string& content, unsigned mode);

}  // namespace gpdp::release
