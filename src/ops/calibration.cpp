#include "gpdp/ops/calibration.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpdp/error.hpp"

namespace gpdp::ops {

namespace {
void require_positive(double v, const char* what) {
  require(std::isfinite(v) && v > 0, fmt::format("{} must be a positive number, got {}", what, v));
}
void require_delta(double delta) {
  require(std::isfinite(delta) && delta > 0 && delta < 1,
          fmt::format("delta must lie in (0, 1), got {}", delta));
}
}  // namespace

OpsCalibration parse_ops_calibration(const std::string& name) {
  if (name == "4B") return OpsCalibration::four_b;
  if (name == "4LR") return OpsCalibration::four_lr;
  if (name == "2Delta") return OpsCalibration::two_delta;
  throw ParameterError({"calibration"},
                       fmt::format("calibration must be 4B, 4LR or 2Delta, got '{}'", name));
}

std::string to_string(OpsCalibration c) {
  switch (c) {
    case OpsCalibration::four_b:
      return "4B";
    case OpsCalibration::four_lr:
      return "4LR";
    case OpsCalibration::two_delta:
      return "2Delta";
  }
  return "?";
}

// Theorem 1 (4B), the Lipschitz variant (4LR) and the exponential mechanism (2Δ),
// docs/ops-derivations.md §2.2–2.3.
double ops_base_epsilon(OpsCalibration c, double bound_b, double lipschitz_l, double radius,
                        double sensitivity) {
  switch (c) {
    case OpsCalibration::four_b:
      return 4.0 * bound_b;
    case OpsCalibration::four_lr:
      return 4.0 * lipschitz_l * radius;
    case OpsCalibration::two_delta:
      return 2.0 * sensitivity;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

// Spec §2.4: ρ = min(1, ε/(4B)).
double ops_temperature(double epsilon, double base_epsilon) {
  require_positive(epsilon, "epsilon");
  require_positive(base_epsilon, "OPS base epsilon");
  return std::min(1.0, epsilon / base_epsilon);
}

// Spec §2.6: P̂_X(S) ≤ e^ε P̂_X'(S) + (1 + e^ε)·TV.
double approximate_sampler_delta(double epsilon, double tv) {
  require(tv >= 0 && tv <= 1,
          fmt::format("total-variation distance must be in [0, 1], got {}", tv));
  return (1.0 + std::exp(epsilon)) * tv;
}

// Spec §2.4 [S]: ARE 1 + 4B/ε when tempered, 2 when ρ = 1.
double ops_relative_efficiency(double epsilon, double base_epsilon) {
  return 1.0 + base_epsilon / std::min(epsilon, base_epsilon);
}

// Algorithm 2 (docs/ops-derivations.md §3.2): α = 128 L² T log(2.5T/δ) log(2/δ)/ε².
double dpsgld_alpha(double lipschitz_l, double passes, double epsilon, double delta,
                    double constant) {
  require_positive(lipschitz_l, "Lipschitz constant L");
  require_positive(passes, "number of data passes T");
  require_positive(epsilon, "epsilon");
  require_delta(delta);
  return constant * lipschitz_l * lipschitz_l * passes * std::log(2.5 * passes / delta) *
         std::log(2.0 / delta) / (epsilon * epsilon);
}

// Spec §3.2–3.3: ε₀ ≤ 1 ⇔ T ≥ ε²N/(32τ log(2/δ)).
double dpsgld_min_passes(double epsilon, double n, double tau, double delta) {
  require_positive(epsilon, "epsilon");
  require_positive(n, "N");
  require_positive(tau, "minibatch size tau");
  require_delta(delta);
  return epsilon * epsilon * n / (32.0 * tau * std::log(2.0 / delta));
}

double dpsgld_noise_variance(double eta, double n, double alpha, double tau) {
  return std::max(eta, n * alpha * eta * eta / tau);
}

double dpsgld_free_stepsize(double n, double alpha, double tau) { return tau / (n * alpha); }

double advanced_composition_epsilon(double k, double epsilon_step, double delta_prime) {
  return std::sqrt(2.0 * k * std::log(1.0 / delta_prime)) * epsilon_step +
         k * epsilon_step * std::expm1(epsilon_step);
}

// Spec §3.3 derivation, run forwards from the noise Algorithm 2 actually injects.
double dpsgld_accounted_epsilon(double n, double tau, double passes, double epsilon, double delta,
                                double lipschitz_l, double constant) {
  const double alpha = dpsgld_alpha(lipschitz_l, passes, epsilon, delta, constant);
  const double k = n * passes / tau;
  const double q = tau / n;
  const double delta0 = delta / (2.0 * passes);  // so that K·q·δ₀ = δ/2
  // Per step (any η): noise variance ≥ Nαη²/τ; replace-one sensitivity of the data term ηNL/τ.
  // Gaussian mechanism: ε₀ = sensitivity·√(2 ln(1.25/δ₀)) / σ; η cancels.
  const double sens_over_eta = n * lipschitz_l / tau;
  const double sd_over_eta = std::sqrt(n * alpha / tau);
  const double eps0 = sens_over_eta * std::sqrt(2.0 * std::log(1.25 / delta0)) / sd_over_eta;
  if (eps0 > 1.0) return std::numeric_limits<double>::infinity();
  const double eps1 = 2.0 * q * eps0;
  return advanced_composition_epsilon(k, eps1, delta / 2.0);
}

// Chaudhuri, Monteleoni & Sarwate (2011), Algorithm 2, steps 1–2.
ObjPertParameters objpert_parameters(double epsilon, double n, double lambda, double c) {
  require_positive(epsilon, "epsilon");
  require_positive(n, "n");
  require_positive(lambda, "regularisation Lambda");
  ObjPertParameters p;
  p.epsilon_prime = epsilon - 2.0 * std::log1p(c / (n * lambda));
  if (p.epsilon_prime > 0) {
    p.extra_ridge = 0.0;
  } else {
    p.extra_ridge = c / (n * std::expm1(epsilon / 4.0)) - lambda;
    p.epsilon_prime = epsilon / 2.0;
  }
  return p;
}

// Chaudhuri, Monteleoni & Sarwate (2011), Algorithm 1 (sensitivity 2/(nΛ)).
double outpert_noise_scale(double epsilon, double n, double lambda) {
  require_positive(epsilon, "epsilon");
  require_positive(n, "n");
  require_positive(lambda, "regularisation Lambda");
  return 2.0 / (n * lambda * epsilon);
}

}  // namespace gpdp::ops
