#pragma once
// A mask for a 2-D grid (`--mask` of gpdp release and gpdp preview): a points file whose every
// point keeps the grid cell within half a step (per axis) of it. The one implementation of the
// rule; release and preview evaluate only the kept cells.
#include <Eigen/Core>
#include <string>
#include <vector>

#include "gpdp/grid.hpp"

namespace gpdp::io {

// The kept cells in ascending order, as indices into grid.points() (first axis fastest). The
// points file is read by read_points_file (columns `names`, else x1, x2). InputError when the grid
// is not 2-D or when no point falls on the grid.
std::vector<Eigen::Index> read_mask_cells(const Grid& grid, const std::string& mask_file,
                                          const std::vector<std::string>& names);

}  // namespace gpdp::io
