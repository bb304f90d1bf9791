#include "gpdp/gis/web_map.hpp"

#include <fmt/format.h>
#include <gdal_utils.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "gpdp/error.hpp"
#include "gpdp/gis/gdal.hpp"
#include "gpdp/gis/raster_frame.hpp"

namespace gpdp::gis {

namespace {

// Web Mercator (EPSG:3857) metres to degrees: the spherical formulas of its definition.
constexpr double kEarthRadius = 6378137.0;
double longitude(double x) { return x / kEarthRadius * 180.0 / std::numbers::pi; }
double latitude(double y) {
  return (2.0 * std::atan(std::exp(y / kEarthRadius)) - std::numbers::pi / 2) * 180.0 /
         std::numbers::pi;
}

std::string png_of(GDALDataset& raster) {
  GDALDriver* png = GetGDALDriverManager()->GetDriverByName("PNG");
  if (png == nullptr) throw Error("GDAL has no PNG driver");
  const MemFile file(".png");
  const GdalErrors errors;
  GDALDatasetUniquePtr out(
      png->CreateCopy(file.name().c_str(), &raster, FALSE, nullptr, nullptr, nullptr));
  if (!out) throw Error(fmt::format("GDAL could not write the PNG: {}", errors.message()));
  out.reset();
  return file.bytes();
}

// Nearest-neighbour reprojection to Web Mercator, alpha carried (transparent outside the grid),
// `scale` display pixels per grid cell across, so that no cell is lost to the resampling.
GDALDatasetUniquePtr to_web_mercator(GDALDataset& source, long scale) {
  const std::string width = std::to_string(source.GetRasterXSize() * scale);
  const char* args[] = {"-of", "MEM",         "-t_srs", "EPSG:3857", "-r",        "near",
                        "-ts", width.c_str(), "0",      "-srcalpha", "-dstalpha", nullptr};
  GDALWarpAppOptions* options = GDALWarpAppOptionsNew(const_cast<char**>(args), nullptr);
  const GdalErrors errors;
  GDALDatasetH handle = GDALDataset::ToHandle(&source);
  int usage_error = 0;
  GDALDatasetH warped = GDALWarp("", nullptr, 1, &handle, options, &usage_error);
  GDALWarpAppOptionsFree(options);
  if (warped == nullptr)
    throw Error(fmt::format("GDAL could not reproject the map to EPSG:3857: {}", errors.message()));
  return GDALDatasetUniquePtr(GDALDataset::FromHandle(warped));
}

}  // namespace

WebMapImage web_map_image(const Grid& grid, const std::optional<Crs>& crs,
                          const std::vector<Rgba>& colours) {
  const RasterFrame frame = raster_frame(grid);
  require(colours.size() == static_cast<std::size_t>(grid.size()),
          fmt::format("web map: {} colours for {} grid points", colours.size(), grid.size()));
  GDALDatasetUniquePtr raster = memory_raster(frame, 4, GDT_Byte);
  for (int b = 0; b < 4; ++b) {
    std::vector<double> channel(colours.size());
    for (std::size_t i = 0; i < colours.size(); ++i)
      channel[i] = colours[i][static_cast<std::size_t>(b)];
    write_grid_band(*raster, b + 1, frame, channel);
    raster->GetRasterBand(b + 1)->SetColorInterpretation(
        static_cast<GDALColorInterp>(GCI_RedBand + b));  // red, green, blue, alpha
  }
  WebMapImage out;
  std::array<double, 6> g = frame.geotransform;
  if (crs) {
    set_crs(*raster, crs->id());
    const long cells = std::max(frame.columns, frame.rows);
    raster = to_web_mercator(*raster, std::clamp(1024 / cells, 1L, 8L));
    raster->GetGeoTransform(g.data());
    out.lat_lng = true;
  }
  out.width = raster->GetRasterXSize();
  out.height = raster->GetRasterYSize();
  const double x0 = g[0], x1 = g[0] + static_cast<double>(out.width) * g[1];
  const double y1 = g[3], y0 = g[3] + static_cast<double>(out.height) * g[5];
  out.bounds = out.lat_lng
                   ? std::array<double, 4>{latitude(y0), longitude(x0), latitude(y1), longitude(x1)}
                   : std::array<double, 4>{y0, x0, y1, x1};
  out.png = png_of(*raster);
  return out;
}

}  // namespace gpdp::gis
