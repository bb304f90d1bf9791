#include "gpdp/privacy/mechanism.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "gpdp/error.hpp"

namespace gpdp::privacy {

std::string to_string(MechanismKind kind) {
  switch (kind) {
    case MechanismKind::Functional:
      return "functional";
    case MechanismKind::GridMean:
      return "grid-mean";
    case MechanismKind::PriorMean:
      return "prior-mean";
    case MechanismKind::LabelDisagreement:
      return "label-disagreement";
    case MechanismKind::PosteriorSample:
      break;
  }
  return "posterior-sample";
}

MechanismKind parse_mechanism_kind(const std::string& name) {
  if (name == "posterior-sample") return MechanismKind::PosteriorSample;
  if (name == "functional") return MechanismKind::Functional;
  if (name == "grid-mean") return MechanismKind::GridMean;
  throw InputError(
      fmt::format("mechanism must be posterior-sample, functional or grid-mean, got '{}'", name));
}

bool has_noise_scale(MechanismKind kind) { return kind != MechanismKind::PosteriorSample; }

bool is_aggregate(MechanismKind kind) {
  return kind == MechanismKind::GridMean || kind == MechanismKind::PriorMean ||
         kind == MechanismKind::LabelDisagreement;
}

double grid_mean_count_noise(const GpMechanism& m) {
  return m.count_noise > 0 ? m.count_noise : m.noise_scale / m.M_Y;
}

namespace {

// The grid mean, the prior mean and the label disagreement: Gaussian mechanisms on aggregates of
// the records; κ, V_n, τ̃ play no part (0), Δ_n is their L2 sensitivity.
ResolvedBounds gaussian_aggregate_bounds(const GpMechanism& m) {
  require(
      std::isfinite(m.noise_scale) && m.noise_scale > 0,
      fmt::format("the {} needs a noise scale s > 0, got {}", to_string(m.kind), m.noise_scale));
  require(m.eta == 0.0, fmt::format("η (added prior noise) belongs to the posterior-sample "
                                    "mechanism, not to the {}",
                                    to_string(m.kind)));
  ResolvedBounds b;
  b.Vn = 0.0;
  b.Vn_source = "not used";
  b.alpha_max = std::numeric_limits<double>::infinity();
  if (m.kind == MechanismKind::GridMean) {
    const double count_noise = grid_mean_count_noise(m);
    require(std::isfinite(count_noise) && count_noise > 0,
            fmt::format("the grid mean needs a count noise s_N > 0, got {}", count_noise));
    // In units of s_S: the whitened sensitivity times s_S.
    b.Delta_n = m.noise_scale * grid_mean_sensitivity(m.M_Y, m.noise_scale, count_noise);
    b.Delta_source =
        "replace-one with n public: a record moving within a cell changes one sum by ≤ 2M_Y; "
        "between cells two sums by ≤ M_Y and two counts by 1";
    b.theorem = fmt::format(
        "Gaussian mechanism on per-cell clipped sums (s_S = {}) and counts (s_N = {}): ε_α = "
        "(α/2)·max(4M_Y²/s_S², 2M_Y²/s_S² + 2/s_N²), exact (docs/privacy.md, the grid mean)",
        m.noise_scale, count_noise);
    return b;
  }
  if (m.kind == MechanismKind::LabelDisagreement) {
    b.Delta_n = std::sqrt(2.0);
    b.Delta_source =
        "replace-one with n public: the record leaves one public cell and joins one, changing D "
        "(the records on their cell's minority side) by ≤ 1 and P (Σ ⌊n_c/2⌋) by ≤ 1";
    b.theorem =
        "Gaussian mechanism on the label disagreement (D, P): ε_α = α·2/(2s²) (docs/privacy.md, "
        "the label statistic)";
    return b;
  }
  b.Delta_n = 2.0 * m.M_Y / static_cast<double>(m.n);
  b.Delta_source =
      "replace-one with n public: the mean of responses in [−M_Y, M_Y] moves by ≤ 2M_Y/n";
  b.theorem =
      "Gaussian mechanism on the mean of the clipped responses: ε_α = α(2M_Y/n)²/(2s²) "
      "(docs/privacy.md, a private prior mean)";
  return b;
}

}  // namespace

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
  if (is_aggregate(m.kind)) return gaussian_aggregate_bounds(m);
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
  if (m.kind == MechanismKind::GridMean) {
    const double M = m.M_Y, sS = m.noise_scale, sN = grid_mean_count_noise(m);
    return RdpCurve([=](double alpha) { return grid_mean_rdp(alpha, M, sS, sN); }, b.alpha_max,
                    fmt::format("{}: n={}, M_Y={}", b.theorem, m.n, M));
  }
  if (m.kind == MechanismKind::LabelDisagreement) {
    const double Delta = b.Delta_n, s = m.noise_scale;
    return RdpCurve([=](double alpha) { return gaussian_rdp(alpha, Delta, s); }, b.alpha_max,
                    fmt::format("{}: n={}, s={}", b.theorem, m.n, s));
  }
  if (m.kind == MechanismKind::PriorMean) {
    const double Delta = b.Delta_n, s = m.noise_scale;
    return RdpCurve([=](double alpha) { return gaussian_rdp(alpha, Delta, s); }, b.alpha_max,
                    fmt::format("{}: n={}, M_Y={}, s={}", b.theorem, m.n, m.M_Y, s));
  }
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
