#include "gpdp/ops/model.hpp"

#include <cmath>
#include <limits>

namespace gpdp::ops {

Eigen::VectorXd BoundedLikelihoodModel::log_likelihood_gradient(
    const Eigen::VectorXd& theta) const {
  Eigen::VectorXd g;
  log_likelihood(theta, &g);
  return g;
}

double TruncatedGaussianPrior::log_density(const Eigen::VectorXd& theta) const {
  const double sq = theta.squaredNorm();
  if (sq > radius * radius) return -std::numeric_limits<double>::infinity();
  return -0.5 * sq / (sd * sd);
}

Eigen::VectorXd TruncatedGaussianPrior::gradient(const Eigen::VectorXd& theta) const {
  return -theta / (sd * sd);
}

Eigen::VectorXd project_to_ball(const Eigen::VectorXd& theta, double radius) {
  const double norm = theta.norm();
  if (norm <= radius) return theta;
  return theta * (radius / norm);
}

}  // namespace gpdp::ops
