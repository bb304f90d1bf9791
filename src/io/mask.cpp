#include "gpdp/io/mask.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "points_file.hpp"

namespace gpdp::io {

std::vector<Eigen::Index> read_mask_cells(const Grid& grid, const std::string& mask_file,
                                          const std::vector<std::string>& names) {
  require_parameter(grid.dim() == 2, "mask_file", "mask_file needs a 2-D grid");
  const Eigen::MatrixXd m = read_points_file(mask_file, names).points;
  const auto& ax = grid.axes();
  std::vector<char> keep(static_cast<std::size_t>(grid.size()), 0);
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    long idx[2];
    bool inside = true;
    for (int a = 0; a < 2; ++a) {
      const double step = ax[a].step() > 0 ? ax[a].step() : 1.0;
      idx[a] = std::lround((m(i, a) - ax[a].lo) / step);
      inside = inside && idx[a] >= 0 && idx[a] < ax[a].count &&
               std::abs(m(i, a) - ax[a].at(idx[a])) <= step / 2;
    }
    if (inside) keep[static_cast<std::size_t>(idx[0] + idx[1] * ax[0].count)] = 1;
  }
  std::vector<Eigen::Index> cells;
  for (std::size_t c = 0; c < keep.size(); ++c) {
    if (keep[c]) cells.push_back(static_cast<Eigen::Index>(c));
  }
  require(!cells.empty(), fmt::format("{}: no mask point falls on the grid", mask_file));
  return cells;
}

}  // namespace gpdp::io
