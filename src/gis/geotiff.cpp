#include "gpdp/gis/geotiff.hpp"

#include <cpl_vsi.h>
#include <fmt/format.h>
#include <ogr_spatialref.h>

#include <atomic>
#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/geometry/raster_frame.hpp"
#include "gpdp/gis/gdal.hpp"

namespace gpdp::gis {
namespace {

// A /vsimem/ file removed when the object dies.
class MemFile {
 public:
  MemFile() {
    static std::atomic<long> counter{0};
    name_ = fmt::format("/vsimem/gpdp-map-{}-{}.tif", static_cast<const void*>(this), counter++);
  }
  ~MemFile() { VSIUnlink(name_.c_str()); }
  MemFile(const MemFile&) = delete;
  MemFile& operator=(const MemFile&) = delete;
  const std::string& name() const { return name_; }
  std::string bytes() const {
    vsi_l_offset size = 0;
    const GByte* data = VSIGetMemFileBuffer(name_.c_str(), &size, FALSE);
    if (data == nullptr) throw Error("GDAL wrote no GeoTIFF");
    return std::string(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size));
  }

 private:
  std::string name_;
};

void set_crs(GDALDataset& ds, const Crs& crs) {
  OGRSpatialReference srs;
  srs.SetAxisMappingStrategy(OAMS_TRADITIONAL_GIS_ORDER);
  if (srs.SetFromUserInput(crs.id().c_str()) != OGRERR_NONE || ds.SetSpatialRef(&srs) != CE_None)
    throw Error(fmt::format("GDAL could not attach the CRS {} to the raster", crs.id()));
}

}  // namespace

std::string cog_geotiff(const Grid& grid, const std::optional<Crs>& crs,
                        const std::vector<RasterBand>& bands,
                        const std::map<std::string, std::string>& metadata) {
  const geometry::RasterFrame frame = geometry::raster_frame(grid);
  require(!bands.empty(), "GeoTIFF: needs at least one band");
  GDALDatasetUniquePtr mem = memory_raster(frame, static_cast<int>(bands.size()), GDT_Float64);
  if (crs) set_crs(*mem, *crs);
  for (std::size_t b = 0; b < bands.size(); ++b) {
    const int index = static_cast<int>(b) + 1;
    write_grid_band(*mem, index, frame, bands[b].values);
    GDALRasterBand* band = mem->GetRasterBand(index);
    band->SetNoDataValue(std::nan(""));
    band->SetDescription(bands[b].description.c_str());
  }
  for (const auto& [key, value] : metadata) mem->SetMetadataItem(key.c_str(), value.c_str());
  GDALDriver* cog = GetGDALDriverManager()->GetDriverByName("COG");
  if (cog == nullptr) throw Error("GDAL has no COG driver (GDAL ≥ 3.1 is needed)");
  const MemFile file;
  const char* options[] = {"COMPRESS=DEFLATE", "PREDICTOR=YES", "RESAMPLING=NEAREST", nullptr};
  const GdalErrors errors;
  GDALDatasetUniquePtr out(cog->CreateCopy(file.name().c_str(), mem.get(), FALSE,
                                           const_cast<char**>(options), nullptr, nullptr));
  if (!out) throw Error(fmt::format("GDAL could not write the GeoTIFF: {}", errors.message()));
  out.reset();  // flush and close before reading the bytes
  return file.bytes();
}

}  // namespace gpdp::gis
