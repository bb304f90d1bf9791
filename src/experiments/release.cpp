#include "gpdp/experiments/release.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "gpdp/error.hpp"

namespace gpdp::experiments {

Eigen::VectorXd vote_release(const Eigen::Ref<const Eigen::MatrixXd>& paths, double threshold,
                             double vote_cutoff) {
  require(paths.cols() >= 1, "vote_release: needs at least one path");
  require(vote_cutoff > 0.0 && vote_cutoff <= 1.0,
          fmt::format("vote cutoff c must lie in (0, 1], got {}", vote_cutoff));
  const double needed = vote_cutoff * static_cast<double>(paths.cols());
  Eigen::VectorXd out(paths.rows());
  for (Eigen::Index i = 0; i < paths.rows(); ++i) {
    const auto votes = (paths.row(i).array() >= threshold).count();
    // Compare counts with a small slack so that c = k/L is not lost to rounding.
    out[i] = static_cast<double>(votes) >= needed - 1e-9 ? 1.0 : 0.0;
  }
  return out;
}

Eigen::VectorXd vote_release(const Draws& draws, int paths_per_release, int release_index,
                             double threshold, double vote_cutoff) {
  require(paths_per_release >= 1, "vote_release: L must be ≥ 1");
  const Eigen::Index first = static_cast<Eigen::Index>(release_index) * paths_per_release;
  require(release_index >= 0 && first + paths_per_release <= draws.values.cols(),
          fmt::format("vote_release: release {} of L = {} needs {} draws, have {}", release_index,
                      paths_per_release, first + paths_per_release, draws.values.cols()));
  return vote_release(draws.values.middleCols(first, paths_per_release), threshold, vote_cutoff);
}

namespace {
std::vector<double> gaussian_taps(double sigma_cells) {
  const int half = std::max(1, static_cast<int>(std::ceil(3.0 * sigma_cells)));
  std::vector<double> taps(static_cast<std::size_t>(2 * half + 1));
  for (int k = -half; k <= half; ++k) {
    taps[static_cast<std::size_t>(k + half)] = std::exp(-0.5 * k * k / (sigma_cells * sigma_cells));
  }
  return taps;
}

long reflect(long i, long n) {
  if (n == 1) return 0;
  while (i < 0 || i >= n) i = i < 0 ? -i - 1 : 2 * n - i - 1;
  return i;
}
}  // namespace

Eigen::MatrixXd smooth_paths(const Eigen::Ref<const Eigen::MatrixXd>& paths, const Grid& grid,
                             double bandwidth) {
  require(
      paths.rows() == grid.size(),
      fmt::format("smooth_paths: {} rows but the grid has {} points", paths.rows(), grid.size()));
  Eigen::MatrixXd out = paths;
  if (!(bandwidth > 0.0)) return out;
  long stride = 1;
  for (const auto& axis : grid.axes()) {
    const long n = axis.count;
    if (n > 1) {
      const auto taps = gaussian_taps(bandwidth / axis.step());
      const long half = static_cast<long>(taps.size() / 2);
      Eigen::MatrixXd next(out.rows(), out.cols());
      for (Eigen::Index p = 0; p < out.rows(); ++p) {
        const long idx = (p / stride) % n;  // coordinate along this axis
        const Eigen::Index base = p - idx * stride;
        Eigen::RowVectorXd acc = Eigen::RowVectorXd::Zero(out.cols());
        double norm = 0.0;
        for (long k = -half; k <= half; ++k) {
          const long j = reflect(idx + k, n);
          const double w = taps[static_cast<std::size_t>(k + half)];
          acc += w * out.row(base + j * stride);
          norm += w;
        }
        next.row(p) = acc / norm;
      }
      out = std::move(next);
    }
    stride *= n;
  }
  return out;
}

}  // namespace gpdp::experiments
