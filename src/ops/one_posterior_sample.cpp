#include "gpdp/ops/one_posterior_sample.hpp"

#include <fmt/format.h>

#include <numeric>

#include "gpdp/ops/tempered_posterior.hpp"

namespace gpdp::ops {

// Theorem 1 [S] with tempering (docs/ops-derivations.md §2.4): a draw from π·∏p^ρ is ρ·ε_base =
// ε-DP.
OpsRelease one_posterior_sample(const BoundedLikelihoodModel& model, double epsilon,
                                const OpsOptions& options, Rng& rng) {
  OpsRelease r;
  r.base_epsilon =
      ops_base_epsilon(options.calibration, model.log_likelihood_bound(), model.gradient_bound(),
                       model.radius(), model.log_likelihood_sensitivity());
  r.rho = ops_temperature(epsilon, r.base_epsilon);
  const TemperedPosterior target(model, r.rho, options.prior_sd);
  const HmcRun run = hmc_sample(target, options.hmc, rng);
  r.theta = run.final_state.front();
  r.diagnostics = run.diagnostics;
  r.accept_rate = std::accumulate(run.accept_rate.begin(), run.accept_rate.end(), 0.0) /
                  static_cast<double>(run.accept_rate.size());
  r.guarantee = {std::min(epsilon, r.base_epsilon), 0.0,
                 fmt::format("OPS, calibration {} (eps_base={:.4g}, rho={:.4g}); nominal for an "
                             "exact posterior draw: an approximate sampler at TV distance t adds "
                             "delta=(1+e^eps)*t",
                             to_string(options.calibration), r.base_epsilon, r.rho)};
  return r;
}

}  // namespace gpdp::ops
