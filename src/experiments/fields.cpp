#include "gpdp/experiments/fields.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/experiments/metrics.hpp"

namespace gpdp::experiments {

double noise_bound_from_nsr(double nsr) {
  require(std::isfinite(nsr) && nsr >= 0.0, fmt::format("NSR must be ≥ 0, got {}", nsr));
  return nsr / (1.0 + nsr);
}

namespace {
// Exact draw of the stationary OU process with covariance exp(−|s − s'|/ℓ) at points `t`.
Eigen::VectorXd ornstein_uhlenbeck(const std::vector<double>& t, double ell, Rng& rng) {
  std::vector<std::size_t> order(t.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return t[a] < t[b]; });
  Eigen::VectorXd f(static_cast<Eigen::Index>(t.size()));
  double prev_t = 0.0;
  double prev_f = 0.0;
  for (std::size_t k = 0; k < order.size(); ++k) {
    const std::size_t i = order[k];
    double value = 0.0;
    if (k == 0) {
      value = rng.standard_normal();
    } else {
      const double rho = std::exp(-(t[i] - prev_t) / ell);
      value = rho * prev_f + std::sqrt(std::max(0.0, 1.0 - rho * rho)) * rng.standard_normal();
    }
    f[static_cast<Eigen::Index>(i)] = value;
    prev_t = t[i];
    prev_f = value;
  }
  return f;
}

double uniform(Rng& rng, double lo, double hi) { return lo + (hi - lo) * rng.uniform01(); }
}  // namespace

ExcursionPair generate_field_1d(const Field1dSpec& spec, const Grid& grid, Rng& rng) {
  require(grid.dim() == 1, "generate_field_1d: needs a 1-D grid");
  require(spec.n >= 1, "generate_field_1d: n must be ≥ 1");
  require(spec.ell_gen > 0.0, "generate_field_1d: ℓ_gen must be positive");
  const double m_xi = noise_bound_from_nsr(spec.nsr);
  require(m_xi < 1.0, "generate_field_1d: M_ξ must be < 1");
  const Points g = grid.points();
  const Eigen::Index m = g.rows();
  ExcursionPair pair;
  pair.X.resize(spec.n, 1);
  for (long i = 0; i < spec.n; ++i) pair.X(i, 0) = rng.uniform01();
  std::vector<double> t(static_cast<std::size_t>(m + spec.n));
  for (Eigen::Index i = 0; i < m; ++i) t[static_cast<std::size_t>(i)] = g(i, 0);
  for (long i = 0; i < spec.n; ++i) t[static_cast<std::size_t>(m + i)] = pair.X(i, 0);
  Eigen::VectorXd f = ornstein_uhlenbeck(t, spec.ell_gen, rng);
  const double sup = f.cwiseAbs().maxCoeff();
  f *= (1.0 - m_xi) / sup;  // sup-norm 1 − M_ξ over grid ∪ X
  pair.field = f.head(m);
  pair.y.resize(spec.n);
  for (long i = 0; i < spec.n; ++i) pair.y[i] = f[m + i] + uniform(rng, -m_xi, m_xi);
  pair.truth = indicator_at_least(pair.field, 0.0);
  return pair;
}

ExcursionPair generate_plume_2d(const Plume2dSpec& spec, const Grid& grid, Rng& rng) {
  require(grid.dim() == 2, "generate_plume_2d: needs a 2-D grid");
  require(spec.n >= 1 && spec.plumes >= 1, "generate_plume_2d: n and K must be ≥ 1");
  require(spec.quantile > 0.0 && spec.quantile < 1.0, "generate_plume_2d: quantile in (0, 1)");
  const double m_xi = noise_bound_from_nsr(spec.nsr);
  struct Plume {
    double a, cx, cy, inv11, inv12, inv22;
  };
  std::vector<Plume> plumes;
  for (int j = 0; j < spec.plumes; ++j) {
    Plume p{};
    p.a = uniform(rng, spec.amplitude_min, spec.amplitude_max);
    p.cx = rng.uniform01();
    p.cy = rng.uniform01();
    const double w1 = uniform(rng, spec.width_min, spec.width_max);
    const double w2 = uniform(rng, spec.width_min, spec.width_max);
    const double phi = 2.0 * std::numbers::pi * rng.uniform01();
    const double c = std::cos(phi);
    const double s = std::sin(phi);
    // Σ⁻¹ = R diag(1/w1², 1/w2²) Rᵀ.
    p.inv11 = c * c / (w1 * w1) + s * s / (w2 * w2);
    p.inv22 = s * s / (w1 * w1) + c * c / (w2 * w2);
    p.inv12 = c * s * (1.0 / (w1 * w1) - 1.0 / (w2 * w2));
    plumes.push_back(p);
  }
  auto h = [&](double x, double y) {
    double total = 0.0;
    for (const auto& p : plumes) {
      const double dx = x - p.cx;
      const double dy = y - p.cy;
      total +=
          p.a * std::exp(-0.5 * (p.inv11 * dx * dx + 2.0 * p.inv12 * dx * dy + p.inv22 * dy * dy));
    }
    return total;
  };
  const Points g = grid.points();
  const Eigen::Index m = g.rows();
  ExcursionPair pair;
  pair.X.resize(spec.n, 2);
  for (long i = 0; i < spec.n; ++i) {
    pair.X(i, 0) = rng.uniform01();
    pair.X(i, 1) = rng.uniform01();
  }
  Eigen::VectorXd hv(m + spec.n);
  for (Eigen::Index i = 0; i < m; ++i) hv[i] = h(g(i, 0), g(i, 1));
  for (long i = 0; i < spec.n; ++i) hv[m + i] = h(pair.X(i, 0), pair.X(i, 1));
  std::vector<double> sorted(hv.data(), hv.data() + m);
  const auto q = static_cast<std::size_t>(spec.quantile * static_cast<double>(m - 1));
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(q), sorted.end());
  const double b_h = sorted[q];
  const double range = hv.head(m).maxCoeff() - hv.head(m).minCoeff();
  const double gamma = spec.steepness / (range > 0.0 ? range : 1.0);
  Eigen::VectorXd gt = (-(gamma * (hv.array() - b_h))).exp().matrix();
  gt = (1.0 / (1.0 + gt.array())).matrix();
  const double lo = gt.minCoeff();
  const double hi = gt.maxCoeff();
  const Eigen::VectorXd f = (2.0 * (gt.array() - lo) / std::max(hi - lo, 1e-300) - 1.0).matrix();
  pair.field = (1.0 - m_xi) * f.head(m);
  pair.y.resize(spec.n);
  for (long i = 0; i < spec.n; ++i) pair.y[i] = (1.0 - m_xi) * f[m + i] + uniform(rng, -m_xi, m_xi);
  pair.truth = indicator_at_least(pair.field, 0.0);
  return pair;
}

}  // namespace gpdp::experiments
