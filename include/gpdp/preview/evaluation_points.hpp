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
  Points points;                    // m x d
  std::optional<Grid> grid;         // present for --grid / --grid2d
  std::vector<Eigen::Index> cells;  // with a mask: the grid rows evaluated (else empty)
  bool masked() const { return !cells.empty(); }
  // A field on the evaluated points spread onto the whole grid (NaN outside the mask).
  Eigen::VectorXd on_grid(const Eigen::VectorXd& values) const;
  // The evaluated points' entries of a whole-grid field.
  Eigen::VectorXd from_grid(const Eigen::VectorXd& full) const;
};

}  // namespace gpdp::preview
