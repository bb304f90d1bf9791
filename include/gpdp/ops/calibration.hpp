#pragma once
// Privacy maps of the "Privacy for Free" mechanisms (docs/mathematics.md §6,
// docs/ops-derivations.md). Each maps a mechanism description to its (ε, δ); tags [S]/[C]/[D]/[V]
// as in docs/ops-derivations.md.
#include <string>

namespace gpdp::ops {

// What a release may claim. `basis` says which theorem/assumption the numbers rest on.
struct Guarantee {
  double epsilon = 0.0;
  double delta = 0.0;
  std::string basis;
};

// ---- One Posterior Sample ------------------------------------------------------------------
// How ε of an exact (ρ = 1) posterior draw is computed.
enum class OpsCalibration {
  four_b,     // Theorem 1 [S]: 4B with B = sup|ℓ| (paper's default)
  four_lr,    // Lipschitz variant [S/D]: 4LR (L = gradient bound, R = ball radius)
  two_delta,  // exponential mechanism with the tight sensitivity Δ [D] (ours, not the paper's)
};
OpsCalibration parse_ops_calibration(const std::string& name);  // "4B" | "4LR" | "2Delta"
std::string to_string(OpsCalibration c);

// ε of one exact draw from the untempered posterior (docs/ops-derivations.md §2.2–2.3, §2.7).
double ops_base_epsilon(OpsCalibration c, double bound_b, double lipschitz_l, double radius,
                        double sensitivity);
// Spec §2.4 [S/C]: ρ = min(1, ε / ε_base) so that a draw from π·∏p^ρ is ε-DP.
double ops_temperature(double epsilon, double base_epsilon);
// Spec §2.6 [D]: a sampler within TV distance tv of the ε-DP exact posterior (for every data set)
// is (ε, (1 + e^ε)·tv)-DP.
double approximate_sampler_delta(double epsilon, double tv);
// Spec §2.4 [S]: asymptotic relative efficiency 1 + ε_base/ε of the tempered draw (2 when ρ = 1).
double ops_relative_efficiency(double epsilon, double base_epsilon);

// ---- DP-SGLD (Algorithm 2, docs/ops-derivations.md §3.2–3.3)
// ------------------------------------------------- α = constant·L²·T·log(2.5T/δ)·log(2/δ)/ε² ([C]
// constant 128; [D] 64 suffices).
double dpsgld_alpha(double lipschitz_l, double passes, double epsilon, double delta,
                    double constant = 128.0);
// Smallest number of data passes T with T ≥ ε²N/(32 τ log(2/δ)) [C/D/S].
double dpsgld_min_passes(double epsilon, double n, double tau, double delta);
// Injected noise variance max{η, Nαη²/τ}.
double dpsgld_noise_variance(double eta, double n, double alpha, double tau);
// Largest step with no extra noise ("privacy for free"): η ≤ τ/(Nα).
double dpsgld_free_stepsize(double n, double alpha, double tau);
// Spec §3.3 [D]: ε actually achieved by Algorithm 2 with the given constant, recomputed from the
// Gaussian mechanism (ε₀ for δ₀ = δ/(2T)), subsampling (2qε₀, q = τ/N) and advanced composition
// over K = NT/τ steps with δ' = δ/2. Returns +∞ if ε₀ > 1 (the amplification lemma needs ε₀ ≤ 1).
double dpsgld_accounted_epsilon(double n, double tau, double passes, double epsilon, double delta,
                                double lipschitz_l, double constant);
// Advanced composition [V] (Dwork, Rothblum & Vadhan 2010): k-fold ε₁-DP is
// (√(2k ln(1/δ'))ε₁ + kε₁(e^{ε₁} − 1), δ')-DP on top of the summed δ's.
double advanced_composition_epsilon(double k, double epsilon_step, double delta_prime);

// ---- Objective / output perturbation (Chaudhuri, Monteleoni & Sarwate 2011) [V] --------------
struct ObjPertParameters {
  double epsilon_prime = 0.0;  // ε' of the noise density ∝ exp(−(ε'/2)‖b‖)
  double extra_ridge = 0.0;    // Δ added to the regulariser
};
// Algorithm 2 steps 1–2: ε' = ε − log(1 + 2c/(nΛ) + c²/(n²Λ²)); if ε' ≤ 0, Δ = c/(n(e^{ε/4}−1)) − Λ
// and ε' = ε/2. c bounds |ℓ''| (1/4 for the logistic loss).
ObjPertParameters objpert_parameters(double epsilon, double n, double lambda, double c = 0.25);
// Algorithm 1: ‖b‖ ~ Gamma(d, scale) with scale = 2/(nΛε) for a 1-Lipschitz loss.
double outpert_noise_scale(double epsilon, double n, double lambda);

}  // namespace gpdp::ops
