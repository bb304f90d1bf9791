#include "gpdp/ops/erm.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "newton.hpp"

namespace gpdp::ops {

Eigen::VectorXd regularised_logistic_erm(const LogisticModel& model, double lambda,
                                         const Eigen::VectorXd& b, double extra_ridge) {
  require_parameter(lambda >= 0 && extra_ridge >= 0 && lambda + extra_ridge > 0, "lambda",
                    fmt::format("logistic ERM: lambda must be > 0, got {}", lambda));
  const double n = static_cast<double>(model.size());
  const double ridge = lambda + extra_ridge;
  const bool has_b = b.size() > 0;
  require(!has_b || b.size() == model.dim(), "logistic ERM: noise vector has the wrong dimension");
  const SmoothObjective j = [&](const Eigen::VectorXd& f, Eigen::VectorXd* g, Eigen::MatrixXd* h) {
    double v = -model.log_likelihood(f, g) / n + 0.5 * ridge * f.squaredNorm();
    if (has_b) v += b.dot(f) / n;
    if (g != nullptr) {
      *g = -*g / n + ridge * f;
      if (has_b) *g += b / n;
    }
    if (h != nullptr) {
      *h = -model.log_likelihood_hessian(f) / n;
      h->diagonal().array() += ridge;
    }
    return v;
  };
  return newton_minimize(j, Eigen::VectorXd::Zero(model.dim()), 1e-10).x;
}

Eigen::VectorXd gamma_norm_noise(Rng& rng, Eigen::Index d, double scale) {
  double norm = 0.0;
  for (Eigen::Index k = 0; k < d; ++k) norm -= std::log(rng.uniform01());  // Gamma(d, 1)
  Eigen::VectorXd dir(d);
  rng.fill_standard_normal(dir.data(), static_cast<std::size_t>(d));
  return dir.normalized() * (norm * scale);
}

// CMS 2011 Algorithm 2.
PrivateEstimate objective_perturbation(const LogisticModel& model, double epsilon, double lambda,
                                       Rng& rng) {
  const double n = static_cast<double>(model.size());
  const ObjPertParameters p = objpert_parameters(epsilon, n, lambda, 0.25);
  const Eigen::VectorXd b = gamma_norm_noise(rng, model.dim(), 2.0 / p.epsilon_prime);
  PrivateEstimate e;
  e.theta = regularised_logistic_erm(model, lambda, b, p.extra_ridge);
  e.noise_norm = b.norm();
  e.guarantee = {epsilon, 0.0,
                 fmt::format("objective perturbation (Chaudhuri-Monteleoni-Sarwate 2011 Alg. 2), "
                             "Lambda={}, eps'={:.4g}, extra ridge={:.3g}",
                             lambda, p.epsilon_prime, p.extra_ridge)};
  return e;
}

// CMS 2011 Algorithm 1.
PrivateEstimate output_perturbation(const LogisticModel& model, double epsilon, double lambda,
                                    Rng& rng) {
  const double n = static_cast<double>(model.size());
  const Eigen::VectorXd b =
      gamma_norm_noise(rng, model.dim(), outpert_noise_scale(epsilon, n, lambda));
  PrivateEstimate e;
  e.theta = regularised_logistic_erm(model, lambda) + b;
  e.noise_norm = b.norm();
  e.guarantee = {epsilon, 0.0,
                 fmt::format("output perturbation (CMS 2011 Alg. 1), Lambda={}", lambda)};
  return e;
}

}  // namespace gpdp::ops
