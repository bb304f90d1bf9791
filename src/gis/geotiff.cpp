#include "gpdp/gis/geotiff.hpp"

#include <fmt/format.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/gis/gdal.hpp"
#include "gpdp/gis/raster_frame.hpp"

namespace gpdp::gis {

std::string cog_geotiff(const Grid& grid, const std::optional<Crs>& crs,
                        const std::vector<RasterBand>& bands,
                        const std::map<std::string, std::string>& metadata) {
  const RasterFrame frame = raster_frame(grid);
  require(!bands.empty(), "GeoTIFF: needs at least one band");
  GDALDatasetUniquePtr mem = memory_raster(frame, static_cast<int>(bands.size()), GDT_Float64);
  if (crs) set_crs(*mem, crs->id());
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
  const MemFile file(".tif");
  const char* options[] = {"COMPRESS=DEFLATE", "PREDICTOR=YES", "RESAMPLING=NEAREST", nullptr};
  const GdalErrors errors;
  GDALDatasetUniquePtr out(cog->CreateCopy(file.name().c_str(), mem.get(), FALSE,
                                           const_cast<char**>(options), nullptr, nullptr));
  if (!out) throw Error(fmt::format("GDAL could not write the GeoTIFF: {}", errors.message()));
  out.reset();  // flush and close before reading the bytes
  return file.bytes();
}

}  // namespace gpdp::gis
