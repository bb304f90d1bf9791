#pragma once
// The level set {v = level} of a field on a regular 2-D grid, for drawing: GDAL's contour
// generator (GDALContourGenerateEx) in the grid's raster frame (gis::raster_frame), which
// interpolates linearly between grid nodes. Lines are closed loops or end on the edge of the
// raster frame (half a grid step beyond the outer nodes) or of the blank (NaN) cells; the frame's
// edge itself is not drawn.
#include <vector>

#include "gpdp/gis/polygon.hpp"
#include "gpdp/gis/values.hpp"
#include "gpdp/grid.hpp"

namespace gpdp::gis {

struct Polyline {
  std::vector<Point2> points = {};
  bool closed = false;  // closed: the last point joins the first
};

std::vector<Polyline> contour_lines(ValuesView values, const Grid& grid, double level);

}  // namespace gpdp::gis
