#pragma once
// Released values are snapped to a data-independent power-of-two lattice Λ·ℤ (Mironov 2012,
// "On significance of the least significant bits for differential privacy"; Jin et al. 2021,
// "Are we there yet? Timing and floating-point attacks on differential privacy systems").
// Snapping is post-processing of the released path, so the RDP guarantee is unchanged; it removes
// the low-order bits whose pattern depends on the data through floating-point rounding.
// Λ derives from public quantities only (n, M_Y, r, σ, η, or the functional mechanism's s);
// docs/security.md gives the reasoning.
#include <string>

namespace gpdp::release {

struct Granularity {
  double lambda = 0.0;  // Λ = 2^exponent, the lattice spacing of released values
  int exponent = 0;
  double std_floor = 0.0;    // public lower bound on the released path's pointwise std
  double value_bound = 0.0;  // public bound on |released value|; values are clamped to ±this
  double fp_error = 0.0;     // generous public bound on the floating-point error of the transform
  std::string reasoning;     // one line for the certificate
};

// Public lower bound of the pointwise standard deviation of f_D + g (g ~ GP(0, η² k), k(x,x) = 1):
// writing f_D(X) = c f(x) + w with c = k_X(x), the data carry at most cᵀc/r² ≤ n/r² precision about
// f(x), so k_D(x,x) ≥ r²/(n + r²) and std ≥ √(σ² r²/(n + r²) + η²).
double released_std_floor(long n, double r, double sigma, double eta);

// Λ = max(2^⌊log2(std_floor / 2^8)⌋, 2^⌈log2(2^24 · u · value_bound)⌉) with u = 2^-53:
// at most 1/256 of the smallest possible standard deviation (utility untouched) and at least
// 2^24 units in the last place of the largest possible value (far above the rounding error of the
// sampler's linear algebra).
Granularity release_granularity(long n, double M_Y, double r, double sigma, double eta);

// The same for the functional mechanism μ_D + s·g (k(x, x) = 1): std_floor = s exactly and value
// bound n·M_Y/r² + 40 s.
Granularity functional_granularity(long n, double M_Y, double r, double noise_scale);

// Λ for any Gaussian output with a public lower bound on its standard deviation and a public bound
// on |value| (the rule of release_granularity); `what` names them in the reasoning line.
Granularity gaussian_granularity(double std_floor, double value_bound, const std::string& what);

// Nearest lattice point k·Λ (ties to even), clamped to ±value_bound (also a lattice point).
double snap(double value, const Granularity& g);

}  // namespace gpdp::release
