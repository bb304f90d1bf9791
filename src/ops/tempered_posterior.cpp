#include "gpdp/ops/tempered_posterior.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/ops/newton.hpp"

namespace gpdp::ops {

TemperedPosterior::TemperedPosterior(const BoundedLikelihoodModel& model, double rho,
                                     double prior_sd)
    : model_(model), rho_(rho), prior_{prior_sd, model.radius()} {
  require(rho > 0 && rho <= 1, fmt::format("tempered posterior: rho must be in (0, 1], got {}", rho));
  require(prior_sd > 0 && std::isfinite(prior_sd),
          fmt::format("tempered posterior: --prior-sd must be > 0, got {}", prior_sd));
}

double TemperedPosterior::log_density(const Eigen::VectorXd& theta, Eigen::VectorXd* grad) const {
  const double loglik = model_.log_likelihood(theta, grad);
  if (grad != nullptr) {
    *grad *= rho_;
    *grad += prior_.gradient(theta);
  }
  return rho_ * loglik + prior_.log_density(theta);
}

Eigen::VectorXd TemperedPosterior::gradient(const Eigen::VectorXd& theta) const {
  Eigen::VectorXd g = model_.log_likelihood_gradient(theta);
  g *= rho_;
  g += prior_.gradient(theta);
  return g;
}

Eigen::MatrixXd TemperedPosterior::precision(const Eigen::VectorXd& theta) const {
  Eigen::MatrixXd p = -rho_ * model_.log_likelihood_hessian(theta);
  p.diagonal().array() += 1.0 / (prior_.sd * prior_.sd);
  return p;
}

Eigen::VectorXd TemperedPosterior::projected_mode() const {
  const SmoothObjective negative_log = [this](const Eigen::VectorXd& x, Eigen::VectorXd* g,
                                              Eigen::MatrixXd* h) {
    const double v = rho_ * model_.log_likelihood(x, g) - 0.5 * x.squaredNorm() / (prior_.sd * prior_.sd);
    if (g != nullptr) *g = -(rho_ * *g - x / (prior_.sd * prior_.sd));
    if (h != nullptr) *h = precision(x);
    return -v;
  };
  const auto r = newton_minimize(negative_log, Eigen::VectorXd::Zero(dim()), 1e-8);
  return project_to_ball(r.x, radius());
}

}  // namespace gpdp::ops
