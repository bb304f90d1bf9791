#pragma once
// The OPS target (docs/ops-derivations.md §2.4): p_ρ(θ|X) ∝ π(θ)·∏_i p(x_i|θ)^ρ on the ball ‖θ‖ ≤
// R, with π a Gaussian truncated to the ball.
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

  // Mode of the target restricted to the ball. When the unconstrained mode lies outside, the
  // maximiser sits on the sphere with ∇log p(θ*) = μθ*, μ > 0 (KKT); then `multiplier` = μ and
  // `boundary_slope` λ = ‖∇log p(θ*)‖ = μR (the rate at which the log density falls inward).
  struct Mode {
    Eigen::VectorXd theta;
    double multiplier = 0.0;      // μ (0: interior mode)
    double boundary_slope = 0.0;  // λ (0: interior mode)
  };
  // Found by Newton on −log p + μ‖θ‖²/2 with μ from a safeguarded Newton iteration on the secular
  // equation 1/‖θ(μ)‖ = 1/R (Moré–Sorensen); relative tolerance on ‖θ‖ of 1e-6.
  Mode constrained_mode() const;
  // −∇² log density of the smooth extension at θ (positive definite: the prior adds I/sd²).
  Eigen::MatrixXd precision(const Eigen::VectorXd& theta) const;

 private:
  const BoundedLikelihoodModel& model_;
  double rho_;
  TruncatedGaussianPrior prior_;
};

}  // namespace gpdp::ops
