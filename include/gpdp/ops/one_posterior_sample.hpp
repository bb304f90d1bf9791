#pragma once
// One Posterior Sample (OPS; Wang, Fienberg & Smola 2015, Theorem 1 and docs/ops-derivations.md
// §2): release one draw of the tempered posterior π(θ)∏p(x_i|θ)^ρ, ρ = min(1, ε/ε_base), ε_base =
// 4B (or 4LR, 2Δ).
//
// The ε reported is NOMINAL: it holds for an exact draw. The draw comes from HMC (hmc.hpp); an
// approximate sampler within total-variation distance TV of the exact posterior (uniformly over
// data sets) is (ε, (1 + e^ε)·TV)-DP (docs/ops-derivations.md §2.6). MCMC diagnostics (R̂, ESS)
// support, but do not certify, a small TV.
#include <Eigen/Core>

#include "gpdp/ops/calibration.hpp"
#include "gpdp/ops/hmc.hpp"
#include "gpdp/ops/model.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::ops {

struct OpsOptions {
  OpsCalibration calibration = OpsCalibration::four_b;
  double prior_sd = 1.0;
  HmcOptions hmc;
};

struct OpsRelease {
  Eigen::VectorXd theta;  // final state of chain 1: the released draw
  double rho = 1.0;       // likelihood temperature
  double base_epsilon = 0.0;
  Guarantee guarantee;  // nominal (ε, 0)
  ChainDiagnostics diagnostics;
  double accept_rate = 0.0;  // mean over chains
};

OpsRelease one_posterior_sample(const BoundedLikelihoodModel& model, double epsilon,
                                const OpsOptions& options, Rng& rng);

}  // namespace gpdp::ops
