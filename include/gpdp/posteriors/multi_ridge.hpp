#pragma once
// The GP posterior of one data set (X, y) on fixed evaluation points xs, for one kernel at MANY
// ridges r (docs/mathematics.md §1 with σ = 1):
//   μ_D(x)     = k_X(x)ᵀ (K + r² I)⁻¹ y
//   k_D(x, x)  = k(x, x) − k_X(x)ᵀ (K + r² I)⁻¹ k_X(x)
//   z₁(x)      = (μ_D(x) − t)/√k_D(x, x),  so that p_D = Φ(z₁/σ) for every σ
// (μ_D and k_D do not depend on σ). Hyperparameter searches (experiments/search.hpp) ask for z₁ at
// many (ℓ, r). The engines implement the same exact algebra (no truncation, no jitter) at
// different costs:
//   DirectPosterior       one Posterior per (ℓ, r): the O(n + m) Markov engine for the 1-D
//                         exponential kernel, a Cholesky of K + r² I otherwise   (direct.hpp)
//   RidgeCholesky         one Cholesky per (ℓ, r) on precomputed distances (ridge_cholesky.hpp)
//   SpectralPosterior     one eigendecomposition per ℓ, then O(m n) per r        (spectral.hpp)
//   TridiagonalPosterior  one tridiagonal reduction per ℓ, then O(m n) per r, all
//                         ridges in one pass                                     (tridiagonal.hpp)
// The first two fit every ridge on its own; the last two reduce once per ℓ and then serve any r.
// They agree with Posterior to ~ε_mach‖K‖/r² (each file states and tests its tolerance).
#include <Eigen/Core>
#include <vector>

#include "gpdp/kernel.hpp"

namespace gpdp {

class MultiRidgePosterior {
 public:
  virtual ~MultiRidgePosterior() = default;
  // Fits `kernel` (e.g. the next ℓ of a search) to the engine's data, reusing storage.
  virtual void refit(const Kernel& kernel) = 0;
  // μ_D and k_D(x, x) (σ = 1) on the evaluation points at ridge r > 0, after refit().
  virtual void moments(double r, Eigen::VectorXd& mean, Eigen::VectorXd& variance) = 0;
  // z₁ on the evaluation points, column k for ridges[k] (default: moments() per ridge).
  virtual Eigen::MatrixXd excursion_z(const std::vector<double>& ridges, double threshold);
  // True when one refit serves every ridge at O(m n) each (a reduction); false when every ridge
  // costs a factorisation of its own.
  virtual bool reduces() const = 0;
};

// z = (μ − t)/√k elementwise, ±∞ (the sign of μ − t, +∞ at equality) where k ≤ 0: with k = the
// σ²-free posterior variance k_D, p_D = Φ(z/σ).
Eigen::VectorXd standardised_excess(const Eigen::VectorXd& mu, const Eigen::VectorXd& k, double t);

}  // namespace gpdp
