#pragma once
// Stochastic gradient Langevin dynamics (Welling & Teh 2011) and its differentially private form,
// Algorithm 2 of Wang, Fienberg & Smola (2015) as reconstructed in docs/ops-derivations.md §3.2:
//   θ_{t+1} = θ_t + (η_t/2)(∇log π(θ_t) + (N/τ)Σ_{i∈S_t}∇log p(x_i|θ_t)) + z_t,
//   z_t ~ N(0, max{η_t, Nαη_t²/τ}·I),  α = 128 L² T log(2.5T/δ) log(2/δ)/ε²,
// with T ≥ ε²N/(32τ log(2/δ)) data passes, K = ⌈NT/τ⌉ steps, data-independent θ_1. Every iterate
// is (ε, δ)-DP jointly, so any function of the sequence (the iterate average) is free.
//
// Optional projection onto the ball ‖θ‖ ≤ R after each step: post-processing of the released
// iterate, used as the next state (adaptive composition conditions on released values).
#include <Eigen/Core>
#include <functional>

#include "gpdp/ops/calibration.hpp"
#include "gpdp/ops/model.hpp"
#include "gpdp/ops/one_posterior_sample.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::ops {

// η_t = eta0 / (1 + t/t0)^gamma, t = 0, 1, ...
struct StepSchedule {
  double eta0 = 0.0;
  double t0 = 1.0;
  double gamma = 0.0;
  double operator()(long t) const;
};

struct SgldOptions {
  Eigen::Index tau = 0;  // minibatch size (0: ⌊√N⌋)
  long iterations = 0;   // plain SGLD only
  StepSchedule steps;
  double prior_sd = 1.0;      // Gaussian prior N(0, sd² I) (its gradient; data-free)
  bool project = true;        // project onto the model's ball after each step
  double average_from = 0.5;  // iterate average over the last (1 − average_from) of the run
};

struct SgldRun {
  Eigen::VectorXd last;
  Eigen::VectorXd average;
  long iterations = 0;
  long extra_noise_steps = 0;  // steps where Nαη²/τ > η (privacy noise above Langevin noise)
};

// One SGLD step with the given injected-noise variance. Randomness is consumed in a fixed order:
// τ minibatch indices (partial Fisher–Yates), then d normals.
void sgld_step(const BoundedLikelihoodModel& model, double prior_sd, Eigen::Index tau, double eta,
               double noise_variance, Eigen::VectorXd& theta, std::vector<Eigen::Index>& scratch,
               Rng& rng);

// Plain SGLD (noise variance η_t).
SgldRun sgld(const BoundedLikelihoodModel& model, const Eigen::VectorXd& init,
             const SgldOptions& options, Rng& rng);

struct DpSgldOptions {
  SgldOptions sgld;  // .iterations is derived from the passes
  double delta = 1e-5;
  double passes = 0.0;  // T (0: max(ceil(T_min), min_passes))
  double min_passes = 1.0;
  double constant = 128.0;  // α's constant ([C] 128; [D] 64 suffices)
  // Step size η_0 = step_scale / N unless sgld.steps.eta0 > 0; t0 = K/10; gamma = 1.
  double step_scale = 1.0;
};

struct DpSgldRelease {
  SgldRun run;
  Guarantee guarantee;
  double alpha = 0.0;
  double passes = 0.0;
  Eigen::Index tau = 0;
  double free_stepsize = 0.0;  // τ/(Nα)
};

// Algorithm 2. Throws PrivacyError if the chosen passes violate T ≥ ε²N/(32τ log(2/δ)).
DpSgldRelease dp_sgld(const BoundedLikelihoodModel& model, double epsilon,
                      const Eigen::VectorXd& init, const DpSgldOptions& options, Rng& rng);

// Hybrid (docs/ops-derivations.md §3.8): θ_1 by OPS with ε·split, then DP-SGLD with (ε·(1 − split),
// δ): (ε, δ)-DP by adaptive composition (nominal, as OPS's part is).
DpSgldRelease hybrid_ops_dpsgld(const BoundedLikelihoodModel& model, double epsilon, double split,
                                const OpsOptions& ops, const DpSgldOptions& options, Rng& rng);

}  // namespace gpdp::ops
