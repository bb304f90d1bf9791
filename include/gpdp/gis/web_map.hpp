#pragma once
// A field on a 2-D grid as an image for a web map (the map page of `gpdp serve`, docs/serve.md):
// one RGBA colour per grid node, in the grid's raster frame (each node the centre of a pixel),
// REPROJECTED to Web Mercator (EPSG:3857, the web map's display CRS; nearest neighbour, so each
// display pixel shows the colour of the grid cell it falls in) when the grid has a declared CRS,
// and encoded as PNG (transparent where alpha is 0: masked cells, outside the grid). Display only:
// what the page draws is post-processing of released values.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/gis/crs.hpp"
#include "gpdp/grid.hpp"

namespace gpdp::gis {

using Rgba = std::array<std::uint8_t, 4>;

struct WebMapImage {
  std::string png;
  // With a CRS: {south, west, north, east}, degrees of latitude and longitude of the Web
  // Mercator image's corners (Leaflet's image-overlay bounds). Without one: {ymin, xmin, ymax,
  // xmax} of the grid's raster frame in the grid's own coordinates.
  std::array<double, 4> bounds{};
  bool lat_lng = false;
  long width = 0, height = 0;  // pixels
};

// `colours`: one per grid node, grid order (first axis fastest). InputError for a grid that is not
// 2-D with ≥ 2 points per axis or the wrong number of colours; Error when GDAL fails.
WebMapImage web_map_image(const Grid& grid, const std::optional<Crs>& crs,
                          const std::vector<Rgba>& colours);

}  // namespace gpdp::gis
