#pragma once
// A 2-D grid seen as a north-up raster (pixel is area): grid node (i, j) is the centre of the
// pixel in column i and row rows − 1 − j, and each pixel is one grid step wide and high. The
// excursion polygons and map.tif share this frame, so a polygon edge is a pixel edge.
#include <array>

#include "gpdp/grid.hpp"

namespace gpdp::gis {

struct RasterFrame {
  long columns = 0;  // points on the grid's first axis (x)
  long rows = 0;     // points on the second axis (y)
  // GDAL's affine transform: x = g[0] + column·g[1], y = g[3] + row·g[5] (g[2] = g[4] = 0) at
  // pixel corners; g[5] < 0 (row 0 is the top).
  std::array<double, 6> geotransform = {};
  // Grid point index (first axis fastest) of the pixel at (column, row).
  long node(long column, long row) const { return (rows - 1 - row) * columns + column; }
};

// InputError unless the grid is 2-D with at least 2 points per axis (a pixel needs a width).
RasterFrame raster_frame(const Grid& grid);

}  // namespace gpdp::gis
