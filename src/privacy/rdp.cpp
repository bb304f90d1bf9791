#include "gpdp/privacy/rdp.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpdp/error.hpp"

namespace gpdp::privacy {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
// require() with the message built only on failure: these functions sit in the α optimiser's loop.
template <class Message>
void check(bool condition, Message message) {
  if (!condition) throw InputError(message());
}
}  // namespace

// Lemma A.3.
double psi_alpha(double alpha, double tau) {
  check(std::isfinite(tau) && tau >= 0,
        [&] { return fmt::format("ψ_α: τ must be finite and ≥ 0, got {}", tau); });
  require(!std::isnan(alpha), "ψ_α: α is NaN");
  const double a = alpha - 1.0;
  if (!(a > 0)) return kInf;
  if (tau == 0.0) return 0.0;
  if (!(a * tau < 1.0)) return kInf;
  const double half_log = 0.5 * std::log1p(tau);
  const double t1 = half_log - std::log1p(a * tau / (1.0 + tau)) / (2.0 * a);
  const double t2 = -half_log - std::log1p(-a * tau) / (2.0 * a);
  return std::max({0.0, t1, t2});
}

// Proposition 2.
double noisy_tau(double Vn, double r, double sigma, double eta) {
  check(std::isfinite(Vn) && Vn >= 0,
        [&] { return fmt::format("V_n must be finite and ≥ 0, got {}", Vn); });
  check(std::isfinite(r) && r > 0,
        [&] { return fmt::format("r must be positive and finite, got {}", r); });
  check(sigma > 0 && !std::isnan(sigma),
        [&] { return fmt::format("σ must be positive (or +∞), got {}", sigma); });
  check(std::isfinite(eta) && eta >= 0,
        [&] { return fmt::format("η must be finite and ≥ 0, got {}", eta); });
  const double r2 = r * r;
  if (std::isinf(sigma) || eta == 0.0) return Vn / r2;
  return sigma * sigma * Vn / (sigma * sigma * r2 + eta * eta * (Vn + r2));
}

double gp_alpha_max(double Vn, double r, double sigma, double eta) {
  const double tau = noisy_tau(Vn, r, sigma, eta);
  return tau == 0.0 ? kInf : 1.0 + 1.0 / tau;
}

// Theorem 3.1 (η = 0) and Proposition 2 (η > 0).
double gp_rdp(double alpha, double Vn, double Delta_n, double r, double sigma, double eta) {
  check(std::isfinite(Delta_n) && Delta_n >= 0,
        [&] { return fmt::format("Δ_n must be finite and ≥ 0, got {}", Delta_n); });
  const double tau = noisy_tau(Vn, r, sigma, eta);
  const double a = alpha - 1.0;
  if (!(a > 0) || !(a * tau < 1.0)) return kInf;
  const double cov = 2.0 * psi_alpha(alpha, tau);
  if (std::isinf(sigma) || Delta_n == 0.0) return cov;
  const double r2 = r * r;
  const double denom = 2.0 * (sigma * sigma * (r2 - a * Vn) + eta * eta * (Vn + r2));
  if (!(denom > 0)) return kInf;
  return cov + alpha * (Vn + r2) * Delta_n * Delta_n / denom;
}

// Functional Gaussian mechanism (docs/privacy.md, "The functional mechanism").
double gaussian_rdp(double alpha, double sensitivity, double noise_scale) {
  check(std::isfinite(sensitivity) && sensitivity >= 0,
        [&] { return fmt::format("the sensitivity must be finite and ≥ 0, got {}", sensitivity); });
  check(std::isfinite(noise_scale) && noise_scale > 0, [&] {
    return fmt::format("the noise scale must be positive and finite, got {}", noise_scale);
  });
  require(!std::isnan(alpha), "Gaussian RDP: α is NaN");
  if (!(alpha > 1.0)) return kInf;
  return alpha * sensitivity * sensitivity / (2.0 * noise_scale * noise_scale);
}

double grid_mean_sensitivity(double M_Y, double sum_noise, double count_noise) {
  check(std::isfinite(M_Y) && M_Y > 0,
        [&] { return fmt::format("M_Y must be positive and finite, got {}", M_Y); });
  check(std::isfinite(sum_noise) && sum_noise > 0 && std::isfinite(count_noise) && count_noise > 0,
        [&] {
          return fmt::format("the noise scales s_S, s_N must be positive and finite, got {}, {}",
                             sum_noise, count_noise);
        });
  const double within = 4.0 * M_Y * M_Y / (sum_noise * sum_noise);
  const double across =
      2.0 * M_Y * M_Y / (sum_noise * sum_noise) + 2.0 / (count_noise * count_noise);
  return std::sqrt(std::max(within, across));
}

double grid_mean_rdp(double alpha, double M_Y, double sum_noise, double count_noise) {
  return gaussian_rdp(alpha, grid_mean_sensitivity(M_Y, sum_noise, count_noise), 1.0);
}

double functional_rdp(double alpha, double Delta_n, double noise_scale) {
  return gaussian_rdp(alpha, Delta_n, noise_scale);  // ‖μ_D − μ_D'‖_H ≤ Δ_n (docs/privacy.md)
}

RdpCurve::RdpCurve(std::function<double(double)> epsilon, double alpha_max, std::string description)
    : epsilon_(std::move(epsilon)), alpha_max_(alpha_max), description_(std::move(description)) {
  check(alpha_max > 1.0, [&] {
    return fmt::format("RDP curve '{}': α_max must exceed 1, got {}", description_, alpha_max);
  });
}

double RdpCurve::operator()(double alpha) const {
  if (std::isnan(alpha)) throw NumericalError("RDP curve evaluated at α = NaN");
  if (!(alpha > 1.0) || !(alpha < alpha_max_)) return kInf;
  const double e = epsilon_(alpha);
  if (std::isnan(e)) {
    throw NumericalError(fmt::format("RDP curve '{}' is NaN at α = {}", description_, alpha));
  }
  if (e < 0) {
    throw NumericalError(
        fmt::format("RDP curve '{}' is negative ({}) at α = {}: refusing", description_, e, alpha));
  }
  return e;
}

}  // namespace gpdp::privacy
