#include "gpdp/gis/raster_frame.hpp"

#include <fmt/format.h>

#include "gpdp/error.hpp"

namespace gpdp::gis {

RasterFrame raster_frame(const Grid& grid) {
  require(grid.dim() == 2, fmt::format("raster: needs a 2-D grid, got {}-D", grid.dim()));
  const GridAxis& ax = grid.axes()[0];
  const GridAxis& ay = grid.axes()[1];
  require(ax.count >= 2 && ay.count >= 2,
          fmt::format("raster: a 2-D grid needs at least 2 points per axis (a cell is one grid "
                      "step wide), got {} × {}",
                      ax.count, ay.count));
  const double dx = ax.step(), dy = ay.step();
  return {ax.count, ay.count, {ax.lo - dx / 2, dx, 0.0, ay.at(ay.count - 1) + dy / 2, 0.0, -dy}};
}

}  // namespace gpdp::gis
