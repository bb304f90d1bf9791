#include "gpdp/samplers/sample_path.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/samplers/markov.hpp"
#include "gpdp/samplers/sampler.hpp"

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
  if (conditions_by_markov()) {
    // f_D is Gauss–Markov: answered values are noise-free observations in the same recursion.
    last_method_ = fmt::format(
        "markov: backward sampling conditioned on {} answered point(s) as exact observations",
        points_.rows());
    return posterior_.markov()
        ->sample(fresh.col(0), 1, rng, posterior_.sigma(), points_.col(0), values_)
        .col(0);
  }
  // Dense Gaussian conditioning, extended by one block per query (path_conditioning.hpp).
  if (conditioning_.answered() != points_.rows())
    conditioning_.rebuild(posterior_, eta_, points_, values_);
  const Eigen::VectorXd v = conditioning_.extend(posterior_, eta_, fresh, rng);
  last_method_ = conditioning_.detail();
  return v;
}

bool SamplePath::conditions_by_markov() const {
  return posterior_.markov() != nullptr && eta_ == 0.0;
}

void SamplePath::prepare_conditioning() {
  if (points_.rows() == 0 || conditions_by_markov()) return;
  if (conditioning_.answered() != points_.rows())
    conditioning_.rebuild(posterior_, eta_, points_, values_);
}

void SamplePath::truncate(Eigen::Index count) {
  require(
      count >= 0 && count <= points_.rows(),
      fmt::format("lazy path: cannot keep {} of its {} answered points", count, points_.rows()));
  if (conditioning_.answered() > count && !conditioning_.truncate(count))
    conditioning_ = PathConditioning{};  // rebuilt on the next conditional draw
  for (Eigen::Index i = count; i < points_.rows(); ++i) index_.erase(key_of(points_, i));
  points_.conservativeResize(count, points_.cols());
  values_.conservativeResize(count);
}

}  // namespace gpdp
