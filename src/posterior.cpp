#include "gpdp/posterior.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"

namespace gpdp {

Posterior::Posterior(Kernel kernel, Points X, Eigen::VectorXd y, Hyperparameters theta)
    : kernel_(std::move(kernel)), X_(std::move(X)), y_(std::move(y)), theta_(theta) {
  require(std::isfinite(theta_.r) && theta_.r > 0.0,
          fmt::format("regularisation r must be positive and finite, got {}", theta_.r));
  require(std::isfinite(theta_.sigma) && theta_.sigma > 0.0,
          fmt::format("prior scale σ must be positive and finite, got {}", theta_.sigma));
  require(X_.rows() == y_.size(),
          fmt::format("posterior: {} covariate rows but {} responses", X_.rows(), y_.size()));
  require(X_.rows() >= 1, "posterior: needs at least one data point");
  require(X_.allFinite() && y_.allFinite(), "posterior: data contain NaN or Inf");
  Eigen::MatrixXd k = kernel_.gram(X_);
  k.diagonal().array() += theta_.r * theta_.r;
  factor_.compute(k);
  if (factor_.info() != Eigen::Success) {
    throw NumericalError(fmt::format(
        "posterior: K + r²I (n = {}, r = {}) is not numerically positive definite", n(), theta_.r));
  }
  weights_ = factor_.solve(y_);
}

Eigen::VectorXd Posterior::mean(const Points& xs) const { return kernel_.cross(xs, X_) * weights_; }

Eigen::VectorXd Posterior::variance(const Points& xs) const {
  const Eigen::MatrixXd v = factor_.matrixL().solve(kernel_.cross(X_, xs));
  const Eigen::VectorXd prior = Eigen::VectorXd::Ones(xs.rows());  // k(x, x) = 1
  const Eigen::VectorXd kd = (prior - v.colwise().squaredNorm().transpose()).cwiseMax(0.0);
  return theta_.sigma * theta_.sigma * kd;
}

Eigen::MatrixXd Posterior::cross_covariance(const Points& a, const Points& b) const {
  const Eigen::MatrixXd va = factor_.matrixL().solve(kernel_.cross(X_, a));
  const Eigen::MatrixXd vb = factor_.matrixL().solve(kernel_.cross(X_, b));
  return theta_.sigma * theta_.sigma * (kernel_.cross(a, b) - va.transpose() * vb);
}

Eigen::MatrixXd Posterior::covariance(const Points& xs) const {
  const Eigen::MatrixXd v = factor_.matrixL().solve(kernel_.cross(X_, xs));
  Eigen::MatrixXd c = kernel_.gram(xs);
  c.noalias() -= v.transpose() * v;
  return theta_.sigma * theta_.sigma * c;
}

Eigen::VectorXd Posterior::excursion_probability(const Points& xs, double threshold) const {
  const Eigen::VectorXd mu = mean(xs);
  const Eigen::VectorXd var = variance(xs);
  Eigen::VectorXd p(xs.rows());
  for (Eigen::Index i = 0; i < xs.rows(); ++i) {
    if (var[i] <= 0.0) {
      p[i] = mu[i] >= threshold ? 1.0 : 0.0;
    } else {
      p[i] = 0.5 * std::erfc(-(mu[i] - threshold) / std::sqrt(2.0 * var[i]));
    }
  }
  return p;
}

double Posterior::effective_dimension() const {
  // tr(K (K + r²I)⁻¹) = n − r² tr((K + r²I)⁻¹), and tr(A⁻¹) = ‖L⁻¹‖_F².
  const Eigen::MatrixXd linv =
      factor_.matrixL().solve(Eigen::MatrixXd::Identity(n(), n()));
  return static_cast<double>(n()) - theta_.r * theta_.r * linv.squaredNorm();
}

}  // namespace gpdp
