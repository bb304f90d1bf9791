#include "gpdp/attack/lira.hpp"

#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <limits>

#include "gpdp/error.hpp"

namespace gpdp::attack {

namespace {
std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 33);
}
std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

// Stream roles (each an independent SeededRng::split stream of the seed).
enum Role : std::uint64_t { ShadowIn = 1, ShadowOut = 2, EvalIn = 3, EvalOut = 4 };

SeededRng dataset_stream(std::uint64_t seed, double r, Role role) {
  return SeededRng(seed).split(mix(mix(0x5eed, bits(r)), role));
}
SeededRng release_stream(std::uint64_t seed, double r, const ReleaseSetting& rel, Role role) {
  return SeededRng(seed).split(
      mix(mix(mix(mix(0x7e1ea5e, bits(r)), bits(rel.sigma)), static_cast<std::uint64_t>(rel.draws)),
          role));
}
}  // namespace

std::string ReleaseSetting::label() const {
  if (exact()) return "exact mu_D, k_D (non-private)";
  return std::isinf(sigma) ? fmt::format("sigma=inf L={}", draws)
                           : fmt::format("sigma={:g} L={}", sigma, draws);
}

Observables release_observables(const std::vector<TargetPosterior>& posteriors,
                                const ReleaseSetting& release, Rng& rng) {
  require(release.draws >= 0,
          fmt::format("attack: number of draws L must be ≥ 0, got {}", release.draws));
  require(release.sigma > 0, fmt::format("attack: σ must be positive, got {}", release.sigma));
  Observables obs;
  obs.f_hat.reserve(posteriors.size());
  const bool with_variance = release.draws != 1;
  if (with_variance) obs.log_v_hat.reserve(posteriors.size());
  if (release.exact()) {
    for (const auto& p : posteriors) {
      obs.f_hat.push_back(p.mean);
      obs.log_v_hat.push_back(std::log(std::max(p.kd, std::numeric_limits<double>::min())));
    }
    return obs;
  }
  const auto L = static_cast<std::size_t>(release.draws);
  std::vector<double> c(L);
  for (const auto& p : posteriors) {
    const double sd = std::sqrt(std::max(p.kd, 0.0));
    double mean_c = 0.0;
    for (std::size_t l = 0; l < L; ++l) {
      c[l] = sd * rng.standard_normal();  // (f⁽ˡ⁾ − μ_D(x₀)) / σ
      mean_c += c[l];
    }
    mean_c /= static_cast<double>(L);
    // f̂ = μ + σ·mean(c); in the covariance-only limit the attacker sees the centred draws / σ.
    obs.f_hat.push_back(std::isinf(release.sigma) ? mean_c : p.mean + release.sigma * mean_c);
    if (with_variance) {
      // v̂ = Σ(f⁽ˡ⁾ − f̂)² / (L σ²) = Σ(c_l − c̄)² / L (σ cancels exactly).
      double ss = 0.0;
      for (double v : c) ss += (v - mean_c) * (v - mean_c);
      obs.log_v_hat.push_back(
          std::log(std::max(ss / static_cast<double>(L), std::numeric_limits<double>::min())));
    }
  }
  return obs;
}

std::vector<double> AttackModel::scores(const Observables& obs) const {
  const LatentDensity rho_in(f_in), rho_out(f_out);
  std::vector<double> s(obs.f_hat.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    s[i] = rho_in.log_density(obs.f_hat[i]) - rho_out.log_density(obs.f_hat[i]);
    if (v_in && v_out && i < obs.log_v_hat.size()) {
      s[i] += v_in->log_density(obs.log_v_hat[i]) - v_out->log_density(obs.log_v_hat[i]);
    }
  }
  return s;
}

AttackModel fit_attack_model(const Observables& shadow_in, const Observables& shadow_out,
                             const LatentFitOptions& options) {
  AttackModel m;
  m.f_in = fit_latent_tanh_mixture(shadow_in.f_hat, options);
  m.f_out = fit_latent_tanh_mixture(shadow_out.f_hat, options);
  if (!shadow_in.log_v_hat.empty() && !shadow_out.log_v_hat.empty()) {
    m.v_in = fit_gaussian_mixture(shadow_in.log_v_hat);
    m.v_out = fit_gaussian_mixture(shadow_out.log_v_hat);
  }
  return m;
}

std::vector<SeedOutcome> run_lira(const LiraOptions& options, double r,
                                  const std::vector<ReleaseSetting>& releases, std::uint64_t seed) {
  options.shadow.validate();
  require_parameter(std::isfinite(r) && r > 0, "r",
                    fmt::format("attack: r must be positive, got {}", r));
  if (!(options.sizes.shadow >= 10 && options.sizes.eval >= 10))
    throw ParameterError({"shadow", "eval"},
                         "attack: shadow and eval must be at least 10 datasets per hypothesis");
  const ShadowSetting& sh = options.shadow;
  auto posteriors = [&](Hypothesis h, long count, Role role) {
    SeededRng rng = dataset_stream(seed, r, role);
    return shadow_posteriors(sh, h, r, count, rng);
  };
  const auto p_shadow_in = posteriors(Hypothesis::In, options.sizes.shadow, ShadowIn);
  const auto p_shadow_out = posteriors(Hypothesis::Out, options.sizes.shadow, ShadowOut);
  const auto p_eval_in = posteriors(Hypothesis::In, options.sizes.eval, EvalIn);
  const auto p_eval_out = posteriors(Hypothesis::Out, options.sizes.eval, EvalOut);

  std::vector<SeedOutcome> outcomes;
  for (const auto& rel : releases) {
    auto observe = [&](const std::vector<TargetPosterior>& p, Role role) {
      SeededRng rng = release_stream(seed, r, rel, role);
      return release_observables(p, rel, rng);
    };
    Observables s_in = observe(p_shadow_in, ShadowIn), s_out = observe(p_shadow_out, ShadowOut);
    const Observables e_in = observe(p_eval_in, EvalIn), e_out = observe(p_eval_out, EvalOut);
    SeedOutcome o;
    o.release = rel;
    o.model = fit_attack_model(s_in, s_out, options.fit);
    const auto score_e_in = o.model.scores(e_in), score_e_out = o.model.scores(e_out);
    o.metrics.auc = auc(score_e_in, score_e_out);
    for (std::size_t k = 0; k < 3; ++k)
      o.metrics.tpr[k] = tpr_at_fpr(score_e_in, score_e_out, kFprLevels[k]);
    o.metrics.epsilon = empirical_epsilon(o.model.scores(s_in), o.model.scores(s_out), score_e_in,
                                          score_e_out, options.delta);
    o.roc = thin_roc(roc_curve(score_e_in, score_e_out), options.roc_points);
    if (options.keep_observables) {
      o.shadow_in = std::move(s_in);
      o.shadow_out = std::move(s_out);
    }
    outcomes.push_back(std::move(o));
  }
  return outcomes;
}

}  // namespace gpdp::attack
