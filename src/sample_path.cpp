#include "gpdp/sample_path.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/factorisation.hpp"
#include "gpdp/memory.hpp"
#include "gpdp/sampler.hpp"
#include "gpdp/samplers/dense.hpp"
#include "gpdp/samplers/markov.hpp"

namespace gpdp {

namespace {

std::vector<double> key_of(const Points& p, Eigen::Index row) {
  std::vector<double> key(static_cast<std::size_t>(p.cols()));
  for (Eigen::Index j = 0; j < p.cols(); ++j) {
    // +0.0 turns −0.0 into +0.0 (same point); NaN never gets here (inputs are checked).
    key[static_cast<std::size_t>(j)] = p(row, j) + 0.0;
  }
  return key;
}

// Covariance of the released path f_D + g between a and b: σ² k_D(a, b) + η² k(a, b).
Eigen::MatrixXd path_cov(const Posterior& post, double eta, const Points& a, const Points& b) {
  Eigen::MatrixXd c = post.cross_covariance(a, b);
  if (eta > 0) c += eta * eta * post.kernel().cross(a, b);
  return c;
}

// Refuses a dense conditional draw of m fresh points given k answered ones before it allocates:
// the pending n x n factorisation, A = Cov f(P) with dsyevd's workspace and its support (4 k x k),
// the k x m cross blocks (2), the m x m conditional covariance and its factor (2), and the n x (k +
// m) solves of the cross-covariances (2).
void check_conditional_memory(const Posterior& post, Eigen::Index k, Eigen::Index m) {
  const auto kd = static_cast<double>(k), md = static_cast<double>(m);
  const auto n = static_cast<double>(post.n());
  require_memory(post.pending_factor_bytes() + static_cast<double>(dense_bytes(kd, kd, 4)) +
                     static_cast<double>(dense_bytes(kd, md, 2)) +
                     static_cast<double>(dense_bytes(md, md, 2)) +
                     static_cast<double>(dense_bytes(n, kd + md, 2)),
                 fmt::format("lazy path: conditioning {} new point(s) on {} answered one(s) with "
                             "n = {}",
                             m, k, post.n()),
                 "(k + m) x (k + m) covariance blocks, their eigendecomposition and factor",
                 "fewer points per query, a coarser grid, or the 1-D exponential kernel with η = 0 "
                 "(O(n + k + m) Markov engine)");
}

}  // namespace

SamplePath::SamplePath(Posterior posterior, double eta, SamplerMethod method)
    : SamplePath(std::move(posterior), eta, Points(0, 0), Eigen::VectorXd(0)) {
  method_ = method;
}

SamplePath::SamplePath(Posterior posterior, double eta, Points points, Eigen::VectorXd values)
    : posterior_(std::move(posterior)), eta_(eta), points_(0, posterior_.dim()), values_(0) {
  require(std::isfinite(eta) && eta >= 0, fmt::format("η must be ≥ 0 and finite, got {}", eta));
  if (points.rows() == 0) return;
  require(points.cols() == posterior_.dim(),
          fmt::format("saved path: points have {} coordinate(s) but the data have {}",
                      points.cols(), posterior_.dim()));
  require(points.rows() == values.size(),
          fmt::format("saved path: {} points but {} values", points.rows(), values.size()));
  require(points.allFinite() && values.allFinite(), "saved path: NaN or Inf in points or values");
  for (Eigen::Index i = 0; i < points.rows(); ++i) {
    const auto [it, inserted] = index_.emplace(key_of(points, i), i);
    require(inserted || values[it->second] == values[i],
            fmt::format("saved path: point {} appears twice with different values", i + 1));
  }
  index_.clear();
  remember(points, values);
}

void SamplePath::remember(const Points& pts, const Eigen::VectorXd& vals) {
  const Eigen::Index k = points_.rows();
  Eigen::Index added = 0;
  Points new_points(pts.rows(), posterior_.dim());
  Eigen::VectorXd new_values(pts.rows());
  for (Eigen::Index i = 0; i < pts.rows(); ++i) {
    if (index_.emplace(key_of(pts, i), k + added).second) {
      new_points.row(added) = pts.row(i);
      new_values[added] = vals[i];
      ++added;
    }
  }
  points_.conservativeResize(k + added, posterior_.dim());
  values_.conservativeResize(k + added);
  points_.bottomRows(added) = new_points.topRows(added);
  values_.tail(added) = new_values.head(added);
}

Eigen::VectorXd SamplePath::evaluate(const Points& xs, Rng& rng) {
  return evaluate_impl(xs, nullptr, rng);
}

Eigen::VectorXd SamplePath::evaluate(const Grid& grid, Rng& rng) {
  return evaluate_impl(grid.points(), &grid, rng);
}

Eigen::VectorXd SamplePath::evaluate_impl(const Points& xs, const Grid* grid, Rng& rng) {
  posterior_.check_query(xs);
  require(xs.allFinite(), "query points contain NaN or Inf");
  // Split the query into known points and fresh distinct ones.
  std::map<std::vector<double>, Eigen::Index> fresh_index;
  std::vector<Eigen::Index> fresh_rows;
  for (Eigen::Index i = 0; i < xs.rows(); ++i) {
    auto key = key_of(xs, i);
    if (index_.count(key) != 0) continue;
    if (fresh_index.emplace(std::move(key), static_cast<Eigen::Index>(fresh_rows.size())).second) {
      fresh_rows.push_back(i);
    }
  }
  last_method_.clear();
  if (!fresh_rows.empty()) {
    Points fresh(static_cast<Eigen::Index>(fresh_rows.size()), xs.cols());
    for (std::size_t j = 0; j < fresh_rows.size(); ++j) {
      fresh.row(static_cast<Eigen::Index>(j)) = xs.row(fresh_rows[j]);
    }
    const bool whole_grid = grid != nullptr && fresh.rows() == xs.rows();
    const Eigen::VectorXd v = draw_new(fresh, whole_grid ? grid : nullptr, rng);
    remember(fresh, v);
  }
  Eigen::VectorXd out(xs.rows());
  for (Eigen::Index i = 0; i < xs.rows(); ++i) out[i] = values_[index_.at(key_of(xs, i))];
  return out;
}

// Lazy evaluation (docs/mathematics.md §1): the new values are drawn from the law of the path on
// `fresh` conditioned on its answered values, f(F) | f(P) = v.
Eigen::VectorXd SamplePath::draw_new(const Points& fresh, const Grid* grid, Rng& rng) {
  const SampleOptions options{method_, eta_};
  if (points_.rows() == 0) {
    const Draws d = grid ? sample(posterior_, *grid, 1, rng, options)
                         : sample(posterior_, fresh, 1, rng, options);
    last_method_ = d.method + ": " + d.detail;
    return d.values.col(0);
  }
  if (posterior_.markov() != nullptr && eta_ == 0.0) {
    // f_D is Gauss–Markov: answered values are noise-free observations in the same recursion.
    last_method_ = fmt::format(
        "markov: backward sampling conditioned on {} answered point(s) as exact observations",
        points_.rows());
    return posterior_.markov()
        ->sample(fresh.col(0), 1, rng, posterior_.sigma(), points_.col(0), values_)
        .col(0);
  }
  const Eigen::Index k = points_.rows();
  check_conditional_memory(posterior_, k, fresh.rows());
  // Pseudo-inverse of A = Cov f(P) on its support by a symmetric eigendecomposition (LAPACK
  // dsyevd): eigenvalues ≤ k·ε·λmax are treated as 0. Answered values lie in that support
  // (they were drawn from this law), so the conditional law is exact up to that tolerance.
  Eigen::MatrixXd a = path_cov(posterior_, eta_, points_, points_);
  Eigen::VectorXd lambda;
  if (const int info = symmetric_eigen(a, lambda); info != 0)
    throw NumericalError(fmt::format("lazy path: the eigendecomposition failed ({})", info));
  const double lmax = std::max(lambda.maxCoeff(), 0.0);
  const double tol = static_cast<double>(k) * std::numeric_limits<double>::epsilon() * lmax;
  Eigen::Index r = 0;
  for (Eigen::Index i = 0; i < k; ++i) r += lambda[i] > tol ? 1 : 0;
  const Eigen::MatrixXd ur = a.rightCols(r);  // dsyevd sorts eigenvalues ascending
  const Eigen::VectorXd inv_sqrt = lambda.tail(r).cwiseSqrt().cwiseInverse();
  const Eigen::MatrixXd b = path_cov(posterior_, eta_, points_, fresh);    // k x m
  const Eigen::MatrixXd w = inv_sqrt.asDiagonal() * (ur.transpose() * b);  // r x m
  const Eigen::VectorXd resid = values_ - posterior_.mean(points_);
  const Eigen::VectorXd white = inv_sqrt.asDiagonal() * (ur.transpose() * resid);
  const Eigen::VectorXd cond_mean = posterior_.mean(fresh) + w.transpose() * white;
  Eigen::MatrixXd d = path_cov(posterior_, eta_, fresh, fresh);
  const double scale = d.diagonal().maxCoeff();
  d.noalias() -= w.transpose() * w;
  const PsdFactor f = factor_psd(std::move(d), scale);
  last_method_ = fmt::format(
      "dense conditional on {} answered point(s) (support rank {}, eigenvalues ≤ {:.3g} as 0); {}",
      k, r, tol, f.detail);
  return draw_gaussian(cond_mean, f, 1, rng).col(0);
}

}  // namespace gpdp
