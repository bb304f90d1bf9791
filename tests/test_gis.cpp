// The GIS layer: CRS parsing and the modelling CRS (PROJ), map.tif read back by GDAL (CRS,
// geotransform, nodata, band values at grid nodes), and RFC 7946 GeoJSON (structure, validity,
// round trip through PROJ to the native polygons).
#include <gdal_priv.h>
#include <gtest/gtest.h>
#include <ogr_spatialref.h>

#include <cmath>
#include <fstream>

#include "gpdp/error.hpp"
#include "gpdp/gis/crs.hpp"
#include "gpdp/gis/excursion_polygons.hpp"
#include "gpdp/gis/gdal.hpp"
#include "gpdp/gis/geo_frame.hpp"
#include "gpdp/gis/geotiff.hpp"
#include "gpdp/gis/raster_frame.hpp"
#include "gpdp/gis/rfc7946.hpp"
#include "support/paths.hpp"
#include "support/rfc7946_check.hpp"

namespace gpdp::gis {
namespace {

TEST(Crs, ParsesProjectedAndGeographicAndRefusesTheRest) {
  const Crs rd = Crs::parse("EPSG:28992");
  EXPECT_FALSE(rd.geographic());
  EXPECT_EQ(rd.unit(), "metre");
  EXPECT_NE(rd.name().find("RD New"), std::string::npos);
  EXPECT_TRUE(Crs::parse("EPSG:4326").geographic());
  EXPECT_THROW(Crs::parse("28992"), InputError);          // not AUTH:CODE
  EXPECT_THROW(Crs::parse("EPSG:99999999"), InputError);  // unknown
  EXPECT_THROW(Crs::parse("+proj=longlat"), InputError);  // not AUTH:CODE
  EXPECT_THROW(Crs::parse("EPSG:4979"), InputError);      // 3-D geographic
  EXPECT_THROW(Crs::parse("EPSG:5703"), InputError);      // vertical
  EXPECT_THROW(Crs::parse("EPSG:4978"), InputError);      // geocentric
  EXPECT_THROW(Crs::parse("EPSG:7415"), InputError);      // compound (RD New + NAP height)
}

TEST(Crs, ModelCrsIsTheUtmZoneOfTheDeclaredDomainsCentre) {
  EXPECT_EQ(utm_crs_for(Box::parse("-93.70:-93.57,41.98:42.07")).id(), "EPSG:32615");
  EXPECT_EQ(utm_crs_for(Box::parse("5.7:5.8,50.9:51.0")).id(), "EPSG:32631");
  EXPECT_EQ(utm_crs_for(Box::parse("151:151.3,-34:-33.8")).id(), "EPSG:32756");  // Sydney
  EXPECT_THROW(utm_crs_for(Box::parse("178000:181000,329000:333000")), InputError);
}

TEST(Transformer, LonLatOrderRoundTripAndRefusals) {
  const Crs ll = Crs::parse("EPSG:4326"), rd = Crs::parse("EPSG:28992");
  // The Amersfoort origin of RD New: (155000, 463000) m is about 5.3876° E, 52.1552° N.
  Points p(1, 2);
  p << 155000, 463000;
  const Points q = Transformer(rd, ll).apply(p, "test");
  EXPECT_NEAR(q(0, 0), 5.38721, 1e-4);  // longitude first, whatever EPSG:4326's axis order
  EXPECT_NEAR(q(0, 1), 52.15517, 1e-4);
  const Points back = Transformer(ll, rd).apply(q, "test");
  EXPECT_NEAR(back(0, 0), 155000, 1e-3);
  EXPECT_NEAR(back(0, 1), 463000, 1e-3);
  const Box b = Transformer(ll, utm_crs_for(Box::parse("5.7:5.8,50.9:51.0")))
                    .bounds(Box::parse("5.7:5.8,50.9:51.0"), "domain");
  // 0.1° of longitude at 51° N is 7.0 km; the box holding its (slightly rotated) UTM image is a
  // little wider.
  EXPECT_GT(b.upper()(0) - b.lower()(0), 7000);
  EXPECT_LT(b.upper()(0) - b.lower()(0), 7600);
  Points beyond(1, 2);
  beyond << 5.0, 95.0;  // no latitude 95°
  EXPECT_THROW(Transformer(ll, rd).apply(beyond, "query points"), InputError);
  EXPECT_THROW(Transformer(ll, rd).bounds(Box::parse("0:1,95:96"), "domain"), InputError);
}

TEST(GeoTiff, GdalReadsBackCrsGeotransformNodataAndValues) {
  const Grid grid({{178460, 181540, 78}, {329620, 333740, 104}});  // the Meuse demo's grid
  std::vector<double> value(static_cast<std::size_t>(grid.size())), in(value.size());
  for (std::size_t k = 0; k < value.size(); ++k) {
    value[k] = k % 7 == 0 ? std::nan("") : 0.25 * static_cast<double>(k % 50) - 3.0;
    in[k] = std::isnan(value[k]) ? std::nan("") : value[k] >= 0 ? 1.0 : 0.0;
  }
  const std::string bytes =
      cog_geotiff(grid, Crs::parse("EPSG:28992"),
                  {{"released value", value}, {"in_set (1 = in the released set)", in}},
                  {{"GPDP_RELEASE_UID", "abc123"}});
  test::TempDir dir;
  const std::string path = dir.file("map.tif");
  std::ofstream(path, std::ios::binary) << bytes;
  ensure_gdal();
  GDALDatasetUniquePtr ds(GDALDataset::Open(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY));
  ASSERT_TRUE(ds);
  EXPECT_STREQ(ds->GetDriver()->GetDescription(), "GTiff");
  EXPECT_STREQ(ds->GetMetadataItem("LAYOUT", "IMAGE_STRUCTURE"), "COG");
  EXPECT_STREQ(ds->GetMetadataItem("GPDP_RELEASE_UID"), "abc123");
  const OGRSpatialReference* srs = ds->GetSpatialRef();
  ASSERT_NE(srs, nullptr);
  EXPECT_STREQ(srs->GetAuthorityCode(nullptr), "28992");
  double gt[6];
  ASSERT_EQ(ds->GetGeoTransform(gt), CE_None);
  const auto frame = gis::raster_frame(grid);
  for (int k = 0; k < 6; ++k)
    EXPECT_DOUBLE_EQ(gt[k], frame.geotransform[static_cast<std::size_t>(k)]);
  EXPECT_DOUBLE_EQ(gt[0], 178440.0);  // half a 40 m cell left of the first node
  EXPECT_DOUBLE_EQ(gt[3], 333760.0);
  ASSERT_EQ(ds->GetRasterCount(), 2);
  EXPECT_STREQ(ds->GetRasterBand(1)->GetDescription(), "released value");
  int has_nodata = 0;
  EXPECT_TRUE(std::isnan(ds->GetRasterBand(1)->GetNoDataValue(&has_nodata)));
  EXPECT_TRUE(has_nodata);
  // The pixel holding grid node (i, j): column (x − gt0)/gt1, row (y − gt3)/gt5, rounded down.
  const Points nodes = grid.points();
  for (Eigen::Index k = 0; k < nodes.rows(); k += 37) {
    const int col = static_cast<int>(std::floor((nodes(k, 0) - gt[0]) / gt[1]));
    const int row = static_cast<int>(std::floor((nodes(k, 1) - gt[3]) / gt[5]));
    double px[2];
    for (int b = 0; b < 2; ++b) {
      ASSERT_EQ(ds->GetRasterBand(b + 1)->RasterIO(GF_Read, col, row, 1, 1, &px[b], 1, 1,
                                                   GDT_Float64, 0, 0, nullptr),
                CE_None);
    }
    const auto s = static_cast<std::size_t>(k);
    if (std::isnan(value[s])) {
      EXPECT_TRUE(std::isnan(px[0]) && std::isnan(px[1])) << k;
    } else {
      EXPECT_EQ(px[0], value[s]) << k;
      EXPECT_EQ(px[1], in[s]) << k;
    }
  }
}

TEST(Rfc7946, MeuseLikePolygonsAreValidLonLatAndRoundTripToTheNativePolygons) {
  // An annulus with a one-pixel island in its hole, on the Meuse demo's RD New grid.
  const Grid grid({{178460, 181540, 78}, {329620, 333740, 104}});
  std::vector<double> v;
  const Points nodes = grid.points();
  for (Eigen::Index k = 0; k < nodes.rows(); ++k) {
    const double r = std::hypot(nodes(k, 0) - 180000, nodes(k, 1) - 331700);
    v.push_back(r < 30 ? 1.0 : std::abs(r - 900) < 400 ? 1.0 : -1.0);
  }
  const auto native = gis::excursion_polygons(v, grid, 0.0);
  ASSERT_EQ(native.size(), 2u);
  const Crs rd = Crs::parse("EPSG:28992");
  const nlohmann::json fc = rfc7946_feature_collection(native, rd, {{"level", 0}});
  EXPECT_EQ(test::rfc7946_failure(fc), "");
  EXPECT_FALSE(fc.contains("crs"));
  // On the Meuse east of Stein: about 5.72–5.77° E, 50.95–50.99° N.
  const auto& bbox = fc["bbox"];
  EXPECT_GT(bbox[0].get<double>(), 5.70);
  EXPECT_LT(bbox[2].get<double>(), 5.78);
  EXPECT_GT(bbox[1].get<double>(), 50.94);
  EXPECT_LT(bbox[3].get<double>(), 51.0);
  // Back through PROJ: every vertex within 5 cm of a native vertex (rounding to 1e-7° is at most
  // 0.8 cm in longitude and 0.6 cm in latitude here; PROJ's round trip adds micrometres).
  const auto ll = test::polygons_of(fc["features"][0]["geometry"]);
  const Transformer back(Crs::parse("EPSG:4326"), rd);
  ASSERT_EQ(ll.size(), native.size());
  for (std::size_t p = 0; p < ll.size(); ++p) {
    ASSERT_EQ(ll[p].holes.size(), native[p].holes.size());
    Points xy(static_cast<Eigen::Index>(ll[p].outer.size()), 2);
    for (std::size_t k = 0; k < ll[p].outer.size(); ++k)
      xy.row(static_cast<Eigen::Index>(k)) << ll[p].outer[k].x, ll[p].outer[k].y;
    const Points rdxy = back.apply(xy, "test");
    for (Eigen::Index k = 0; k < rdxy.rows(); ++k) {
      double best = INFINITY;
      for (const auto& q : native[p].outer)
        best = std::min(best, std::hypot(q.x - rdxy(k, 0), q.y - rdxy(k, 1)));
      EXPECT_LT(best, 0.05) << "polygon " << p << " vertex " << k;
    }
    EXPECT_EQ(ll[p].outer.size(), native[p].outer.size());
  }
}

TEST(GeoFrame, ProjectedAsIsGeographicToUtmOfTheDomainAndClearRefusals) {
  const GeoFrame rd("EPSG:28992", "", Box::parse("178440:181560,329600:333760"));
  EXPECT_FALSE(rd.reprojects());
  EXPECT_EQ(rd.model().id(), "EPSG:28992");
  EXPECT_EQ(rd.model_domain().to_string(), Box::parse("178440:181560,329600:333760").to_string());
  const GeoFrame ll("EPSG:4326", "", Box::parse("-93.70:-93.57,41.98:42.07"));
  EXPECT_TRUE(ll.reprojects());
  EXPECT_EQ(ll.model().id(), "EPSG:32615");
  EXPECT_EQ(ll.to_json()["model_rule"], "the WGS 84 UTM zone of the centre of the declared domain");
  Points corner(1, 2);
  corner << -93.70, 41.98;
  const Points m = ll.to_model(corner, "test");
  EXPECT_TRUE(ll.model_domain().contains(m.row(0).transpose()));
  EXPECT_EQ(GeoFrame("EPSG:4326", "EPSG:26915", Box::parse("-93.7:-93.5,41.9:42.1")).model().id(),
            "EPSG:26915");  // --model-crs: NAD83 / UTM 15N
  EXPECT_THROW(GeoFrame("EPSG:28992", "EPSG:32631", Box::parse("0:1,0:1")), InputError);
  EXPECT_THROW(GeoFrame("EPSG:4326", "EPSG:4258", Box::parse("5:6,50:51")), InputError);
  EXPECT_THROW(GeoFrame("EPSG:4326", "", Box::parse("5:6")), InputError);        // 1-D domain
  EXPECT_THROW(GeoFrame("EPSG:4326", "", Box::parse("5:6,89:95")), InputError);  // no latitude 95
  EXPECT_THROW(GeoFrame("EPSG:4979", "", Box::parse("5:6,50:51")), InputError);  // 3-D CRS
}

}  // namespace
}  // namespace gpdp::gis
