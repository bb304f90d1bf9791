#include "gpdp/gis/contour_lines.hpp"

#include <fmt/format.h>
#include <gdal_alg.h>
#include <ogrsf_frmts.h>

#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/gis/gdal.hpp"
#include "gpdp/gis/raster_frame.hpp"

namespace gpdp::gis {
namespace {

void collect(const OGRGeometry& g, std::vector<Polyline>& out) {
  const auto type = wkbFlatten(g.getGeometryType());
  if (type == wkbMultiLineString || type == wkbGeometryCollection) {
    for (const OGRGeometry* part : *g.toGeometryCollection()) collect(*part, out);
    return;
  }
  if (type != wkbLineString) return;
  const OGRLineString& line = *g.toLineString();
  Polyline l;
  for (int k = 0; k < line.getNumPoints(); ++k) l.points.push_back({line.getX(k), line.getY(k)});
  if (l.points.size() > 2 && l.points.front().x == l.points.back().x &&
      l.points.front().y == l.points.back().y) {
    l.points.pop_back();
    l.closed = true;
  }
  if (l.points.size() >= 2) out.push_back(std::move(l));
}

}  // namespace

std::vector<Polyline> contour_lines(ValuesView values, const Grid& grid, double level) {
  const RasterFrame frame = raster_frame(grid);
  require(
      values.size() == static_cast<std::size_t>(grid.size()),
      fmt::format("contour lines: {} values for a grid of {} points", values.size(), grid.size()));
  require(std::isfinite(level), "contour lines: the level must be finite");
  // Blank cells become GDAL's nodata: contours stop at their edge.
  const double blank = std::numeric_limits<double>::lowest();
  std::vector<double> v = values.to_vector();
  for (double& x : v) {
    if (!std::isfinite(x)) x = blank;
  }
  GDALDatasetUniquePtr raster = memory_raster(frame, 1, GDT_Float64);
  write_grid_band(*raster, 1, frame, v);
  GDALDatasetUniquePtr vector = memory_vector_dataset();
  OGRLayer* layer = vector->CreateLayer("contour", nullptr, wkbLineString, nullptr);
  if (layer == nullptr) throw Error("GDAL could not create an in-memory layer");
  const std::string levels = fmt::format("FIXED_LEVELS={:.17g}", level);
  const std::string nodata = fmt::format("NODATA={:.17g}", blank);
  const char* options[] = {levels.c_str(), nodata.c_str(), nullptr};
  const GdalErrors errors;
  if (GDALContourGenerateEx(raster->GetRasterBand(1), OGRLayer::ToHandle(layer), options, nullptr,
                            nullptr) != CE_None) {
    throw Error(fmt::format("GDAL could not trace the contour at {}: {}", level, errors.message()));
  }
  std::vector<Polyline> out;
  for (const auto& feature : *layer) {
    if (const OGRGeometry* g = feature->GetGeometryRef()) collect(*g, out);
  }
  return out;
}

}  // namespace gpdp::gis
