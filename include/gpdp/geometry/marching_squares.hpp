#pragma once
// Marching squares on a regular 2-D grid (gpdp::Grid point order: the first axis varies fastest).
// Values are linearly interpolated along cell edges. Saddle cells are resolved by the mean of the
// four corners (>= level: the two high corners are joined), the same rule for polygons and lines,
// so excursion sets and drawn contours always agree. A grid value exactly at the level counts as
// inside; crossings stay at least 1e-9 of a cell edge away from grid points so that rings never
// touch, and rings of negligible area (< 1e-9 of a cell) are dropped.
#include <vector>

#include "gpdp/geometry/polygon.hpp"
#include "gpdp/geometry/values.hpp"
#include "gpdp/grid.hpp"

namespace gpdp::geometry {

// The excursion set {v >= level} as polygons with holes. Where the set meets the edge of the grid,
// rings are closed along the domain boundary. Outer rings are counter-clockwise, holes clockwise.
std::vector<Polygon> excursion_polygons(ValuesView values, const Grid& grid, double level);

struct Polyline {
  std::vector<Point2> points = {};
  bool closed = false;  // closed: the last point joins the first
};

// The level set {v = level} inside the domain: closed loops, and open lines that end on the
// domain boundary (the boundary itself is not drawn).
std::vector<Polyline> contour_lines(ValuesView values, const Grid& grid, double level);

}  // namespace gpdp::geometry
