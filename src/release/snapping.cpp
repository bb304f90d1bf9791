#include "gpdp/release/snapping.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp::release {

double released_std_floor(long n, double r, double sigma, double eta) {
  const double nn = static_cast<double>(n);
  return std::sqrt(sigma * sigma * r * r / (nn + r * r) + eta * eta);
}

namespace {

// Λ from a public std floor and a public bound on |value| (see release_granularity).
Granularity granularity(double std_floor, double bound) {
  Granularity g;
  g.std_floor = std_floor;
  const double ulp = std::ldexp(1.0, -53);
  g.fp_error = std::ldexp(1.0, 24) * ulp * bound;
  const int from_std = static_cast<int>(std::floor(std::log2(g.std_floor))) - 8;
  const int from_fp = static_cast<int>(std::ceil(std::log2(g.fp_error)));
  g.exponent = std::max(from_std, from_fp);
  g.lambda = std::ldexp(1.0, g.exponent);
  g.value_bound = std::ldexp(std::ceil(std::ldexp(bound, -g.exponent)), g.exponent);
  return g;
}

}  // namespace

Granularity gaussian_granularity(double std_floor, double value_bound, const std::string& what) {
  require(std_floor > 0 && std::isfinite(value_bound) && value_bound > 0,
          "granularity needs a positive std floor and value bound");
  Granularity g = granularity(std_floor, value_bound);
  g.reasoning = fmt::format(
      "Λ = 2^{} = max(2^⌊log2(std_floor/256)⌋, 2^⌈log2(2^24·2^-53·B)⌉) for {}: std_floor = {:.6g}, "
      "value bound B = {:.6g}",
      g.exponent, what, std_floor, value_bound);
  return g;
}

Granularity release_granularity(long n, double M_Y, double r, double sigma, double eta) {
  require(n >= 1 && M_Y > 0 && r > 0 && sigma > 0 && eta >= 0,
          "release granularity needs n ≥ 1, M_Y > 0, r > 0, σ > 0, η ≥ 0");
  // |μ_D(x)| ≤ ‖k_X(x)‖ ‖(K + r² I)⁻¹‖ ‖y‖ ≤ √n · r⁻² · √n M_Y; the Gaussian part stays within
  // 40 prior standard deviations except with probability < 10⁻³⁴⁰.
  const double nn = static_cast<double>(n);
  const double prior_std = std::sqrt(sigma * sigma + eta * eta);
  const double bound = nn * M_Y / (r * r) + M_Y + 40.0 * prior_std;
  Granularity g = granularity(released_std_floor(n, r, sigma, eta), bound);
  g.reasoning = fmt::format(
      "Λ = 2^{} = max(2^⌊log2(std_floor/256)⌋, 2^⌈log2(2^24·2^-53·B)⌉) with public std_floor = "
      "√(σ²r²/(n+r²)+η²) = {:.6g} and value bound B = n·M_Y/r² + M_Y + 40√(σ²+η²) = {:.6g} (M_Y: "
      "a prior mean)",
      g.exponent, g.std_floor, bound);
  return g;
}

Granularity functional_granularity(long n, double M_Y, double r, double noise_scale) {
  require(n >= 1 && M_Y > 0 && r > 0 && noise_scale > 0,
          "functional granularity needs n ≥ 1, M_Y > 0, r > 0, s > 0");
  // |μ_D(x)| ≤ n M_Y / r² as above; s·g(x) ~ N(0, s²) pointwise (k(x, x) = 1).
  const double bound = static_cast<double>(n) * M_Y / (r * r) + M_Y + 40.0 * noise_scale;
  Granularity g = granularity(noise_scale, bound);
  g.reasoning = fmt::format(
      "Λ = 2^{} = max(2^⌊log2(std_floor/256)⌋, 2^⌈log2(2^24·2^-53·B)⌉) with public std_floor = "
      "s = {:.6g} (the functional mechanism's noise) and value bound B = n·M_Y/r² + M_Y + 40 s = "
      "{:.6g} (M_Y: a prior mean)",
      g.exponent, g.std_floor, bound);
  return g;
}

double snap(double value, const Granularity& g) {
  if (std::isnan(value)) throw NumericalError("a released value is NaN; nothing is released");
  const double clamped = std::clamp(value, -g.value_bound, g.value_bound);
  // Division and multiplication by a power of two are exact; nearbyint rounds half to even.
  return std::ldexp(std::nearbyint(std::ldexp(clamped, -g.exponent)), g.exponent);
}

}  // namespace gpdp::release
