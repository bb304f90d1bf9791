#include "gpdp/gis/excursion_polygons.hpp"

#include <fmt/format.h>
#include <gdal_alg.h>
#include <ogr_geometry.h>
#include <ogrsf_frmts.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "gpdp/error.hpp"
#include "gpdp/gis/gdal.hpp"
#include "gpdp/gis/ogr_polygons.hpp"
#include "gpdp/gis/raster_frame.hpp"

namespace gpdp::gis {
namespace {

// The pixels of the set, traced into one MultiPolygon.
OGRMultiPolygon polygonize(const std::vector<char>& in_set, const RasterFrame& f) {
  GDALDatasetUniquePtr raster = memory_raster(f, 1, GDT_Byte);
  write_grid_band(*raster, 1, f, std::vector<double>(in_set.begin(), in_set.end()));
  GDALDatasetUniquePtr vector = memory_vector_dataset();
  OGRLayer* layer = vector->CreateLayer("set", nullptr, wkbPolygon, nullptr);
  OGRFieldDefn field("in_set", OFTInteger);
  if (layer == nullptr || layer->CreateField(&field) != OGRERR_NONE)
    throw Error("GDAL could not create an in-memory layer");
  GDALRasterBand* band = raster->GetRasterBand(1);
  const GdalErrors errors;
  // The band is its own mask: only pixels in the set are traced.
  if (GDALPolygonize(band, band, OGRLayer::ToHandle(layer), 0, nullptr, nullptr, nullptr) !=
      CE_None) {
    throw Error(fmt::format("GDAL could not trace the excursion set: {}", errors.message()));
  }
  OGRMultiPolygon all;
  for (const auto& feature : *layer) {
    if (const OGRGeometry* g = feature->GetGeometryRef()) all.addGeometry(g);
  }
  return all;
}

}  // namespace

std::vector<Polygon> set_polygons(const std::vector<char>& in_set, const Grid& grid) {
  const RasterFrame frame = raster_frame(grid);
  require(in_set.size() == static_cast<std::size_t>(grid.size()),
          fmt::format("excursion polygons: {} set flags for a grid of {} points", in_set.size(),
                      grid.size()));
  if (std::none_of(in_set.begin(), in_set.end(), [](char c) { return c != 0; })) return {};
  const OGRMultiPolygon traced = polygonize(in_set, frame);
  const GdalErrors errors;
  if (traced.IsValid()) return from_ogr(traced);
  const std::unique_ptr<OGRGeometry> valid(traced.MakeValid());
  if (valid == nullptr || !valid->IsValid()) {
    throw Error(
        fmt::format("GEOS could not make the excursion polygons valid: {}", errors.message()));
  }
  return from_ogr(*valid);
}

std::vector<char> excursion_mask(ValuesView values, double level) {
  require(std::isfinite(level), "excursion set: the level must be finite");
  std::vector<char> in(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) in[k] = values[k] >= level ? 1 : 0;
  return in;
}

std::vector<Polygon> excursion_polygons(ValuesView values, const Grid& grid, double level) {
  return set_polygons(excursion_mask(values, level), grid);
}

}  // namespace gpdp::gis
