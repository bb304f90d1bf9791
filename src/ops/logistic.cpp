#include "gpdp/ops/logistic.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp::ops {

double log1p_exp(double t) { return t > 0 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t)); }

double logistic_sigmoid(double t) {
  if (t >= 0) return 1.0 / (1.0 + std::exp(-t));
  const double e = std::exp(t);
  return e / (1.0 + e);
}

LogisticModel::LogisticModel(Eigen::MatrixXd x, Eigen::VectorXd y, double radius)
    : z_(std::move(x)), radius_(radius) {
  require(radius > 0 && std::isfinite(radius), fmt::format("logistic model: radius R must be > 0, got {}", radius));
  require(y.size() == z_.rows(), fmt::format("logistic model: {} labels for {} rows", y.size(), z_.rows()));
  require(z_.rows() > 0 && z_.cols() > 0, "logistic model: empty design matrix");
  for (Eigen::Index i = 0; i < z_.rows(); ++i) {
    require(y(i) == 1.0 || y(i) == -1.0,
            fmt::format("logistic model: label of row {} is {}, expected -1 or +1", i + 1, y(i)));
    const double norm = z_.row(i).norm();
    require(norm <= 1.0 + 1e-9,
            fmt::format("logistic model: row {} has ||x|| = {} > 1 (scale rows first)", i + 1, norm));
    z_.row(i) *= y(i);
  }
}

// Spec §2.7: |ℓ| ≤ log(1 + e^R) for ‖z‖ ≤ 1, ‖θ‖ ≤ R.
double LogisticModel::log_likelihood_bound() const { return log1p_exp(radius_); }

double LogisticModel::record_log_likelihood(Eigen::Index i, const Eigen::VectorXd& theta) const {
  return -log1p_exp(-z_.row(i).dot(theta));
}

double LogisticModel::log_likelihood(const Eigen::VectorXd& theta, Eigen::VectorXd* grad) const {
  const Eigen::VectorXd margin = z_ * theta;
  double total = 0.0;
  Eigen::VectorXd weight(margin.size());
  for (Eigen::Index i = 0; i < margin.size(); ++i) {
    total -= log1p_exp(-margin(i));
    weight(i) = logistic_sigmoid(-margin(i));
  }
  if (grad != nullptr) *grad = z_.transpose() * weight;
  return total;
}

Eigen::VectorXd LogisticModel::batch_gradient(const Eigen::VectorXd& theta,
                                              std::span<const Eigen::Index> batch) const {
  Eigen::VectorXd g = Eigen::VectorXd::Zero(dim());
  for (const Eigen::Index i : batch) {
    g += logistic_sigmoid(-z_.row(i).dot(theta)) * z_.row(i).transpose();
  }
  return g;
}

Eigen::MatrixXd LogisticModel::log_likelihood_hessian(const Eigen::VectorXd& theta) const {
  const Eigen::VectorXd margin = z_ * theta;
  Eigen::VectorXd w(margin.size());
  for (Eigen::Index i = 0; i < margin.size(); ++i) {
    const double s = logistic_sigmoid(margin(i));
    w(i) = std::sqrt(s * (1.0 - s));
  }
  const Eigen::MatrixXd wz = w.asDiagonal() * z_;
  Eigen::MatrixXd h = Eigen::MatrixXd::Zero(dim(), dim());
  h.selfadjointView<Eigen::Lower>().rankUpdate(wz.transpose(), -1.0);
  return h.selfadjointView<Eigen::Lower>();
}

}  // namespace gpdp::ops
