#pragma once
// The points a release (or a query of a kept path) is evaluated at, resolved from an
// EvaluationSpec and checked against the declared domain. Shared by `release` and `query`.
#include <Eigen/Core>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/domain.hpp"
#include "gpdp/grid.hpp"
#include "gpdp/release/request.hpp"

namespace gpdp::release {

// The evaluated cells of a masked grid and whole-grid fields (columns), both ways: `values` (one
// row per cell) spread onto a grid of `grid_size` rows, NaN elsewhere; and the cells' rows of
// `full`.
Eigen::MatrixXd spread_onto_grid(const std::vector<Eigen::Index>& cells, long grid_size,
                                 const Eigen::MatrixXd& values);
Eigen::MatrixXd gather_cells(const std::vector<Eigen::Index>& cells, const Eigen::MatrixXd& full);

struct Evaluation {
  Points points;
  std::optional<Grid> grid;
  std::vector<Eigen::Index> cells;  // with a mask: the grid cells evaluated (rows of grid points)
  std::vector<std::string> names;   // coordinate column names (the data's covariates or x1..xd)
  std::string mask_file;            // as given (empty: none)
  std::string points_file;          // as given (empty: a grid)
  std::vector<std::size_t> lines;   // with a points file: the line of each point (for messages)
  bool masked() const { return !cells.empty(); }
  // True when the points are the whole grid in grid order (the grid samplers may be used).
  bool whole_grid() const { return grid.has_value() && !masked(); }
  // A field on the evaluated points spread onto the full grid (blank = NaN outside the mask).
  Eigen::MatrixXd on_grid(const Eigen::MatrixXd& values) const;
};

// Resolves `spec`: the grid's dimension must be names.size(); a mask needs a 2-D grid; a points
// file names its columns like `names` or x1..xd. Every point must lie in `domain` (ParameterError
// naming "evaluation", with file:line for a points file).
Evaluation load_evaluation(const EvaluationSpec& spec, const std::vector<std::string>& names,
                           const Box& domain);
// The same without the domain check, for points the caller transforms first (then calls
// check_in_domain).
Evaluation load_evaluation(const EvaluationSpec& spec, const std::vector<std::string>& names);
void check_in_domain(const Evaluation& evaluation, const Box& domain);

}  // namespace gpdp::release
