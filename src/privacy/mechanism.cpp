#include "gpdp/privacy/mechanism.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "gpdp/error.hpp"

namespace gpdp::privacy {

std::string to_string(MechanismKind kind) {
  return kind == MechanismKind::Functional ? "functional" : "posterior-sample";
}

MechanismKind parse_mechanism_kind(const std::string& name) {
  if (name == "posterior-sample") return MechanismKind::PosteriorSample;
  if (name == "functional") return MechanismKind::Functional;
  throw InputError(fmt::format("mechanism must be posterior-sample or functional, got '{}'", name));
}

ResolvedBounds resolve_bounds(const GpMechanism& m) {
  require(m.n >= 1, fmt::format("n must be ≥ 1, got {}", m.n));
  require(m.dim >= 1, fmt::format("dim must be ≥ 1, got {}", m.dim));
  require(std::isfinite(m.r) && m.r > 0, fmt::format("r must be positive and finite, got {}", m.r));
  require(!std::isnan(m.sigma) && m.sigma > 0,
          fmt::format("σ must be positive (or inf), got {}", m.sigma));
  require(std::isfinite(m.eta) && m.eta >= 0,
          fmt::format("η must be finite and ≥ 0, got {}", m.eta));
  require(std::isfinite(m.M_Y) && m.M_Y > 0,
          fmt::format("M_Y must be positive and finite, got {}", m.M_Y));
  if (m.domain) {
    require(m.domain->dim() == m.dim,
            fmt::format("the domain has {} dimension(s) but dim is {}", m.domain->dim(), m.dim));
  }
  if (m.kind == MechanismKind::Functional) {
    require(
        std::isfinite(m.noise_scale) && m.noise_scale > 0,
        fmt::format("the functional mechanism needs a noise scale s > 0, got {}", m.noise_scale));
    require(m.eta == 0.0,
            "η (added prior noise) belongs to the posterior-sample mechanism; the functional "
            "mechanism's noise is its scale s");
  } else {
    require(m.noise_scale == 0.0,
            "a noise scale s belongs to the functional mechanism, not to posterior sampling");
  }
  check_lemma_applies(m.lemma, m.kernel, m.dim);

  ResolvedBounds b;
  if (m.kappa) {
    b.kappa = *m.kappa;
  } else if (m.kernel) {
    b.kappa = m.kernel->kappa(m.domain ? *m.domain : Box::unit(m.dim));
  } else {
    b.kappa = 0.0;
  }
  require(std::isfinite(b.kappa) && b.kappa >= 0 && b.kappa <= 1,
          fmt::format("κ must lie in [0, 1], got {}", b.kappa));

  if (m.user_Vn) {
    require(std::isfinite(*m.user_Vn) && *m.user_Vn >= 0,
            fmt::format("user V_n must be finite and ≥ 0, got {}", *m.user_Vn));
    b.Vn = *m.user_Vn;
    b.Vn_source = "user-supplied V_n";
  } else {
    b.Vn = posterior_variance_scale(b.kappa, m.n, m.r);
    b.Vn_source = fmt::format("Proposition 3: V̄_n = 1 − κ²(n−1)/(n−1+r²), κ = {}", b.kappa);
  }

  if (m.lemma == SensitivityLemma::User) {
    require(m.user_Delta_n.has_value(), "sensitivity 'user' needs a Δ_n value");
    require(std::isfinite(*m.user_Delta_n) && *m.user_Delta_n >= 0,
            fmt::format("user Δ_n must be finite and ≥ 0, got {}", *m.user_Delta_n));
    b.Delta_n = *m.user_Delta_n;
  } else {
    require(!m.user_Delta_n.has_value(), "give either a sensitivity lemma or a user Δ_n, not both");
    b.Delta_n = mean_sensitivity(m.lemma, {m.n, m.r, b.Vn, m.M_Y, m.rkhs_norm});
  }
  b.Delta_source = lemma_assumptions(m.lemma);
  if (m.kind == MechanismKind::Functional) {
    b.tau = 0.0;
    b.alpha_max = std::numeric_limits<double>::infinity();
    b.theorem =
        "functional Gaussian mechanism μ_D + s·g, g ~ GP(0, k): ε_α = α Δ_n²/(2 s²), "
        "‖μ_D − μ_D'‖_H ≤ Δ_n (docs/privacy.md)";
    return b;
  }
  b.tau = noisy_tau(b.Vn, m.r, m.sigma, m.eta);
  b.alpha_max = gp_alpha_max(b.Vn, m.r, m.sigma, m.eta);
  if (std::isinf(m.sigma)) {
    b.theorem = "Theorem 3.1, σ = ∞ limit (covariance term 2ψ_α(V_n/r²) only)";
  } else if (m.eta > 0) {
    b.theorem = "Proposition 2 (added GP noise η)";
  } else {
    b.theorem = "Theorem 3.1";
  }
  return b;
}

RdpCurve rdp_curve(const GpMechanism& m) { return rdp_curve(m, resolve_bounds(m)); }

RdpCurve rdp_curve(const GpMechanism& m, const ResolvedBounds& b) {
  if (m.kind == MechanismKind::Functional) {
    const double Delta = b.Delta_n, s = m.noise_scale;
    return RdpCurve([=](double alpha) { return functional_rdp(alpha, Delta, s); }, b.alpha_max,
                    fmt::format("{}: n={}, r={}, s={}, V_n={}, Δ_n={} ({})", b.theorem, m.n, m.r, s,
                                b.Vn, Delta, to_string(m.lemma)));
  }
  const double Vn = b.Vn, Delta = b.Delta_n, r = m.r, sigma = m.sigma, eta = m.eta;
  return RdpCurve([=](double alpha) { return gp_rdp(alpha, Vn, Delta, r, sigma, eta); },
                  b.alpha_max,
                  fmt::format("{}: n={}, r={}, σ={}, η={}, V_n={}, Δ_n={} ({})", b.theorem, m.n, r,
                              sigma, eta, Vn, Delta, to_string(m.lemma)));
}

}  // namespace gpdp::privacy
