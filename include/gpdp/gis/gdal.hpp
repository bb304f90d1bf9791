#pragma once
// GDAL plumbing shared by the GIS code (excursion polygons, rasters, coordinate systems): the
// drivers registered once, GDAL's error messages captured for our exceptions instead of printed on
// stderr, and in-memory datasets.
#include <gdal_priv.h>

#include <string>
#include <vector>

#include "gpdp/gis/raster_frame.hpp"
#include "gpdp/gis/values.hpp"

namespace gpdp::gis {

// GDALAllRegister(), once per process (thread-safe).
void ensure_gdal();

// While alive, GDAL errors raised on this thread are kept (not printed); message() is the last one.
class GdalErrors {
 public:
  GdalErrors();
  ~GdalErrors();
  GdalErrors(const GdalErrors&) = delete;
  GdalErrors& operator=(const GdalErrors&) = delete;
  std::string message() const;  // "" when GDAL reported nothing
};

// An empty in-memory vector dataset (GDAL's "Memory" driver); throws Error if GDAL cannot make one.
GDALDatasetUniquePtr memory_vector_dataset();

// A /vsimem/ file (GDAL's in-memory file system) with a unique name ending in `extension`,
// removed when the object dies; bytes() reads what GDAL wrote to it.
class MemFile {
 public:
  explicit MemFile(const std::string& extension);
  ~MemFile();
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  const std::string& name() const { return name_; }
  std::string bytes() const;

 private:
  std::string name_;
};

// Attaches `crs` (AUTH:CODE, traditional GIS axis order) to a raster; Error when GDAL refuses.
void set_crs(GDALDataset& raster, const std::string& crs_id);

// A north-up in-memory raster in `frame` with `bands` bands of `type`, georeferenced by the
// frame's geotransform (no CRS).
GDALDatasetUniquePtr memory_raster(const RasterFrame& frame, int bands, GDALDataType type);
// Writes a field given in grid order (first axis fastest, y increasing) into band `band`
// (1-based) of a raster in `frame` (rows top-down); values are converted to the band's type.
void write_grid_band(GDALDataset& raster, int band, const RasterFrame& frame, ValuesView values);

}  // namespace gpdp::gis
