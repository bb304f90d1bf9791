#pragma once
// Random number generators. The choice between a seeded generator (experiments, reproducible,
// NOT private) and the cryptographically secure one (releases) is always explicit in the API.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gpdp {

class Rng {
 public:
  virtual ~Rng() = default;
  virtual std::uint64_t next_u64() = 0;
  // True only for the OS-entropy generator; releases refuse anything else unless told otherwise.
  virtual bool is_secure() const = 0;
  // "secure (libsodium randombytes)" or "seeded xoshiro256** seed=S (NOT private)".
  virtual std::string description() const = 0;

  // Uniform on (0, 1) with every representable double reachable ("no holes"): the exponent is drawn
  // geometrically and the mantissa filled with fresh bits, so tails of derived normals are not
  // truncated at 2^-53 as with the usual (x >> 11) * 2^-53 construction.
  double uniform01();
  // Standard normal by Box-Muller on two hole-free uniforms.
  double standard_normal();
  void fill_standard_normal(double* out, std::size_t n);
  std::vector<double> standard_normals(std::size_t n);

 private:
  bool has_spare_ = false;
  double spare_ = 0.0;
};

// xoshiro256** seeded through splitmix64. Fast and reproducible; never for a private release.
class SeededRng final : public Rng {
 public:
  explicit SeededRng(std::uint64_t seed);
  std::uint64_t next_u64() override;
  bool is_secure() const override { return false; }
  std::string description() const override;
  std::uint64_t seed() const { return seed_; }
  // An independent generator for stream `index` (parallel work stays deterministic).
  SeededRng split(std::uint64_t index) const;

 private:
  std::uint64_t seed_;
  std::array<std::uint64_t, 4> s_{};
};

// Operating-system entropy through libsodium's randombytes_buf, buffered.
class SecureRng final : public Rng {
 public:
  SecureRng();
  std::uint64_t next_u64() override;
  bool is_secure() const override { return true; }
  std::string description() const override;

 private:
  std::array<std::uint64_t, 512> buffer_{};
  std::size_t pos_ = 512;
};

// The generator of a release or a query: SecureRng, or with `insecure_seed` a SeededRng (tests and
// reproducible runs only: NOT private).
std::unique_ptr<Rng> make_rng(const std::optional<std::uint64_t>& insecure_seed);

// 16 random bytes from the OS CSPRNG as 32 hex digits (ids of releases and kept paths).
std::string random_hex_id();

}  // namespace gpdp
