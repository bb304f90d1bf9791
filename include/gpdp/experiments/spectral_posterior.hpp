#pragma once
// The GP posterior of one kernel and data set at EVERY ridge r at once (docs/mathematics.md §1 with
// σ = 1), for hyperparameter searches that try many (r, σ) per lengthscale. One symmetric
// eigendecomposition K = U Λ Uᵀ (LAPACK dsyevd) of the n x n Gram matrix and A = K(xs, X) U (m x n)
// give, for any r,
//   μ_D(x_i)     = Σ_j A_ij (Uᵀ y)_j / (λ_j + r²)
//   k_D(x_i,x_i) = k(x_i, x_i) − Σ_j A_ij² / (λ_j + r²)
// because (K + r² I)⁻¹ = U diag(1/(λ + r²)) Uᵀ. This is the same algebra as the Cholesky route
// (Posterior), not an approximation: no jitter, no truncation. Costs: O(n³ + m n²) once, then
// O(m n) per r (Cholesky route: O(n³ + m n²) per r). p_D for every σ follows from the same z₁.
//
// Numerical tolerance: dsyevd is backward stable (each λ_j, U exact for a matrix within a small
// multiple of ε_mach‖K‖ of K), so μ_D and k_D differ from the Cholesky route by about
// ε_mach‖K‖/r² relative: at most ~1e-9 for n = 400 (‖K‖ ≤ n) and r ≥ 0.01, and the Cholesky route's
// own rounding is of the same order (same system, condition number ≤ 1 + ‖K‖/r²). Tested to 1e-10
// absolute against Posterior. λ_j + r² ≤ 0 (only if rounding made λ_j < −r²) is a NumericalError.
#include <lapacke.h>

#include <Eigen/Core>

#include "gpdp/kernel.hpp"

namespace gpdp::experiments {

// ‖X_i − X_j‖ (n x n) and ‖xs_i − X_j‖ (m x n): every ℓ of an isotropic kernel reuses them.
// Differences are formed coordinate by coordinate (no ‖a‖² + ‖b‖² − 2a·b cancellation).
struct PairwiseDistances {
  PairwiseDistances(const Points& X, const Points& xs);
  // K = k(train) and K(xs, X) = k(cross) for an isotropic kernel. The exponential kernel is
  // evaluated with exp_scaled (vector_exp.hpp: agrees with Kernel to a few ulp).
  void kernel_matrices(const Kernel& kernel, Eigen::MatrixXd& gram,
                       Eigen::MatrixXd& gram_cross) const;
  Eigen::MatrixXd train;  // n x n
  Eigen::MatrixXd cross;  // m x n
};

class SpectralPosterior {
 public:
  // K = kernel.gram(X); evaluation points xs (m x d).
  SpectralPosterior(const Kernel& kernel, const Points& X, const Eigen::VectorXd& y,
                    const Points& xs);
  // The same from precomputed distances (every gpdp kernel is a function of ‖x − x'‖).
  SpectralPosterior(const Kernel& kernel, const PairwiseDistances& distances,
                    const Eigen::VectorXd& y);
  // Re-fits for another kernel (e.g. the next ℓ) on the same distances, reusing this object's
  // storage (a search fits dozens of ℓ per data set; fresh 5 MB buffers each time cost page
  // faults).
  void refit(const Kernel& kernel, const PairwiseDistances& distances, const Eigen::VectorXd& y);

  Eigen::Index n() const { return lambda_.size(); }
  const Eigen::VectorXd& eigenvalues() const { return lambda_; }  // ascending

  // μ_D on xs at ridge r.
  Eigen::VectorXd mean(double r) const;
  // k_D(x, x) on xs at ridge r (σ = 1; the posterior variance is σ² times this).
  Eigen::VectorXd variance(double r) const;
  // z₁ = (μ_D − t)/√k_D on xs (±∞ where k_D ≤ 0): p_D = Φ(z₁/σ), as experiments::excursion_z.
  Eigen::VectorXd excursion_z(double r, double threshold) const;
  // d_eff = tr(K (K + r² I)⁻¹) = Σ_j λ_j / (λ_j + r²).
  double effective_dimension(double r) const;

 private:
  // Eigendecomposes u_ (holding K) in place and forms A from k_cross_ (holding K(xs, X)).
  void decompose(const Eigen::VectorXd& y, double prior_var);
  Eigen::VectorXd inverse_shifted(double r) const;  // 1/(λ + r²), checked > 0
  Eigen::VectorXd lambda_;
  Eigen::VectorXd uty_;        // Uᵀ y
  Eigen::VectorXd prior_var_;  // k(x_i, x_i)
  Eigen::MatrixXd a_;          // K(xs, X) U
  Eigen::MatrixXd a2_;         // A ∘ A
  Eigen::MatrixXd u_;          // K, then U (n x n)
  Eigen::MatrixXd k_cross_;    // K(xs, X)
  Eigen::VectorXd work_;       // dsyevd workspaces
  Eigen::Matrix<lapack_int, Eigen::Dynamic, 1> iwork_;
};

}  // namespace gpdp::experiments
