#pragma once
// The OPS target (spec §2.4): p_ρ(θ|X) ∝ π(θ)·∏_i p(x_i|θ)^ρ on the ball ‖θ‖ ≤ R, with π a
// Gaussian truncated to the ball.
#include <Eigen/Core>

#include "gpdp/ops/model.hpp"

namespace gpdp::ops {

class TemperedPosterior {
 public:
  // Throws InputError unless 0 < ρ ≤ 1 and prior_sd > 0.
  TemperedPosterior(const BoundedLikelihoodModel& model, double rho, double prior_sd);

  const BoundedLikelihoodModel& model() const { return model_; }
  double rho() const { return rho_; }
  double radius() const { return prior_.radius; }
  Eigen::Index dim() const { return model_.dim(); }

  // Unnormalised log density; −∞ outside the ball. Fills *grad (smooth extension of the gradient,
  // defined everywhere) when non-null.
  double log_density(const Eigen::VectorXd& theta, Eigen::VectorXd* grad) const;
  // The gradient alone (same smooth extension; cheaper: no log-likelihood value).
  Eigen::VectorXd gradient(const Eigen::VectorXd& theta) const;
  // Mode of the unconstrained smooth extension (Newton), projected onto the ball.
  Eigen::VectorXd projected_mode() const;
  // −∇² log density of the smooth extension at θ (positive definite: the prior adds I/sd²).
  Eigen::MatrixXd precision(const Eigen::VectorXd& theta) const;

 private:
  const BoundedLikelihoodModel& model_;
  double rho_;
  TruncatedGaussianPrior prior_;
};

}  // namespace gpdp::ops
