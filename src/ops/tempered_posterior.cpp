#include "gpdp/ops/tempered_posterior.hpp"

#include <fmt/format.h>

#include <Eigen/Cholesky>
#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "newton.hpp"

namespace gpdp::ops {

TemperedPosterior::TemperedPosterior(const BoundedLikelihoodModel& model, double rho,
                                     double prior_sd)
    : model_(model), rho_(rho), prior_{prior_sd, model.radius()} {
  require(rho > 0 && rho <= 1,
          fmt::format("tempered posterior: rho must be in (0, 1], got {}", rho));
  require_parameter(prior_sd > 0 && std::isfinite(prior_sd), "prior_sd",
                    fmt::format("tempered posterior: prior_sd must be > 0, got {}", prior_sd));
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

TemperedPosterior::Mode TemperedPosterior::constrained_mode() const {
  const double r = radius();
  const double inv_var = 1.0 / (prior_.sd * prior_.sd);
  // θ(μ) = argmin −ρΣℓ + (1/sd² + μ)‖θ‖²/2, warm-started from x.
  auto solve = [&](double mu, const Eigen::VectorXd& x) {
    const SmoothObjective f = [&](const Eigen::VectorXd& th, Eigen::VectorXd* g,
                                  Eigen::MatrixXd* h) {
      const double v =
          rho_ * model_.log_likelihood(th, g) - 0.5 * (inv_var + mu) * th.squaredNorm();
      if (g != nullptr) *g = -(rho_ * *g - (inv_var + mu) * th);
      if (h != nullptr) {
        *h = precision(th);
        h->diagonal().array() += mu;
      }
      return -v;
    };
    return newton_minimize(f, x, 1e-8).x;
  };
  Mode m;
  m.theta = solve(0.0, Eigen::VectorXd::Zero(dim()));
  if (m.theta.norm() <= r) return m;
  // ‖θ(μ)‖ decreases in μ. Bracket [lo, hi] with ‖θ(lo)‖ > R ≥ ‖θ(hi)‖, then Newton steps on
  // φ(μ) = 1/‖θ(μ)‖ − 1/R (φ′ = θᵀ(A + μI)⁻¹θ / ‖θ‖³), bisecting when a step leaves the bracket.
  double lo = 0.0, hi = 1.0, mu = 1.0;
  Eigen::VectorXd th = m.theta;
  for (int k = 0; k < 200; ++k) {
    th = solve(mu, th);
    const double norm = th.norm();
    if (std::abs(norm - r) <= 1e-6 * r) break;
    if (norm > r) {
      lo = mu;
    } else {
      hi = mu;
    }
    if (lo >= hi) {  // no upper bracket yet: grow
      hi = 2.0 * std::max(mu, 1.0);
      mu = hi;
      continue;
    }
    Eigen::MatrixXd a = precision(th);
    a.diagonal().array() += mu;
    const Eigen::LDLT<Eigen::MatrixXd> ldlt(a);
    const double dphi = th.dot(ldlt.solve(th)) / (norm * norm * norm);
    double next = mu - (1.0 / norm - 1.0 / r) / dphi;
    if (!(next > lo && next < hi) || !std::isfinite(next)) next = 0.5 * (lo + hi);
    mu = next;
  }
  m.theta = project_to_ball(th, r);
  if (m.theta.norm() < r) m.theta *= r / m.theta.norm();
  m.multiplier = mu;
  Eigen::VectorXd g;
  log_density(m.theta, &g);
  m.boundary_slope = std::max(0.0, g.dot(m.theta) / r);
  return m;
}

Eigen::VectorXd TemperedPosterior::projected_mode() const {
  const SmoothObjective negative_log = [this](const Eigen::VectorXd& x, Eigen::VectorXd* g,
                                              Eigen::MatrixXd* h) {
    const double v =
        rho_ * model_.log_likelihood(x, g) - 0.5 * x.squaredNorm() / (prior_.sd * prior_.sd);
    if (g != nullptr) *g = -(rho_ * *g - x / (prior_.sd * prior_.sd));
    if (h != nullptr) *h = precision(x);
    return -v;
  };
  const auto r = newton_minimize(negative_log, Eigen::VectorXd::Zero(dim()), 1e-8);
  return project_to_ball(r.x, radius());
}

}  // namespace gpdp::ops
