#pragma once
// Logistic regression as a bounded-likelihood model (spec §2.7): labels y ∈ {−1,+1}, features
// ‖x‖₂ ≤ 1, parameters on the ball ‖θ‖₂ ≤ R. With z = y·x:
//   ℓ(x,y,θ) = −log(1 + exp(−θᵀz)),  |ℓ| ≤ log(1 + e^R) = B,  ‖∇_θ ℓ‖ ≤ ‖x‖ ≤ 1 = L,
//   and the tight sensitivity Δ = log(1+e^R) − log(1+e^{−R}) = R.
#include <Eigen/Core>

#include "gpdp/ops/model.hpp"

namespace gpdp::ops {

// Numerically stable log(1 + e^t).
double log1p_exp(double t);
// σ(t) = 1 / (1 + e^{−t}).
double logistic_sigmoid(double t);

class LogisticModel final : public BoundedLikelihoodModel {
 public:
  // Throws InputError when a row has ‖x‖ > 1 (+1e-9), a label is not ±1, or R ≤ 0.
  LogisticModel(Eigen::MatrixXd x, Eigen::VectorXd y, double radius);

  Eigen::Index dim() const override { return z_.cols(); }
  Eigen::Index size() const override { return z_.rows(); }
  double radius() const override { return radius_; }
  // B = log(1 + e^R).
  double log_likelihood_bound() const override;
  double gradient_bound() const override { return 1.0; }
  // Δ = R (monotone in θᵀz ∈ [−R, R]).
  double log_likelihood_sensitivity() const override { return radius_; }

  double record_log_likelihood(Eigen::Index i, const Eigen::VectorXd& theta) const override;
  double log_likelihood(const Eigen::VectorXd& theta, Eigen::VectorXd* grad) const override;
  Eigen::VectorXd batch_gradient(const Eigen::VectorXd& theta,
                                 std::span<const Eigen::Index> batch) const override;
  Eigen::MatrixXd log_likelihood_hessian(const Eigen::VectorXd& theta) const override;

  const Eigen::MatrixXd& signed_features() const { return z_; }  // rows z_i = y_i x_i

 private:
  Eigen::MatrixXd z_;
  double radius_;
};

}  // namespace gpdp::ops
