#include "gpdp/release/postprocess.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/release/evaluation.hpp"

namespace gpdp::release {

Eigen::VectorXd vote_fraction(const Eigen::Ref<const Eigen::MatrixXd>& paths, double level) {
  require(paths.cols() >= 1, "vote fraction: needs at least one path");
  Eigen::VectorXd v(paths.rows());
  for (Eigen::Index i = 0; i < paths.rows(); ++i) {
    v(i) = static_cast<double>((paths.row(i).array() >= level).count()) /
           static_cast<double>(paths.cols());
  }
  return v;
}

Eigen::VectorXd vote_set(const Eigen::VectorXd& fractions, double cutoff) {
  require(cutoff > 0.0 && cutoff <= 1.0,
          fmt::format("vote cutoff c must lie in (0, 1], got {}", cutoff));
  return (fractions.array() >= cutoff).cast<double>().matrix();
}

namespace {
// w_k = exp(−(k · step / bandwidth)² / 2) for k = 0 .. ⌈3 bandwidth / step⌉.
std::vector<double> half_window(double step, double bandwidth) {
  const long radius = static_cast<long>(std::ceil(3.0 * bandwidth / step));
  std::vector<double> w(static_cast<std::size_t>(radius + 1));
  for (long k = 0; k <= radius; ++k) {
    const double d = static_cast<double>(k) * step / bandwidth;
    w[static_cast<std::size_t>(k)] = std::exp(-0.5 * d * d);
  }
  return w;
}

// One pass of the filter along the axis whose points lie `stride` apart in grid order (`count`
// of them), on one field.
void smooth_along(const double* in, double* out, Eigen::Index size, long stride, long count,
                  const std::vector<double>& w) {
  const long radius = static_cast<long>(w.size()) - 1;
  for (Eigen::Index c = 0; c < size; ++c) {
    if (std::isnan(in[c])) {
      out[c] = in[c];
      continue;
    }
    const long at = (c / stride) % count;  // this cell's index along the axis
    double sum = 0, weight = 0;
    for (long k = -radius; k <= radius; ++k) {
      if (at + k < 0 || at + k >= count) continue;  // beyond the grid's edge: left out
      const double v = in[c + k * stride];
      if (std::isnan(v)) continue;  // blank: left out
      const double wk = w[static_cast<std::size_t>(std::abs(k))];
      sum += wk * v;
      weight += wk;
    }
    out[c] = sum / weight;
  }
}
}  // namespace

Eigen::MatrixXd smooth_fields(const Eigen::Ref<const Eigen::MatrixXd>& fields, const Grid& grid,
                              double bandwidth) {
  require(fields.rows() == grid.size(),
          fmt::format("smoothing: the fields have {} values but the grid has {} points",
                      fields.rows(), grid.size()));
  Eigen::MatrixXd out = fields;
  if (!(bandwidth > 0)) return out;
  Eigen::MatrixXd next(out.rows(), out.cols());
  long stride = 1;
  for (const auto& axis : grid.axes()) {
    if (axis.count > 1) {
      const auto w = half_window(axis.step(), bandwidth);
      for (Eigen::Index l = 0; l < out.cols(); ++l) {
        smooth_along(out.col(l).data(), next.col(l).data(), out.rows(), stride, axis.count, w);
      }
      out.swap(next);
    }
    stride *= axis.count;
  }
  return out;
}

Eigen::MatrixXd excursion_fields(const ExcursionRule& rule, const Eigen::MatrixXd& fields) {
  if (rule.smooth <= 0) return fields;
  require(rule.grid.has_value(), "smoothing needs a grid");
  if (rule.cells.empty()) return smooth_fields(fields, *rule.grid, rule.smooth);
  const Eigen::MatrixXd full = spread_onto_grid(rule.cells, rule.grid->size(), fields);
  return gather_cells(rule.cells, smooth_fields(full, *rule.grid, rule.smooth));
}

Eigen::VectorXd excursion_set(const ExcursionRule& rule, const Eigen::MatrixXd& set_fields) {
  return vote_set(vote_fraction(set_fields, rule.level), rule.cutoff);
}

}  // namespace gpdp::release
