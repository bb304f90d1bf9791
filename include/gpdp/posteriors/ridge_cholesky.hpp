#pragma once
// The multi-ridge interface (multi_ridge.hpp) with one Cholesky per ridge on precomputed distances:
// K + r² I = L Lᵀ (LAPACK dpotrf, or cuSOLVER potrf: gpdp/factorisation.hpp) and one BLAS
// triangular solve V = K(xs, X) L⁻ᵀ (m x n):
//   μ_D(x_i)     = K(x_i, X) (K + r² I)⁻¹ y
//   k_D(x_i,x_i) = k(x_i, x_i) − ‖V_i‖²
// Same algebra as Posterior and SpectralPosterior (σ = 1), exact up to rounding. Cost per r:
// n³/3 + m n² flops, against ≈ 4/3 n³ + 2 m n² once per ℓ for a tridiagonal reduction
// (TridiagonalPosterior) that then serves every r. So an ℓ needed at one or two r is cheaper this
// way, and one needed at many (the coarse grid) through the reduction; ExcursionObjective picks per
// ℓ (kTridiagonalMinRidges in experiments/search.cpp). The study's 2-D releases also use it
// (covariance()).
#include <Eigen/Core>

#include "gpdp/posteriors/distances.hpp"
#include "gpdp/posteriors/multi_ridge.hpp"

namespace gpdp {

class RidgeCholesky final : public MultiRidgePosterior {
 public:
  // Referenced, not copied (they must outlive this object). refit() before any query.
  RidgeCholesky(const PairwiseDistances& distances, const Eigen::VectorXd& y);
  // K and K(xs, X) for this kernel (storage reused across calls).
  void refit(const Kernel& kernel) override;
  void moments(double r, Eigen::VectorXd& mean, Eigen::VectorXd& variance) override;
  bool reduces() const override { return false; }
  // K(xs, X)(K + r² I)⁻¹ B for n-row right-hand sides B (one Cholesky at r): the posterior means
  // of several response vectors at once (the preview applies it to y and to Matheron's rule's
  // prior draws).
  Eigen::MatrixXd apply(double r, Eigen::MatrixXd rhs);
  // After moments(r, …): the posterior covariance k_D(xs, xs) = prior − V Vᵀ at that r, given the
  // prior covariance K(xs, xs) (shared by every data set on the same points). Only the lower
  // triangle is computed (BLAS dsyrk); that is all factor_psd reads.
  Eigen::MatrixXd covariance(const Eigen::MatrixXd& prior) const;

 private:
  void factor(double r);  // l_ = Cholesky factor of K + r² I
  const PairwiseDistances& distances_;
  const Eigen::VectorXd& y_;
  Eigen::MatrixXd k_;        // K (n x n)
  Eigen::MatrixXd k_cross_;  // K(xs, X) (m x n)
  Eigen::MatrixXd l_;        // Cholesky factor of K + r² I (lower)
  Eigen::MatrixXd v_;        // K(xs, X) L⁻ᵀ
  double prior_var_ = 0.0;   // k(x, x)
};

}  // namespace gpdp
