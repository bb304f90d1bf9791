#pragma once
// Synthetic (f*, D) pairs of the excursion-set experiments (paper §5 eq. 8 and App. D.1).
// Generators are seeded (experiments are reproducible, never private).
#include <Eigen/Core>

#include "gpdp/grid.hpp"
#include "gpdp/kernel.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::experiments {

// One synthetic problem: the latent field on the evaluation grid and a data set drawn from it.
struct ExcursionPair {
  Points X;               // n x d covariates, uniform on [0,1]^d
  Eigen::VectorXd y;      // n responses, |y| ≤ 1 = M_Y by construction
  Eigen::VectorXd field;  // the (attenuated) latent signal on the evaluation grid
  Eigen::VectorXd truth;  // s*(x) = 1{field(x) ≥ t} on the grid (t = 0)
};

// NSR = M_ξ / (1 − M_ξ)  ⇔  M_ξ = NSR / (1 + NSR).
double noise_bound_from_nsr(double nsr);

// 1-D (paper eq. 8): f* ~ GP(0, exp(−|x − x'|/ℓ_gen)) drawn EXACTLY and jointly on grid ∪ X
// (Ornstein–Uhlenbeck recursion over the sorted points), rescaled to sup-norm 1 − M_ξ over
// grid ∪ X, y_i = f*(x_i) + ξ_i with ξ_i ~ U[−M_ξ, M_ξ]; hence |y_i| ≤ 1.
struct Field1dSpec {
  long n = 100;
  double nsr = 1.0;
  double ell_gen = 1.0;
};
ExcursionPair generate_field_1d(const Field1dSpec& spec, const Grid& grid, Rng& rng);

// 2-D (App. D.1): h(x) = Σ_{j≤K} a_j exp(−½ (x − c_j)ᵀ Σ_j⁻¹ (x − c_j)), Σ_j = R_φ diag(w²) R_φᵀ;
// g̃ = sigmoid(γ (h − b_h)) with b_h the `quantile` of h on the grid; g = g̃ min-max normalised
// to [0, 1] over grid ∪ X; f* = 2g − 1; y_i = (1 − M_ξ) f*(x_i) + ξ_i. Target: (1 − M_ξ) f* ≥ 0.
struct Plume2dSpec {
  long n = 400;
  double nsr = 1.0;
  int plumes = 2;           // K
  double quantile = 0.65;   // share of grid values of h below b_h
  double width_min = 0.08;  // w_{j,i} ~ U[width_min, width_max]
  double width_max = 0.30;
  double amplitude_min = 0.5;  // a_j ~ U[amplitude_min, amplitude_max]
  double amplitude_max = 1.5;
  double steepness = 12.0;  // γ, in units of 1 / (max h − min h) on the grid
};
ExcursionPair generate_plume_2d(const Plume2dSpec& spec, const Grid& grid, Rng& rng);

}  // namespace gpdp::experiments
