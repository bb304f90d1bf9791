#pragma once
// The properties every excursion-polygon result must have, shared by the property test and the
// libFuzzer target: valid as one MultiPolygon (GEOS through OGR), every grid node inside the
// polygons exactly when it is in the set, and the area equal to the number of nodes in the set
// times the pixel area. Returns "" when all hold, else what failed.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gpdp/gis/ogr_polygons.hpp"
#include "gpdp/gis/polygon.hpp"
#include "gpdp/grid.hpp"

namespace gpdp::test {

inline std::string excursion_polygon_failure(const std::vector<char>& in_set, const Grid& grid,
                                             const std::vector<gis::Polygon>& polygons) {
  if (const std::string why = gis::invalidity(polygons); !why.empty())
    return "invalid polygons: " + why;
  struct Box {
    double x0, x1, y0, y1;
  };
  std::vector<Box> boxes;
  for (const auto& p : polygons) {
    Box b{INFINITY, -INFINITY, INFINITY, -INFINITY};
    for (const auto& q : p.outer) {
      b = {std::min(b.x0, q.x), std::max(b.x1, q.x), std::min(b.y0, q.y), std::max(b.y1, q.y)};
    }
    boxes.push_back(b);
  }
  const GridAxis& ax = grid.axes()[0];
  const GridAxis& ay = grid.axes()[1];
  long count = 0;
  for (long j = 0; j < ay.count; ++j) {
    for (long i = 0; i < ax.count; ++i) {
      const gis::Point2 node{ax.at(i), ay.at(j)};
      bool inside = false;
      for (std::size_t k = 0; k < polygons.size() && !inside; ++k) {
        const Box& b = boxes[k];
        inside = node.x > b.x0 && node.x < b.x1 && node.y > b.y0 && node.y < b.y1 &&
                 gis::contains(polygons[k], node);
      }
      const bool want = in_set[static_cast<std::size_t>(j * ax.count + i)] != 0;
      count += want;
      if (inside != want) {
        return fmt::format("node ({}, {}) at ({}, {}) is {} the set but {} the polygons", i, j,
                           node.x, node.y, want ? "in" : "outside", inside ? "inside" : "outside");
      }
    }
  }
  const double want_area = static_cast<double>(count) * ax.step() * ay.step();
  const double got_area = gis::area(polygons);
  // Pixel corners far from the origin carry a rounding of ~eps·|coordinate| each: allow it on
  // every pixel's perimeter, plus 1e-9 relative.
  const double far = std::max({std::abs(ax.lo), std::abs(ax.hi), std::abs(ay.lo), std::abs(ay.hi)});
  const double tolerance = 1e-9 * std::max(want_area, ax.step() * ay.step()) +
                           static_cast<double>(count) * 4 * (ax.step() + ay.step()) * 2.3e-16 * far;
  if (std::abs(got_area - want_area) > tolerance)
    return fmt::format("area {} but {} pixels of the set make {}", got_area, count, want_area);
  return "";
}

}  // namespace gpdp::test
