#include "gpdp/rng.hpp"

#include <sodium.h>

#include <array>
#include <bit>
#include <cmath>
#include <numbers>

#include "gpdp/error.hpp"

namespace gpdp {

double Rng::uniform01() {
  // Position of the first set bit in an infinite random bit stream gives the binary exponent.
  int exponent = -64;
  std::uint64_t bits = next_u64();
  while (bits == 0) {
    exponent -= 64;
    if (exponent < -1074) return std::ldexp(1.0, -1074);  // probability 2^-1024: unreachable
    bits = next_u64();
  }
  const int shift = std::countl_zero(bits);
  exponent -= shift;
  if (shift > 0) bits = (bits << shift) | (next_u64() >> (64 - shift));
  // Sticky low bit: the 64-bit integer rounds to a 53-bit mantissa without bias towards evens.
  return std::ldexp(static_cast<double>(bits | 1u), exponent);
}

double Rng::standard_normal() {
  if (has_spare_) {
    has_spare_ = false;
    return spare_;
  }
  const double radius = std::sqrt(-2.0 * std::log(uniform01()));
  const double angle = 2.0 * std::numbers::pi * uniform01();
  spare_ = radius * std::sin(angle);
  has_spare_ = true;
  return radius * std::cos(angle);
}

void Rng::fill_standard_normal(double* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out[i] = standard_normal();
}

std::vector<double> Rng::standard_normals(std::size_t n) {
  std::vector<double> v(n);
  fill_standard_normal(v.data(), n);
  return v;
}

namespace {
std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

SeededRng::SeededRng(std::uint64_t seed) : seed_(seed) {
  std::uint64_t x = seed;
  for (auto& word : s_) word = splitmix64(x);
}

std::uint64_t SeededRng::next_u64() {
  const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = std::rotl(s_[3], 45);
  return result;
}

std::string SeededRng::description() const {
  return "seeded xoshiro256** seed=" + std::to_string(seed_) + " (NOT private)";
}

SeededRng SeededRng::split(std::uint64_t index) const {
  std::uint64_t x = seed_ ^ (0xd1b54a32d192ed03ULL * (index + 1));
  return SeededRng(splitmix64(x));
}

SecureRng::SecureRng() {
  if (sodium_init() < 0) throw Error("libsodium could not be initialised: no secure randomness");
}

std::uint64_t SecureRng::next_u64() {
  if (pos_ == buffer_.size()) {
    randombytes_buf(buffer_.data(), sizeof(buffer_));
    pos_ = 0;
  }
  return buffer_[pos_++];
}

std::string SecureRng::description() const { return "secure (libsodium randombytes, OS entropy)"; }

std::unique_ptr<Rng> make_rng(const std::optional<std::uint64_t>& insecure_seed) {
  if (insecure_seed) return std::make_unique<SeededRng>(*insecure_seed);
  return std::make_unique<SecureRng>();
}

std::string random_hex_id() {
  if (sodium_init() < 0) throw Error("libsodium could not be initialised");
  std::array<unsigned char, 16> id{};
  randombytes_buf(id.data(), id.size());
  std::array<char, 33> hex{};
  sodium_bin2hex(hex.data(), hex.size(), id.data(), id.size());
  return std::string(hex.data(), 32);
}

}  // namespace gpdp
