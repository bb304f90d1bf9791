#include "gpdp/preview/simulated_sets.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "gpdp/error.hpp"

namespace gpdp::preview {

Eigen::Index uniform_index(Rng& rng, Eigen::Index count) {
  const auto i = static_cast<Eigen::Index>(rng.uniform01() * static_cast<double>(count));
  return std::min(i, count - 1);
}

std::vector<Eigen::Index> nearest_evaluation_points(const Points& X,
                                                    const EvaluationPoints& evaluation) {
  const Points& P = evaluation.points;
  require(X.cols() == P.cols(),
          "preview: proxy covariates and evaluation points differ in dimension");
  std::vector<Eigen::Index> out(static_cast<std::size_t>(X.rows()));
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    Eigen::Index best = 0;
    (P.rowwise() - X.row(i)).rowwise().squaredNorm().minCoeff(&best);
    out[static_cast<std::size_t>(i)] = best;
  }
  return out;
}

namespace {

// n indices into [0, size): a random permutation's prefix, then uniform draws beyond `size`.
std::vector<Eigen::Index> draw_indices(Eigen::Index size, long n, Rng& rng) {
  std::vector<Eigen::Index> perm(static_cast<std::size_t>(size));
  std::iota(perm.begin(), perm.end(), Eigen::Index{0});
  const auto distinct = std::min<Eigen::Index>(size, n);
  for (Eigen::Index i = 0; i < distinct; ++i) {  // partial Fisher–Yates
    const Eigen::Index j = i + uniform_index(rng, size - i);
    std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(j)]);
  }
  perm.resize(static_cast<std::size_t>(distinct));
  while (static_cast<long>(perm.size()) < n) perm.push_back(uniform_index(rng, size));
  return perm;
}

}  // namespace

SimulatedSet resample_records(const SimulatedSet& records, long n, Rng& rng) {
  const auto size = static_cast<Eigen::Index>(records.rows.size());
  require(size >= 1 && n >= 1, "preview: resampling needs proxy records and n ≥ 1");
  SimulatedSet out;
  out.y.resize(n);
  const auto picks = draw_indices(size, n, rng);
  for (long i = 0; i < n; ++i) {
    const auto p = picks[static_cast<std::size_t>(i)];
    out.rows.push_back(records.rows[static_cast<std::size_t>(p)]);
    out.y(i) = records.y(p);
  }
  return out;
}

SimulatedSet prior_field_set(const Eigen::VectorXd& field, long n, double sigma, double r,
                             double M_Y, Rng& rng) {
  SimulatedSet out;
  out.rows = draw_indices(field.size(), n, rng);
  out.y.resize(n);
  for (long i = 0; i < n; ++i) {
    const double v =
        sigma * field(out.rows[static_cast<std::size_t>(i)]) + sigma * r * rng.standard_normal();
    out.y(i) = std::clamp(v, -M_Y, M_Y);
  }
  return out;
}

}  // namespace gpdp::preview
