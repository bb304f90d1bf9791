#pragma once
// The points a release evaluates, reduced to what the preview's simulations need: a grid in grid
// order, the cells of a masked grid, or explicit points.
#include <Eigen/Core>
#include <optional>
#include <vector>

#include "gpdp/grid.hpp"
#include "gpdp/kernel.hpp"

namespace gpdp::preview {

struct EvaluationPoints {
  Points points;             // m x d, in the model CRS (kernel distances are taken here)
  std::optional<Grid> grid;  // present for --grid / --grid2d (declared coordinates)
  // False when a declared geographic CRS was projected: the grid is then not a regular lattice of
  // the model CRS (the prior draws are dense), and its smoothing bandwidths are in declared units.
  bool grid_is_model_lattice = true;
  std::vector<Eigen::Index> cells;  // with a mask: the grid rows evaluated (else empty)
  bool masked() const { return !cells.empty(); }
  // Fields (columns) on the evaluated points spread onto the whole grid (NaN outside the mask).
  Eigen::MatrixXd on_grid(const Eigen::MatrixXd& values) const;
  // The evaluated points' rows of whole-grid fields.
  Eigen::MatrixXd from_grid(const Eigen::MatrixXd& full) const;
};

}  // namespace gpdp::preview
