#pragma once
// The multi-ridge interface (multi_ridge.hpp) from one symmetric eigendecomposition per ℓ:
// K = U Λ Uᵀ (LAPACK dsyevd, or cuSOLVER syevd: gpdp/factorisation.hpp) of the n x n Gram matrix
// and A = K(xs, X) U (m x n) give, for any r,
//   μ_D(x_i)     = Σ_j A_ij (Uᵀ y)_j / (λ_j + r²)
//   k_D(x_i,x_i) = k(x_i, x_i) − Σ_j A_ij² / (λ_j + r²)
// because (K + r² I)⁻¹ = U diag(1/(λ + r²)) Uᵀ. This is the same algebra as the Cholesky route
// (Posterior), not an approximation: no jitter, no truncation. Costs: O(n³ + m n²) per ℓ, then
// O(m n) per r (Cholesky route: O(n³ + m n²) per r).
//
// Numerical tolerance: dsyevd is backward stable (each λ_j, U exact for a matrix within a small
// multiple of ε_mach‖K‖ of K), so μ_D and k_D differ from the Cholesky route by about
// ε_mach‖K‖/r² relative: at most ~1e-9 for n = 400 (‖K‖ ≤ n) and r ≥ 0.01, and the Cholesky
// route's own rounding is of the same order (same system, condition number ≤ 1 + ‖K‖/r²). Tested
// to 1e-10 absolute against Posterior. λ_j + r² ≤ 0 (only if rounding made λ_j < −r²) is a
// NumericalError.
#include <Eigen/Core>

#include "gpdp/posteriors/distances.hpp"
#include "gpdp/posteriors/multi_ridge.hpp"

namespace gpdp {

class SpectralPosterior final : public MultiRidgePosterior {
 public:
  // Data y and evaluation points through their distances; both are referenced, not copied (they
  // must outlive this object). refit() before any query.
  SpectralPosterior(const PairwiseDistances& distances, const Eigen::VectorXd& y);
  void refit(const Kernel& kernel) override;
  void moments(double r, Eigen::VectorXd& mean, Eigen::VectorXd& variance) override;
  bool reduces() const override { return true; }

  const Eigen::VectorXd& eigenvalues() const { return lambda_; }  // ascending
  // d_eff = tr(K (K + r² I)⁻¹) = Σ_j λ_j / (λ_j + r²).
  double effective_dimension(double r) const;

 private:
  // Eigendecomposes u_ (holding K) in place and forms A from k_cross_ (holding K(xs, X)).
  void decompose(double prior_var);
  Eigen::VectorXd inverse_shifted(double r) const;  // 1/(λ + r²), checked > 0
  const PairwiseDistances& distances_;
  const Eigen::VectorXd& y_;
  Eigen::VectorXd lambda_;
  Eigen::VectorXd uty_;        // Uᵀ y
  Eigen::VectorXd prior_var_;  // k(x_i, x_i)
  Eigen::MatrixXd a_;          // K(xs, X) U
  Eigen::MatrixXd a2_;         // A ∘ A
  Eigen::MatrixXd u_;          // K, then U (n x n)
  Eigen::MatrixXd k_cross_;    // K(xs, X)
};

}  // namespace gpdp
