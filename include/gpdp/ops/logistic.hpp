#pragma once
// Logistic regression as a bounded-likelihood model (docs/ops-derivations.md §2.7): labels y ∈
// {−1,+1}, features ‖x‖₂ ≤ 1, parameters on the ball ‖θ‖₂ ≤ R. With z = y·x:
//   ℓ(x,y,θ) = −log(1 + exp(−θᵀz)),  |ℓ| ≤ log(1 + e^R) = B,  ‖∇_θ ℓ‖ ≤ ‖x‖ ≤ 1 = L,
//   and the tight sensitivity Δ = log(1+e^R) − log(1+e^{−R}) = R.
#include <Eigen/Core>
#include <Eigen/SparseCore>

#include "gpdp/ops/model.hpp"

namespace gpdp::ops {

// Numerically stable log(1 + e^t).
double log1p_exp(double t);
// σ(t) = 1 / (1 + e^{−t}).
double logistic_sigmoid(double t);

// Evaluation (the sampler's hot loop): one fused pass over the records per call, computing the
// margin θᵀz_i, one exponential (plus a log1p when the value is wanted) and the gradient
// contribution together, without BLAS (no thread hand-off per call) and without per-record virtual
// calls. Records are stored contiguously: as a row-major sparse matrix when at most a quarter of
// the entries are non-zero (one-hot data such as UCI Adult: ≈ 14 of 100), else as columns of zᵀ.
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
  Eigen::VectorXd log_likelihood_gradient(const Eigen::VectorXd& theta) const override;
  Eigen::VectorXd batch_gradient(const Eigen::VectorXd& theta,
                                 std::span<const Eigen::Index> batch) const override;
  Eigen::MatrixXd log_likelihood_hessian(const Eigen::VectorXd& theta) const override;

  const Eigen::MatrixXd& signed_features() const { return z_; }  // rows z_i = y_i x_i
  bool uses_sparse_storage() const { return sparse_; }

 private:
  // Fused pass: returns Σℓ when want_value (else 0) and sets *grad = Σ∇ℓ when grad is non-null.
  double evaluate(const Eigen::VectorXd& theta, bool want_value, Eigen::VectorXd* grad) const;

  Eigen::MatrixXd z_;                                // N × d, rows z_i (the public view)
  Eigen::MatrixXd zt_;                               // d × N, columns z_i (dense storage)
  Eigen::SparseMatrix<double, Eigen::RowMajor> zs_;  // N × d (sparse storage)
  bool sparse_ = false;
  double radius_;
};

}  // namespace gpdp::ops
