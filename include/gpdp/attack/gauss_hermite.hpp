#pragma once
// Gauss–Hermite quadrature for ∫ g(x) e^{−x²} dx ≈ Σ_q w_q g(x_q), nodes and weights by the
// Golub–Welsch eigenvalue method (Eigen's tridiagonal symmetric eigensolver). Used by the
// membership-inference attack to integrate the latent Gaussian of its density model (paper App. C).
#include <vector>

namespace gpdp::attack {

struct GaussHermiteRule {
  std::vector<double> nodes;    // ascending
  std::vector<double> weights;  // Σ w_q = √π
};

// The Q-point rule (1 ≤ Q ≤ 200), exact for polynomials of degree ≤ 2Q − 1. Cached per Q.
const GaussHermiteRule& gauss_hermite(int points);

}  // namespace gpdp::attack
