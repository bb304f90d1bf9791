#pragma once
// map.tif: a Cloud-Optimized GeoTIFF (GDAL's COG driver) of fields on a 2-D grid, in the grid's
// raster frame (gis::raster_frame: each grid node the centre of a pixel), float64 bands,
// nodata NaN, the CRS embedded when one is declared, band descriptions and dataset metadata.
// Written in memory (GDAL's /vsimem/) and returned as bytes, like every release output.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/gis/crs.hpp"
#include "gpdp/grid.hpp"

namespace gpdp::gis {

struct RasterBand {
  std::string description;     // e.g. "released value (zinc, log)"
  std::vector<double> values;  // grid order (first axis fastest); NaN = nodata (masked cells)
};

std::string cog_geotiff(const Grid& grid, const std::optional<Crs>& crs,
                        const std::vector<RasterBand>& bands,
                        const std::map<std::string, std::string>& metadata);

}  // namespace gpdp::gis
