#include "gpdp/gis/gdal.hpp"

#include <cpl_error.h>
#include <cpl_vsi.h>
#include <fmt/format.h>
#include <ogr_spatialref.h>

#include <array>
#include <atomic>
#include <mutex>

#include "gpdp/error.hpp"

namespace gpdp::gis {

void ensure_gdal() {
  static std::once_flag once;
  std::call_once(once, [] { GDALAllRegister(); });
}

GdalErrors::GdalErrors() {
  CPLPushErrorHandler(CPLQuietErrorHandler);
  CPLErrorReset();
}

GdalErrors::~GdalErrors() { CPLPopErrorHandler(); }

std::string GdalErrors::message() const { return CPLGetLastErrorMsg(); }

GDALDatasetUniquePtr memory_vector_dataset() {
  ensure_gdal();
  GDALDriver* driver = GetGDALDriverManager()->GetDriverByName("Memory");
  if (driver == nullptr) throw Error("GDAL has no Memory vector driver");
  GDALDatasetUniquePtr ds(driver->Create("", 0, 0, 0, GDT_Unknown, nullptr));
  if (!ds)
    throw Error(
        fmt::format("GDAL could not create an in-memory vector dataset: {}", CPLGetLastErrorMsg()));
  return ds;
}

MemFile::MemFile(const std::string& extension) {
  static std::atomic<long> counter{0};
  name_ = fmt::format("/vsimem/gpdp-{}-{}{}", static_cast<const void*>(this), counter++, extension);
}

MemFile::~MemFile() { VSIUnlink(name_.c_str()); }

std::string MemFile::bytes() const {
  vsi_l_offset size = 0;
  const GByte* data = VSIGetMemFileBuffer(name_.c_str(), &size, FALSE);
  if (data == nullptr) throw Error(fmt::format("GDAL wrote nothing to {}", name_));
  return std::string(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size));
}

void set_crs(GDALDataset& raster, const std::string& crs_id) {
  OGRSpatialReference srs;
  srs.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  if (srs.SetFromUserInput(crs_id.c_str()) != OGRERR_NONE || raster.SetSpatialRef(&srs) != CE_None)
    throw Error(fmt::format("GDAL could not attach the CRS {} to the raster", crs_id));
}

GDALDatasetUniquePtr memory_raster(const RasterFrame& frame, int bands, GDALDataType type) {
  ensure_gdal();
  GDALDriver* driver = GetGDALDriverManager()->GetDriverByName("MEM");
  if (driver == nullptr) throw Error("GDAL has no MEM raster driver");
  const GdalErrors errors;
  GDALDatasetUniquePtr ds(driver->Create("", static_cast<int>(frame.columns),
                                         static_cast<int>(frame.rows), bands, type, nullptr));
  if (!ds) {
    throw Error(fmt::format("GDAL could not create a {} × {} raster in memory: {}", frame.columns,
                            frame.rows, errors.message()));
  }
  std::array<double, 6> gt = frame.geotransform;
  ds->SetGeoTransform(gt.data());
  return ds;
}

void write_grid_band(GDALDataset& raster, int band, const RasterFrame& frame, ValuesView values) {
  require(values.size() == static_cast<std::size_t>(frame.columns * frame.rows),
          fmt::format("raster: {} values for {} × {} pixels", values.size(), frame.columns,
                      frame.rows));
  std::vector<double> pixels(values.size());
  for (long row = 0; row < frame.rows; ++row) {
    for (long col = 0; col < frame.columns; ++col) {
      pixels[static_cast<std::size_t>(row * frame.columns + col)] =
          values[static_cast<std::size_t>(frame.node(col, row))];
    }
  }
  const int w = static_cast<int>(frame.columns), h = static_cast<int>(frame.rows);
  const GdalErrors errors;
  if (raster.GetRasterBand(band)->RasterIO(GF_Write, 0, 0, w, h, pixels.data(), w, h, GDT_Float64,
                                           0, 0, nullptr) != CE_None) {
    throw Error(fmt::format("GDAL could not write raster band {}: {}", band, errors.message()));
  }
}

}  // namespace gpdp::gis
