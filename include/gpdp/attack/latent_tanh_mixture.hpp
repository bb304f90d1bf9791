#pragma once
// The attack's density model for the sample-path mean f̂_D(x₀) (paper App. C):
//   f̂ = tanh(φ/2) + η,   φ ~ Σ_j ω_j N(m_j, τ_j²) (two components),   η ~ N(0, s²),
// motivated by μ_D(x₀) ∈ [−1, 1] (the tanh part) plus the sampling noise σ √k_D(x₀,x₀) Z (η).
// The density ρ(t) = Σ_j ω_j ∫ N(t; tanh(φ/2), s²) N(φ; m_j, τ_j²) dφ is computed per component
// by Gauss–Hermite quadrature over φ when the noise s is at least the spread of tanh(φ/2) under
// that component (the integrand is then smooth in φ). When s is narrower, Gauss–Hermite would need
// O((spread/s)²) nodes, so the integral over φ uses the trapezoid rule on nodes spaced 1.5 s
// (exponentially accurate for this smooth integrand; tested against adaptive quadrature).
#include <array>
#include <vector>

namespace gpdp::attack {

struct LatentTanhMixture {
  std::array<double, 2> weight{0.5, 0.5};
  std::array<double, 2> m{0.0, 0.0};
  std::array<double, 2> tau{1.0, 1.0};
  double s = 1.0;
  int nodes = 48;  // Gauss–Hermite points per component

  // One-off evaluations; use LatentDensity to evaluate one model at many points.
  double density(double t) const;
  double log_density(double t) const;
};

// A model prepared for evaluation at many points (the narrow-noise tables are built once).
class LatentDensity {
 public:
  explicit LatentDensity(const LatentTanhMixture& model);
  double density(double t) const;
  // Finite even where density() underflows (far tails, Gauss–Hermite over φ in log space).
  double log_density(double t) const;

 private:
  LatentTanhMixture model_;
  // Per component: quadrature nodes u_k = tanh(φ_k/2) (increasing) and weights.
  std::array<std::vector<double>, 2> node_u_, node_w_;
};

struct LatentFitOptions {
  int nodes = 48;             // Gauss–Hermite points per component
  int bins = 128;             // the sample is rounded to this many equal bins over its range
  int max_evaluations = 600;  // for the best start's final run (others get 150)
  double s_min = 0.0;         // lower bound on s; 0 = one bin width
};

// Maximum likelihood over (ω, m, τ, s) by NLopt's BOBYQA: four deterministic starts get a short
// run each and the best is run to convergence, within
// box bounds (|logit ω| ≤ 7, |m| ≤ 14, τ ∈ [0.02, 8], s ∈ [s_min, 2 sd + 1]). The sample is
// rounded to `bins` bins before fitting: each log-density term changes by O((h/s)²), h = bin width,
// and the cost no longer grows with the sample size. Needs at least 10 finite values.
LatentTanhMixture fit_latent_tanh_mixture(const std::vector<double>& sample,
                                          const LatentFitOptions& options = {});

// Weighted mean log-likelihood Σ c_b log ρ(t_b) / Σ c_b (exposed for tests of the optimiser).
double latent_mean_log_likelihood(const LatentTanhMixture& model, const std::vector<double>& values,
                                  const std::vector<double>& counts);

}  // namespace gpdp::attack
