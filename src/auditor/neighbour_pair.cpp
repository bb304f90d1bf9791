#include "gpdp/auditor/neighbour_pair.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpdp/auditor/gaussian_divergence.hpp"
#include "gpdp/error.hpp"
#include "gpdp/posterior.hpp"

namespace gpdp::auditor {

namespace {

struct Released {
  Eigen::VectorXd mean;
  Eigen::MatrixXd cov;
};

Released released(const Kernel& kernel, double r, double sigma, double eta, const Points& X,
                  const Eigen::VectorXd& y, const Points& test) {
  const Posterior post(kernel, X, y, {r, sigma});
  Released out{post.mean(test), post.covariance(test)};
  if (eta > 0) out.cov += eta * eta * kernel.gram(test);
  return out;
}

// The common core D− (rows 0..n−2) at σ = 1: μ_{D−} and k_{D−} on `at` (the prior when n = 1).
Released core_posterior(const Kernel& kernel, double r, const NeighbourPair& pair,
                        const Points& at) {
  const Eigen::Index core = pair.X.rows() - 1;
  if (core == 0) return {Eigen::VectorXd::Zero(at.rows()), kernel.gram(at)};
  return released(kernel, r, 1.0, 0.0, pair.X.topRows(core), pair.y.head(core), at);
}

Points differing_points(const NeighbourPair& pair) {
  const Eigen::Index last = pair.X.rows() - 1;
  const bool same = pair.X.row(last) == pair.Xp.row(last);
  Points T(same ? 1 : 2, pair.X.cols());
  T.row(0) = pair.X.row(last);
  if (!same) T.row(1) = pair.Xp.row(last);
  return T;
}

void check_pair(const NeighbourPair& pair) {
  const Eigen::Index n = pair.X.rows();
  require(n >= 1 && pair.Xp.rows() == n && pair.y.size() == n && pair.yp.size() == n &&
              pair.Xp.cols() == pair.X.cols(),
          "neighbour pair: X, X', y, y' must describe two datasets of the same size");
  require(
      pair.X.topRows(n - 1) == pair.Xp.topRows(n - 1) && pair.y.head(n - 1) == pair.yp.head(n - 1),
      "neighbour pair: rows 0..n−2 (the common core) must be identical");
}

}  // namespace

double pair_renyi_divergence(const Kernel& kernel, double r, double sigma, double eta,
                             const NeighbourPair& pair, double alpha) {
  const auto a = released(kernel, r, sigma, eta, pair.X, pair.y, pair.test);
  const auto b = released(kernel, r, sigma, eta, pair.Xp, pair.yp, pair.test);
  if (!well_conditioned(a.cov) || !well_conditioned(b.cov)) return std::nan("");
  return gaussian_renyi_divergence(alpha, a.mean, a.cov, b.mean, b.cov);
}

double pair_mean_distance(const Kernel& kernel, double r, double sigma, double eta,
                          const NeighbourPair& pair) {
  require(pair.X == pair.Xp, "pair_mean_distance: the neighbours must share their covariates");
  const auto a = released(kernel, r, sigma, eta, pair.X, pair.y, pair.test);
  const auto b = released(kernel, r, sigma, eta, pair.Xp, pair.yp, pair.test);
  if (!well_conditioned(a.cov)) return std::nan("");
  return mahalanobis_distance(a.mean - b.mean, a.cov);
}

double pair_sensitivity(const Kernel& kernel, double r, const NeighbourPair& pair) {
  check_pair(pair);
  const Points T = differing_points(pair);
  const auto core = core_posterior(kernel, r, pair, T);
  const Eigen::VectorXd delta = Posterior(kernel, pair.X, pair.y, {r, 1.0}).mean(T) -
                                Posterior(kernel, pair.Xp, pair.yp, {r, 1.0}).mean(T);
  if (!well_conditioned(core.cov)) return std::nan("");
  return mahalanobis_distance(delta, core.cov);
}

PairShape pair_shape(const Kernel& kernel, double r, double M_Y, const Box& domain,
                     const NeighbourPair& pair) {
  check_pair(pair);
  const Eigen::Index n = pair.X.rows(), last = n - 1;
  PairShape s;
  s.n = static_cast<long>(n);
  Points T(2, pair.X.cols());
  T.row(0) = pair.X.row(last);
  T.row(1) = pair.Xp.row(last);
  const auto core = core_posterior(kernel, r, pair, T);
  s.v = core.cov(0, 0);
  s.vp = core.cov(1, 1);
  s.correlation = s.v > 0 && s.vp > 0 ? core.cov(0, 1) / std::sqrt(s.v * s.vp) : 0.0;
  s.core_mean_x = core.mean[0];
  s.core_mean_xp = core.mean[1];
  s.residual_x = pair.y[last] - core.mean[0];
  s.residual_xp = pair.yp[last] - core.mean[1];
  s.sensitivity = pair_sensitivity(kernel, r, pair);
  s.distance_x_xp = (T.row(0) - T.row(1)).norm();
  s.nearest_core_x = std::numeric_limits<double>::infinity();
  const double near = kernel.lengthscale() / 10.0;
  long near_count = 0, at_bound = 0, balance = 0, boundary = 0;
  for (Eigen::Index i = 0; i < last; ++i) {
    const double dx = (pair.X.row(i) - T.row(0)).norm();
    s.nearest_core_x = std::min(s.nearest_core_x, dx);
    near_count += dx <= near || (pair.X.row(i) - T.row(1)).norm() <= near;
    if (std::abs(pair.y[i]) >= 0.99 * M_Y) {
      ++at_bound;
      balance += pair.y[i] > 0 ? 1 : -1;
    }
  }
  auto on_face = [&](const Eigen::RowVectorXd& p) {
    for (Eigen::Index j = 0; j < p.size(); ++j) {
      const double w = 1e-6 * (domain.upper()[j] - domain.lower()[j]);
      if (p[j] <= domain.lower()[j] + w || p[j] >= domain.upper()[j] - w) return true;
    }
    return false;
  };
  for (Eigen::Index i = 0; i < n; ++i) boundary += on_face(pair.X.row(i));
  boundary += on_face(pair.Xp.row(last));
  const double core_n = std::max<double>(1.0, static_cast<double>(last));
  s.core_near_x = static_cast<double>(near_count) / core_n;
  s.core_at_bound = static_cast<double>(at_bound) / core_n;
  s.core_sign_balance = static_cast<double>(balance) / core_n;
  s.on_boundary = static_cast<double>(boundary) / static_cast<double>(n + 1);
  s.summary = fmt::format(
      "n = {}: |x − x'| = {:.3g}, y = {:+.3g}, y' = {:+.3g}, v = {:.3g}, v' = {:.3g}, corr = "
      "{:+.3g}, "
      "μ−(x) = {:+.3g}, μ−(x') = {:+.3g}, core near x/x' {:.0f}%, core |y| = M_Y {:.0f}% "
      "(balance {:+.2f}), on boundary {:.0f}%, Δ = {:.4g}",
      s.n, s.distance_x_xp, pair.y[last], pair.yp[last], s.v, s.vp, s.correlation, s.core_mean_x,
      s.core_mean_xp, 100 * s.core_near_x, 100 * s.core_at_bound, s.core_sign_balance,
      100 * s.on_boundary, s.sensitivity);
  return s;
}

}  // namespace gpdp::auditor
