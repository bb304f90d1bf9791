#include "gpdp/ops/dpsgld.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numeric>

#include "gpdp/error.hpp"

namespace gpdp::ops {

namespace {

// Uniform integer in [0, m) by rejection (no modulo bias).
std::uint64_t uniform_below(Rng& rng, std::uint64_t m) {
  const std::uint64_t limit =
      std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % m;
  std::uint64_t v = rng.next_u64();
  while (v >= limit) v = rng.next_u64();
  return v % m;
}

Eigen::Index default_tau(Eigen::Index n) {
  return std::max<Eigen::Index>(
      1, static_cast<Eigen::Index>(std::floor(std::sqrt(static_cast<double>(n)))));
}

SgldRun run_chain(const BoundedLikelihoodModel& model, const Eigen::VectorXd& init,
                  const SgldOptions& o, long iterations, double alpha, Rng& rng) {
  const Eigen::Index tau = o.tau > 0 ? o.tau : default_tau(model.size());
  require(tau <= model.size(),
          fmt::format("sgld: minibatch size tau={} exceeds N={}", tau, model.size()));
  require(iterations >= 1, "sgld: need at least one iteration");
  require(init.size() == model.dim(), "sgld: initial state has the wrong dimension");
  const double n = static_cast<double>(model.size());
  std::vector<Eigen::Index> scratch(static_cast<std::size_t>(model.size()));
  std::iota(scratch.begin(), scratch.end(), Eigen::Index{0});
  SgldRun r;
  Eigen::VectorXd theta = init;
  Eigen::VectorXd sum = Eigen::VectorXd::Zero(model.dim());
  const long average_start =
      static_cast<long>(std::floor(o.average_from * static_cast<double>(iterations)));
  long averaged = 0;
  for (long t = 0; t < iterations; ++t) {
    const double eta = o.steps(t);
    const double variance =
        alpha > 0 ? dpsgld_noise_variance(eta, n, alpha, static_cast<double>(tau)) : eta;
    if (variance > eta) ++r.extra_noise_steps;
    sgld_step(model, o.prior_sd, tau, eta, variance, theta, scratch, rng);
    if (o.project) theta = project_to_ball(theta, model.radius());
    if (t >= average_start) {
      sum += theta;
      ++averaged;
    }
  }
  r.last = theta;
  r.average = sum / static_cast<double>(std::max(averaged, 1L));
  r.iterations = iterations;
  return r;
}

}  // namespace

double StepSchedule::operator()(long t) const {
  return eta0 / std::pow(1.0 + static_cast<double>(t) / t0, gamma);
}

// Welling & Teh (2011) update; docs/ops-derivations.md §3.1.
void sgld_step(const BoundedLikelihoodModel& model, double prior_sd, Eigen::Index tau, double eta,
               double noise_variance, Eigen::VectorXd& theta, std::vector<Eigen::Index>& scratch,
               Rng& rng) {
  const auto n = static_cast<Eigen::Index>(scratch.size());
  for (Eigen::Index k = 0; k < tau; ++k) {  // partial Fisher–Yates: uniform subset of size τ
    const auto j =
        k + static_cast<Eigen::Index>(uniform_below(rng, static_cast<std::uint64_t>(n - k)));
    std::swap(scratch[static_cast<std::size_t>(k)], scratch[static_cast<std::size_t>(j)]);
  }
  const std::span<const Eigen::Index> batch(scratch.data(), static_cast<std::size_t>(tau));
  const Eigen::VectorXd data_grad = model.batch_gradient(theta, batch);
  const Eigen::VectorXd prior_grad = -theta / (prior_sd * prior_sd);
  Eigen::VectorXd z(theta.size());
  rng.fill_standard_normal(z.data(), static_cast<std::size_t>(z.size()));
  theta +=
      0.5 * eta * (prior_grad + (static_cast<double>(n) / static_cast<double>(tau)) * data_grad) +
      std::sqrt(noise_variance) * z;
}

SgldRun sgld(const BoundedLikelihoodModel& model, const Eigen::VectorXd& init,
             const SgldOptions& options, Rng& rng) {
  return run_chain(model, init, options, options.iterations, 0.0, rng);
}

// Algorithm 2 (docs/ops-derivations.md §3.2).
DpSgldRelease dp_sgld(const BoundedLikelihoodModel& model, double epsilon,
                      const Eigen::VectorXd& init, const DpSgldOptions& options, Rng& rng) {
  DpSgldRelease r;
  const double n = static_cast<double>(model.size());
  r.tau = options.sgld.tau > 0 ? options.sgld.tau : default_tau(model.size());
  const double tau = static_cast<double>(r.tau);
  const double t_min = dpsgld_min_passes(epsilon, n, tau, options.delta);
  r.passes = options.passes > 0 ? options.passes : std::max(std::ceil(t_min), options.min_passes);
  if (r.passes < t_min) {
    throw PrivacyError(
        fmt::format("dp-sgld: {} data passes violate T >= eps^2 N/(32 tau log(2/delta)) = {:.4g}",
                    r.passes, t_min));
  }
  r.alpha =
      dpsgld_alpha(model.gradient_bound(), r.passes, epsilon, options.delta, options.constant);
  r.free_stepsize = dpsgld_free_stepsize(n, r.alpha, tau);
  const long iterations = static_cast<long>(std::ceil(n * r.passes / tau));
  SgldOptions o = options.sgld;
  o.tau = r.tau;
  if (!(o.steps.eta0 > 0))
    o.steps = {options.step_scale / n, std::max(1.0, static_cast<double>(iterations) / 10.0), 1.0};
  r.run = run_chain(model, init, o, iterations, r.alpha, rng);
  r.guarantee = {
      epsilon, options.delta,
      fmt::format("DP-SGLD (Algorithm 2): T={} passes, tau={}, alpha={:.4g} (constant {}), "
                  "all {} iterates released",
                  r.passes, r.tau, r.alpha, options.constant, iterations)};
  return r;
}

// Spec §3.8: OPS initialisation (ε₁) then DP-SGLD (ε₂, δ); (ε₁ + ε₂, δ) by composition.
DpSgldRelease hybrid_ops_dpsgld(const BoundedLikelihoodModel& model, double epsilon, double split,
                                const OpsOptions& ops, const DpSgldOptions& options, Rng& rng) {
  require_parameter(split > 0 && split < 1, "hybrid_split",
                    fmt::format("hybrid: hybrid_split must be in (0, 1), got {}", split));
  const OpsRelease init = one_posterior_sample(model, epsilon * split, ops, rng);
  DpSgldRelease r = dp_sgld(model, epsilon * (1.0 - split), init.theta, options, rng);
  r.guarantee = {init.guarantee.epsilon + r.guarantee.epsilon, r.guarantee.delta,
                 fmt::format("hybrid: [{}] + [{}]", init.guarantee.basis, r.guarantee.basis)};
  return r;
}

}  // namespace gpdp::ops
