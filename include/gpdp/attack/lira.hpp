#pragma once
// The LiRA-style membership-inference attack on released posterior sample paths (paper §4 and
// App. C). For one effective ridge r and one seed it draws the four independent sets of shadow
// datasets (shadow-in, shadow-out for fitting; eval-in, eval-out for evaluation), then for every
// requested release (σ, L) it
//   1. releases L exact draws of f_D(x₀) per dataset and forms f̂ = mean, v̂ = Σ(f − f̂)²/(Lσ²);
//   2. fits ρ_in, ρ_out for f̂ (latent tanh mixture) and for log v̂ (Gaussian mixture, L ≥ 2);
//   3. scores S = S_f + S_v on the evaluation sets and reports AUC, TPR@FPR, ROC, empirical ε.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/attack/gaussian_mixture.hpp"
#include "gpdp/attack/latent_tanh_mixture.hpp"
#include "gpdp/attack/roc.hpp"
#include "gpdp/attack/shadow.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::attack {

// What the attacker sees. sigma = +∞ is the covariance-only limit (the centred draw
// f_D − μ_D scaled by 1/σ, i.e. √k_D(x₀,x₀) Z); draws = 0 is the non-private benchmark that
// sees μ_D(x₀) and k_D(x₀, x₀) exactly (the L → ∞ reference of Figure 3).
struct ReleaseSetting {
  double sigma = 1.0;
  int draws = 1;
  bool exact() const { return draws == 0; }
  std::string label() const;  // "σ=5 L=3", "σ=∞ L=1", "exact μ_D, k_D"
};

struct Observables {
  std::vector<double> f_hat;      // f̂_D(x₀)
  std::vector<double> log_v_hat;  // log v̂_D(x₀); empty when L = 1
};

// Released statistics of L exact draws at the single point x₀: f⁽ˡ⁾ = μ_D(x₀) + σ √k_D(x₀,x₀) Z_l.
// On a one-point set this IS the exact sampler of docs/mathematics.md §3 (the posterior covariance
// is the 1 x 1 matrix σ² k_D(x₀, x₀)); it is used instead of gpdp::sample() because the attack
// makes millions of one-point releases (bench/bench_attack.cpp measures both).
Observables release_observables(const std::vector<TargetPosterior>& posteriors,
                                const ReleaseSetting& release, Rng& rng);

struct AttackModel {
  LatentTanhMixture f_in, f_out;
  std::optional<GaussianMixture2> v_in, v_out;  // set when L ≥ 2 or exact
  // S = S_f + S_v = [log ρ_in(f̂) − log ρ_out(f̂)] + [log ρ_in(log v̂) − log ρ_out(log v̂)].
  std::vector<double> scores(const Observables& obs) const;
};

AttackModel fit_attack_model(const Observables& shadow_in, const Observables& shadow_out,
                             const LatentFitOptions& options = {});

struct AttackMetrics {
  double auc = 0.5;
  std::array<double, 3> tpr{};  // at kFprLevels
  EmpiricalEpsilon epsilon;
};

struct SeedOutcome {
  ReleaseSetting release;
  AttackMetrics metrics;
  std::vector<RocPoint> roc;  // thinned evaluation ROC
  AttackModel model;
  // Kept only when asked (histograms): shadow observables under H_in and H_out.
  std::optional<Observables> shadow_in, shadow_out;
};

struct ExperimentSizes {
  long shadow = 10000;  // shadow datasets per hypothesis
  long eval = 10000;    // evaluation datasets per hypothesis
};

struct LiraOptions {
  ShadowSetting shadow;
  ExperimentSizes sizes;
  double delta = 0.05;  // for the empirical ε
  bool keep_observables = false;
  int roc_points = 200;
  LatentFitOptions fit;
};

// One seed, one r, every release (the shadow datasets are shared by the releases). The random
// streams are derived from (seed, r, σ, L) only, so a configuration gives the same result whether
// it runs alone (gpdp-lab attack) or inside a sweep, on any number of threads.
std::vector<SeedOutcome> run_lira(const LiraOptions& options, double r,
                                  const std::vector<ReleaseSetting>& releases, std::uint64_t seed);

}  // namespace gpdp::attack
