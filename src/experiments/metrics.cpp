#include "gpdp/experiments/metrics.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "gpdp/error.hpp"

namespace gpdp::experiments {

namespace {
Eigen::VectorXd axis_weights(const GridAxis& axis) {
  Eigen::VectorXd w = Eigen::VectorXd::Constant(axis.count, axis.step());
  if (axis.count == 1) {
    w[0] = 1.0;  // a degenerate axis contributes a unit factor
  } else {
    w[0] *= 0.5;
    w[axis.count - 1] *= 0.5;
  }
  return w;
}

void require_same_size(Eigen::Index a, Eigen::Index b, Eigen::Index w, const char* what) {
  require(a == b && b == w, fmt::format("{}: sizes differ ({}, {}, weights {})", what, a, b, w));
}
}  // namespace

Eigen::VectorXd trapezoid_weights(const Grid& grid) {
  Eigen::VectorXd w = Eigen::VectorXd::Ones(1);
  // First axis fastest: the weight of point (i1, i2, ...) is w1[i1] w2[i2] ...
  for (const auto& axis : grid.axes()) {
    const Eigen::VectorXd a = axis_weights(axis);
    Eigen::VectorXd next(w.size() * a.size());
    for (Eigen::Index j = 0; j < a.size(); ++j) next.segment(j * w.size(), w.size()) = w * a[j];
    w = std::move(next);
  }
  return w;
}

double log_normal_cdf(double z) {
  if (z > -30.0) return std::log(0.5 * std::erfc(-z / std::numbers::sqrt2));
  // Asymptotic (Abramowitz–Stegun 26.2.12): Φ(z) = φ(z)/|z| (1 − 1/z² + 3/z⁴ − 15/z⁶ + …).
  const double z2 = z * z;
  const double series = 1.0 - 1.0 / z2 + 3.0 / (z2 * z2) - 15.0 / (z2 * z2 * z2);
  return -0.5 * z2 - std::log(-z) - 0.5 * std::log(2.0 * std::numbers::pi) + std::log(series);
}

double integrated_bce_from_z(const Eigen::VectorXd& z, const Eigen::VectorXd& truth,
                             const Eigen::VectorXd& weights) {
  require_same_size(z.size(), truth.size(), weights.size(), "integrated BCE");
  double total = 0.0;
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    // −log p = −log Φ(z); −log(1 − p) = −log Φ(−z).
    total -= weights[i] * (truth[i] > 0.5 ? log_normal_cdf(z[i]) : log_normal_cdf(-z[i]));
  }
  return total;
}

double integrated_bce(const Eigen::VectorXd& p, const Eigen::VectorXd& truth,
                      const Eigen::VectorXd& weights) {
  require_same_size(p.size(), truth.size(), weights.size(), "integrated BCE");
  double total = 0.0;
  for (Eigen::Index i = 0; i < p.size(); ++i) {
    const double q = std::clamp(p[i], 1e-300, 1.0 - 1e-16);
    total -= weights[i] * (truth[i] > 0.5 ? std::log(q) : std::log1p(-q));
  }
  return total;
}

double intersection_over_union(const Eigen::VectorXd& a, const Eigen::VectorXd& b,
                               const Eigen::VectorXd& weights) {
  require_same_size(a.size(), b.size(), weights.size(), "IoU");
  double inter = 0.0;
  double uni = 0.0;
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    const bool in_a = a[i] > 0.5;
    const bool in_b = b[i] > 0.5;
    if (in_a && in_b) inter += weights[i];
    if (in_a || in_b) uni += weights[i];
  }
  return uni > 0.0 ? inter / uni : 1.0;
}

Eigen::VectorXd indicator_at_least(const Eigen::VectorXd& v, double t) {
  return (v.array() >= t).cast<double>().matrix();
}

}  // namespace gpdp::experiments
