#pragma once
// The GP posterior Π_D = GP(μ_D, σ² k_D) of SPEC §1:
//   μ_D(x)     = k_X(x)ᵀ (K + r² I)⁻¹ y
//   k_D(x, x') = k(x, x') − k_X(x)ᵀ (K + r² I)⁻¹ k_X(x')
// K + r² I is factorised once (Cholesky; r > 0 makes it positive definite even with duplicate
// covariates) and reused by every query and sampler.
#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "gpdp/kernel.hpp"

namespace gpdp {

// θ = (ℓ, r, σ): ℓ lives in the Kernel; r is the effective ridge (r² = λ²/σ²); σ the prior scale.
struct Hyperparameters {
  double r;
  double sigma;
};

class Posterior {
 public:
  Posterior(Kernel kernel, Points X, Eigen::VectorXd y, Hyperparameters theta);

  const Kernel& kernel() const { return kernel_; }
  const Points& X() const { return X_; }
  const Eigen::VectorXd& y() const { return y_; }
  double r() const { return theta_.r; }
  double sigma() const { return theta_.sigma; }
  Eigen::Index n() const { return X_.rows(); }
  int dim() const { return static_cast<int>(X_.cols()); }

  // (K + r² I)⁻¹ y, the representer weights of μ_D.
  const Eigen::VectorXd& weights() const { return weights_; }
  // Cholesky factor of K + r² I.
  const Eigen::LLT<Eigen::MatrixXd>& factor() const { return factor_; }

  Eigen::VectorXd mean(const Points& xs) const;
  // Pointwise σ² k_D(x, x): the variance of the released path at each point.
  Eigen::VectorXd variance(const Points& xs) const;
  // σ² k_D(xs, xs): the joint covariance of the released path on xs.
  Eigen::MatrixXd covariance(const Points& xs) const;
  // σ² k_D(a, b).
  Eigen::MatrixXd cross_covariance(const Points& a, const Points& b) const;
  // p_D(x) = Φ((μ_D(x) − t) / (σ √k_D(x,x))); where k_D(x,x) = 0 it is 1{μ_D(x) ≥ t}.
  Eigen::VectorXd excursion_probability(const Points& xs, double threshold) const;
  // d_eff = tr(K (K + r² I)⁻¹).
  double effective_dimension() const;

 private:
  Kernel kernel_;
  Points X_;
  Eigen::VectorXd y_;
  Hyperparameters theta_;
  Eigen::LLT<Eigen::MatrixXd> factor_;
  Eigen::VectorXd weights_;
};

}  // namespace gpdp
