#pragma once
// Rényi-DP curves α ↦ ε_α (docs/mathematics.md §2, paper Theorem 3.1, Proposition 2, Lemma A.3).
// An RdpCurve is a privacy map for ONE release: it knows its open admissible range (1, α_max) and
// returns +∞ outside it. Accountants compose curves (accountant.hpp); curves never know about δ.
#include <functional>
#include <string>

namespace gpdp::privacy {

// Lemma A.3: for τ ≥ 0 and 1 < α < 1 + 1/τ,
//   ψ_α(τ) = max{ ½ log(1+τ) − 1/(2(α−1)) log((1+ατ)/(1+τ)),
//                −½ log(1+τ) − 1/(2(α−1)) log(1 − τ(α−1)) }
// (= max of ϕ_α(λ) = −½ log λ − log(α − (α−1)λ)/(2(α−1)) over λ ∈ [1/(1+τ), 1+τ], which contains
// λ = 1 where ϕ_α = 0, so ψ_α ≥ 0 and the max with 0 only removes rounding). +∞ outside the range.
double psi_alpha(double alpha, double tau);

// Proposition 2: τ̃_n(r, η) = σ² V_n / (σ² r² + η² (V_n + r²)); η = 0 gives V_n/r² (Theorem 3.1),
// σ = +∞ gives V_n/r² as well (the covariance-only limit).
double noisy_tau(double Vn, double r, double sigma, double eta);

// The open upper end of the admissible orders: 1 + 1/τ̃ (+∞ when τ̃ = 0).
double gp_alpha_max(double Vn, double r, double sigma, double eta);

// Proposition 2 (Theorem 3.1 when η = 0), one posterior draw, for 1 < α < 1 + 1/τ̃:
//   ε_α ≤ 2 ψ_α(τ̃) + α (V_n + r²) Δ_n² / (2 [σ² (r² − (α−1) V_n) + η² (V_n + r²)])
// σ = +∞ is allowed (covariance-only bound 2ψ_α(V_n/r²)). Returns +∞ outside (1, α_max).
// Assumptions: replace-one neighbours of size n, V_n and Δ_n valid upper bounds (bounds.hpp).
double gp_rdp(double alpha, double Vn, double Delta_n, double r, double sigma, double eta);

// The functional Gaussian mechanism μ_D + s·g, g ~ GP(0, k) (Hall, Rinaldo & Wasserman 2013), for
// every α > 1:  ε_α ≤ α Δ_n² / (2 s²),  Δ_n ≥ sup_{D~D'} ‖μ_D − μ_D'‖_{H_k}. Every proven bound on
// the paper's common-core sensitivity Δ_n (bounds.hpp) qualifies, because ‖·‖_{H_k} ≤ ‖·‖_{H_−}
// (docs/privacy.md, "The functional mechanism", gives the derivation). s > 0 finite.
double functional_rdp(double alpha, double Delta_n, double noise_scale);

// The Gaussian mechanism v(D) + N(0, s² I) with sup_{D~D'} ‖v(D) − v(D')‖₂ ≤ Δ (Mironov 2017,
// Prop. 7): ε_α = α Δ² / (2 s²) for every α > 1, attained by a pair at distance Δ. s > 0 finite.
double gaussian_rdp(double alpha, double sensitivity, double noise_scale);

// The grid mean (docs/privacy.md "The grid mean"): per-cell sums of responses clipped to ±M_Y with
// Gaussian noise s_S and per-cell counts with noise s_N, replace-one neighbours, n public. A record
// moving within a cell changes one sum by ≤ 2M_Y; between cells two sums by ≤ M_Y and two counts by
// 1. Exact for every α > 1:  ε_α = (α/2) · max(4M_Y²/s_S², 2M_Y²/s_S² + 2/s_N²).
double grid_mean_rdp(double alpha, double M_Y, double sum_noise, double count_noise);
// The whitened sensitivity of the grid mean: √max(4M_Y²/s_S², 2M_Y²/s_S² + 2/s_N²) (so that
// grid_mean_rdp = gaussian_rdp(α, this, 1)).
double grid_mean_sensitivity(double M_Y, double sum_noise, double count_noise);

class RdpCurve {
 public:
  // epsilon(α) must be ≥ 0 on (1, alpha_max); alpha_max may be +∞.
  RdpCurve(std::function<double(double)> epsilon, double alpha_max, std::string description);

  // ε_α; +∞ outside the open range (1, α_max). Throws NumericalError on NaN or a negative value
  // (an RDP curve is never negative; such a value is a bug, never mapped to ε = 0).
  double operator()(double alpha) const;
  double alpha_max() const { return alpha_max_; }
  // Where the curve comes from (theorem, parameters), for reports.
  const std::string& description() const { return description_; }

 private:
  std::function<double(double)> epsilon_;
  double alpha_max_;
  std::string description_;
};

}  // namespace gpdp::privacy
