#pragma once
// Bounded-likelihood models for One Posterior Sample (OPS) and DP-SGLD (Wang, Fienberg & Smola
// 2015; docs/ops-derivations.md). A model knows its records, its parameter ball
// Θ = {‖θ‖₂ ≤ R}, and the two constants the privacy maps need:
//   B = sup_{x, θ∈Θ} |log p(x|θ)|      (Theorem 1: one exact posterior draw is 4B-DP)
//   L = sup_{x, θ}   ‖∇_θ log p(x|θ)‖₂  (Algorithm 2's Lipschitz constant; 4LR form of OPS).
// Adding a model = implementing this interface; samplers and mechanisms use nothing else.
#include <Eigen/Core>
#include <span>

namespace gpdp::ops {

class BoundedLikelihoodModel {
 public:
  virtual ~BoundedLikelihoodModel() = default;
  virtual Eigen::Index dim() const = 0;             // d = dim θ
  virtual Eigen::Index size() const = 0;            // N records
  virtual double radius() const = 0;                // R of the parameter ball
  virtual double log_likelihood_bound() const = 0;  // B
  virtual double gradient_bound() const = 0;        // L
  // Sensitivity Δ = sup_{θ,x,x'} |ℓ(x,θ) − ℓ(x',θ)| ≤ 2B (docs/ops-derivations.md §2.2); a model
  // may know it tighter.
  virtual double log_likelihood_sensitivity() const { return 2.0 * log_likelihood_bound(); }

  // ℓ(x_i, θ) = log p(x_i | θ).
  virtual double record_log_likelihood(Eigen::Index i, const Eigen::VectorXd& theta) const = 0;
  // Σ_i ℓ(x_i, θ); adds Σ_i ∇_θ ℓ(x_i, θ) into *grad when grad is non-null (grad is overwritten).
  virtual double log_likelihood(const Eigen::VectorXd& theta, Eigen::VectorXd* grad) const = 0;
  // Σ_i ∇_θ ℓ(x_i, θ) alone (samplers need the value only at trajectory ends). The default calls
  // log_likelihood; a model overrides it when the gradient is cheaper than value + gradient.
  virtual Eigen::VectorXd log_likelihood_gradient(const Eigen::VectorXd& theta) const;
  // Σ_{i ∈ batch} ∇_θ ℓ(x_i, θ).
  virtual Eigen::VectorXd batch_gradient(const Eigen::VectorXd& theta,
                                         std::span<const Eigen::Index> batch) const = 0;
  // Hessian of Σ_i ℓ(x_i, θ) (used only to precondition samplers and by Newton's method).
  virtual Eigen::MatrixXd log_likelihood_hessian(const Eigen::VectorXd& theta) const = 0;
};

// N(0, sd² I) truncated to the ball ‖θ‖ ≤ R: the prior of the OPS experiments
// (docs/ops-derivations.md §5). Unnormalised log density; −∞ outside the ball.
struct TruncatedGaussianPrior {
  double sd = 1.0;
  double radius = 1.0;
  double log_density(const Eigen::VectorXd& theta) const;
  // Gradient of the Gaussian part (defined everywhere; the ball enters only through log_density).
  Eigen::VectorXd gradient(const Eigen::VectorXd& theta) const;
};

// Euclidean projection onto the ball ‖θ‖ ≤ R.
Eigen::VectorXd project_to_ball(const Eigen::VectorXd& theta, double radius);

}  // namespace gpdp::ops
