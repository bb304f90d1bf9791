#pragma once
// Aggregation of point records to a hexagonal lattice over a DECLARED box (paper App. D.2): each
// record goes to the hexagon (Voronoi cell of the lattice) containing it and every non-empty cell
// reports the median of its records' values and their count. The lattice depends only on the box
// and the cell width, never on the data. Records outside the box are dropped (and counted).
#include <Eigen/Core>
#include <vector>

#include "gpdp/domain.hpp"

namespace gpdp::experiments {

// Rows of hexagons with horizontal centre spacing `width`; rows are width·√3/2 apart and every
// odd row is shifted by width/2. Row 0, column 0 sits at the box's lower-left corner.
struct HexLattice {
  Box box;
  double width;
  Eigen::Vector2d centre(long column, long row) const;
  // (column, row) of the hexagon containing (x, y): the nearest lattice centre.
  std::pair<long, long> cell_of(double x, double y) const;
};

struct HexCell {
  long column = 0, row = 0;
  double x = 0, y = 0;  // centre (box coordinates)
  double median = 0;
  long count = 0;
};

struct HexbinResult {
  std::vector<HexCell> cells;  // non-empty cells, ordered by (row, column)
  long dropped_outside = 0;    // records outside the box
};

// xy: n x 2 coordinates; values: n.
HexbinResult hexbin(const Eigen::MatrixXd& xy, const Eigen::VectorXd& values,
                    const HexLattice& lattice);

// Coordinates scaled to [0,1]² by the box's longer side (isotropic: distances keep their ratios):
// u = (x − x_lo)/s, v = (y − y_lo)/s, s = max(width, height) of the box.
Eigen::MatrixXd unit_square_coordinates(const Eigen::MatrixXd& xy, const Box& box);

}  // namespace gpdp::experiments
