// The released map as a web-map image (gis/web_map.hpp): read back by GDAL, every grid node's
// colour is where the node is — in the grid's own frame without a CRS, and after the reprojection
// to Web Mercator (checked at each node's longitude/latitude, computed by PROJ independently of the
// warp) with one; masked cells and the outside are transparent.
#include <gdal_priv.h>
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "gpdp/error.hpp"
#include "gpdp/gis/crs.hpp"
#include "gpdp/gis/gdal.hpp"
#include "gpdp/gis/web_map.hpp"

namespace gpdp::gis {
namespace {

// A colour per node that encodes its index (alpha 0 on every seventh node: "masked").
std::vector<Rgba> index_colours(const Grid& grid) {
  std::vector<Rgba> c(static_cast<std::size_t>(grid.size()));
  for (std::size_t i = 0; i < c.size(); ++i) {
    c[i] = {static_cast<std::uint8_t>(i % 251), static_cast<std::uint8_t>(i / 251),
            static_cast<std::uint8_t>(40 + i % 3), static_cast<std::uint8_t>(i % 7 ? 255 : 0)};
  }
  return c;
}

struct Decoded {
  GDALDatasetUniquePtr ds;
  Rgba at(long col, long row) const {
    Rgba out{};
    for (int b = 0; b < 4; ++b) {
      GByte v = 0;
      EXPECT_EQ(
          ds->GetRasterBand(b + 1)->RasterIO(GF_Read, static_cast<int>(col), static_cast<int>(row),
                                             1, 1, &v, 1, 1, GDT_Byte, 0, 0, nullptr),
          CE_None);
      out[static_cast<std::size_t>(b)] = v;
    }
    return out;
  }
};

Decoded decode(const WebMapImage& image, const MemFile& file) {
  ensure_gdal();
  VSILFILE* f = VSIFileFromMemBuffer(file.name().c_str(),
                                     reinterpret_cast<GByte*>(const_cast<char*>(image.png.data())),
                                     static_cast<vsi_l_offset>(image.png.size()), FALSE);
  VSIFCloseL(f);
  Decoded d{GDALDatasetUniquePtr(GDALDataset::Open(file.name().c_str(), GDAL_OF_RASTER))};
  EXPECT_TRUE(d.ds);
  EXPECT_EQ(d.ds->GetRasterCount(), 4);
  EXPECT_EQ(d.ds->GetRasterXSize(), image.width);
  EXPECT_EQ(d.ds->GetRasterYSize(), image.height);
  return d;
}

TEST(WebMap, WithoutACrsEveryNodeIsItsOwnPixel) {
  const Grid grid = Grid::parse("0:2:9,10:13:7");
  const auto colours = index_colours(grid);
  const WebMapImage image = web_map_image(grid, std::nullopt, colours);
  EXPECT_FALSE(image.lat_lng);
  EXPECT_EQ(image.width, 9);
  EXPECT_EQ(image.height, 7);
  // Pixel-is-area frame: half a step beyond the outer nodes.
  EXPECT_DOUBLE_EQ(image.bounds[0], 10.0 - 0.25);
  EXPECT_DOUBLE_EQ(image.bounds[1], 0.0 - 0.125);
  EXPECT_DOUBLE_EQ(image.bounds[2], 13.0 + 0.25);
  EXPECT_DOUBLE_EQ(image.bounds[3], 2.0 + 0.125);
  const MemFile file(".png");
  const Decoded d = decode(image, file);
  for (long j = 0; j < 7; ++j) {
    for (long i = 0; i < 9; ++i) {
      const Rgba want = colours[static_cast<std::size_t>(j * 9 + i)];
      const Rgba got = d.at(i, 6 - j);  // row 0 is the top (largest y)
      EXPECT_EQ(got[3], want[3]) << i << "," << j;
      if (want[3] != 0) {
        EXPECT_EQ(got, want) << i << "," << j;
      }
    }
  }
  EXPECT_THROW(web_map_image(grid, std::nullopt, std::vector<Rgba>(3)), InputError);
}

TEST(WebMap, ReprojectedToWebMercatorEachNodeKeepsItsColourAtItsLongitudeLatitude) {
  // A 2 km grid in RD New (EPSG:28992) over the Meuse floodplain.
  const Grid grid = Grid::parse("178500:180500:21,330000:332000:17");
  const auto colours = index_colours(grid);
  const Crs rd = Crs::parse("EPSG:28992");
  const WebMapImage image = web_map_image(grid, rd, colours);
  ASSERT_TRUE(image.lat_lng);
  const Points lonlat = Transformer(rd, Crs::parse("EPSG:4326")).apply(grid.points(), "nodes");
  const double south = image.bounds[0], west = image.bounds[1], north = image.bounds[2],
               east = image.bounds[3];
  EXPECT_LT(south, lonlat.col(1).minCoeff());
  EXPECT_GT(north, lonlat.col(1).maxCoeff());
  EXPECT_LT(west, lonlat.col(0).minCoeff());
  EXPECT_GT(east, lonlat.col(0).maxCoeff());
  // The node's pixel in the Web Mercator image (spherical formulas of EPSG:3857).
  auto mercator_y = [](double lat) {
    return std::log(std::tan(std::numbers::pi / 4 + lat * std::numbers::pi / 360));
  };
  const MemFile file(".png");
  const Decoded d = decode(image, file);
  long checked = 0;
  for (Eigen::Index k = 0; k < lonlat.rows(); ++k) {
    const double u = (lonlat(k, 0) - west) / (east - west) * static_cast<double>(image.width);
    const double v = (mercator_y(north) - mercator_y(lonlat(k, 1))) /
                     (mercator_y(north) - mercator_y(south)) * static_cast<double>(image.height);
    const Rgba want = colours[static_cast<std::size_t>(k)];
    const Rgba got = d.at(static_cast<long>(u), static_cast<long>(v));
    EXPECT_EQ(got[3], want[3]) << k;
    if (want[3] != 0) {
      EXPECT_EQ(got, want) << k;
      ++checked;
    }
  }
  EXPECT_GT(checked, 300);
  // Outside the grid: transparent.
  EXPECT_EQ(d.at(0, 0)[3], 0);
}

}  // namespace
}  // namespace gpdp::gis
