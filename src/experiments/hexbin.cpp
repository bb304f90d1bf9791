#include "gpdp/experiments/hexbin.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "gpdp/error.hpp"

namespace gpdp::experiments {

namespace {
double row_height(double width) { return width * std::sqrt(3.0) / 2.0; }
}  // namespace

Eigen::Vector2d HexLattice::centre(long column, long row) const {
  const double shift = (row % 2 != 0) ? 0.5 * width : 0.0;
  return {box.lower()[0] + static_cast<double>(column) * width + shift,
          box.lower()[1] + static_cast<double>(row) * row_height(width)};
}

std::pair<long, long> HexLattice::cell_of(double x, double y) const {
  const long guess = std::lround((y - box.lower()[1]) / row_height(width));
  std::pair<long, long> best{0, 0};
  double best_d2 = std::numeric_limits<double>::infinity();
  // The nearest centre lies in the nearest row or one of its neighbours.
  for (long row = guess - 1; row <= guess + 1; ++row) {
    const double shift = (row % 2 != 0) ? 0.5 * width : 0.0;
    const long col = std::lround((x - box.lower()[0] - shift) / width);
    for (long c = col - 1; c <= col + 1; ++c) {
      const Eigen::Vector2d ctr = centre(c, row);
      const double d2 = (ctr[0] - x) * (ctr[0] - x) + (ctr[1] - y) * (ctr[1] - y);
      if (d2 < best_d2) {
        best_d2 = d2;
        best = {c, row};
      }
    }
  }
  return best;
}

HexbinResult hexbin(const Eigen::MatrixXd& xy, const Eigen::VectorXd& values,
                    const HexLattice& lattice) {
  require(lattice.box.dim() == 2, "hexbin: the box must be 2-D (xmin:xmax,ymin:ymax)");
  require(std::isfinite(lattice.width) && lattice.width > 0.0,
          fmt::format("hexbin: cell width must be positive, got {}", lattice.width));
  require(xy.cols() == 2 && xy.rows() == values.size(),
          "hexbin: needs n x 2 coordinates and n values");
  std::map<std::pair<long, long>, std::vector<double>> bins;  // key (row, column)
  HexbinResult out;
  for (Eigen::Index i = 0; i < xy.rows(); ++i) {
    if (!lattice.box.contains(xy.row(i).transpose())) {
      ++out.dropped_outside;
      continue;
    }
    const auto [c, r] = lattice.cell_of(xy(i, 0), xy(i, 1));
    bins[{r, c}].push_back(values[i]);
  }
  for (auto& [key, v] : bins) {
    HexCell cell;
    cell.row = key.first;
    cell.column = key.second;
    const Eigen::Vector2d ctr = lattice.centre(cell.column, cell.row);
    cell.x = ctr[0];
    cell.y = ctr[1];
    cell.count = static_cast<long>(v.size());
    std::sort(v.begin(), v.end());
    const std::size_t m = v.size();
    cell.median = m % 2 == 1 ? v[m / 2] : 0.5 * (v[m / 2 - 1] + v[m / 2]);
    out.cells.push_back(cell);
  }
  return out;
}

Eigen::MatrixXd unit_square_coordinates(const Eigen::MatrixXd& xy, const Box& box) {
  require(box.dim() == 2 && xy.cols() == 2,
          "unit_square_coordinates: 2-D box and n x 2 coordinates");
  const double s = std::max(box.upper()[0] - box.lower()[0], box.upper()[1] - box.lower()[1]);
  Eigen::MatrixXd uv(xy.rows(), 2);
  uv.col(0) = (xy.col(0).array() - box.lower()[0]) / s;
  uv.col(1) = (xy.col(1).array() - box.lower()[1]) / s;
  return uv;
}

}  // namespace gpdp::experiments
