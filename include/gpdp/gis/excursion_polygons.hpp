#pragma once
// The excursion set of a field on a 2-D grid as polygons, cell-based: each grid node stands for
// the pixel of one grid step centred on it (gis::raster_frame, the frame of map.tif), and the
// polygons are the union of the pixels of the nodes in the set. GDAL's polygonizer traces them
// (GDALPolygonize, 4-connected pixels: pixels that touch only at a corner are separate polygons)
// and GEOS, through OGR, makes them valid (MakeValid) when the tracing leaves a self-touching ring.
// Every node in the set lies inside the polygons and every other node outside, half a pixel from
// the nearest edge, whatever the values: ties at the level, masks, single pixels, saddles, and
// coordinates far from the origin. Outer rings are counter-clockwise, holes clockwise.
#include <vector>

#include "gpdp/gis/polygon.hpp"
#include "gpdp/gis/values.hpp"
#include "gpdp/grid.hpp"

namespace gpdp::gis {

// in_set[k] != 0: grid point k (gpdp::Grid order, first axis fastest) is in the set.
std::vector<Polygon> set_polygons(const std::vector<char>& in_set, const Grid& grid);

// The set {v ≥ level}; NaN values (blank cells outside a mask) are outside. The level must be
// finite.
std::vector<char> excursion_mask(ValuesView values, double level);
std::vector<Polygon> excursion_polygons(ValuesView values, const Grid& grid, double level);

}  // namespace gpdp::gis
