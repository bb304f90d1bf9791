// gpdp release / query with --crs, through the CLI: map.tif read back by GDAL (CRS, geotransform,
// nodata, the value at each grid node's pixel equal to draws.csv's), excursion.geojson RFC 7946
// (lon/lat, closed rings, right-hand rule, valid) and back through PROJ onto the grid's pixel
// edges, a geographic CRS modelled in the UTM zone of the domain, query points in another CRS
// transformed, and bad CRSs refused before anything is drawn, written or recorded.
#include <fmt/format.h>
#include <gdal_priv.h>
#include <gtest/gtest.h>
#include <ogr_spatialref.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>

#include "gpdp/gis/crs.hpp"
#include "gpdp/gis/gdal.hpp"
#include "gpdp/gis/raster_frame.hpp"
#include "gpdp/io/csv.hpp"
#include "support/excursion_check.hpp"
#include "support/paths.hpp"
#include "support/rfc7946_check.hpp"

namespace gpdp {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// 60 records in the Meuse demo's RD New box (EPSG:28992, metres), responses in [-1, 1].
std::string rd_csv() {
  std::mt19937_64 gen(3);  // test data only
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::string csv = "x,y,v\n";
  for (int i = 0; i < 60; ++i)
    csv +=
        fmt::format("{},{},{}\n", 178500 + 3000 * u(gen), 329700 + 4000 * u(gen), 2 * u(gen) - 1);
  return csv;
}

const Grid kGrid({{178460, 181540, 12}, {329620, 333740, 15}});
const std::string kRelease =
    "release --x x,y --y v --domain 178440:181560,329600:333760 --kernel exp --ell 300 --sigma 1 "
    "--r 2 --grid2d 178460:181540:12,329620:333740:15 --threshold 0 --delta 1e-3 "
    "--insecure-seed 4 --dataset gis ";

TEST(CliGis, ProjectedCrsMapTifAndRfc7946GeoJson) {
  test::TempDir dir;
  test::write_text(dir.file("d.csv"), rd_csv());
  const auto r = test::run_cli(kRelease + "--crs EPSG:28992 --data " + dir.file("d.csv") +
                               " --ledger " + dir.file("l.sqlite") + " --out " + dir.file("out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json cert = json::parse(test::read_text(dir.file("out/certificate.json")));
  EXPECT_EQ(cert["crs"]["declared"], "EPSG:28992");
  EXPECT_EQ(cert["crs"]["model"], "EPSG:28992");
  bool listed = false;
  for (const auto& o : cert["outputs"]) listed = listed || o["file"] == "map.tif";
  EXPECT_TRUE(listed);
  // map.tif through GDAL.
  gis::ensure_gdal();
  GDALDatasetUniquePtr ds(GDALDataset::Open(dir.file("out/map.tif").c_str(), GDAL_OF_RASTER));
  ASSERT_TRUE(ds);
  EXPECT_STREQ(ds->GetMetadataItem("LAYOUT", "IMAGE_STRUCTURE"), "COG");
  EXPECT_EQ(ds->GetMetadataItem("GPDP_RELEASE_UID"), cert["release_uid"].get<std::string>());
  ASSERT_NE(ds->GetSpatialRef(), nullptr);
  EXPECT_STREQ(ds->GetSpatialRef()->GetAuthorityCode(nullptr), "28992");
  double gt[6];
  ASSERT_EQ(ds->GetGeoTransform(gt), CE_None);
  const auto frame = gis::raster_frame(kGrid);
  for (int k = 0; k < 6; ++k)
    EXPECT_DOUBLE_EQ(gt[k], frame.geotransform[static_cast<std::size_t>(k)]);
  ASSERT_EQ(ds->GetRasterCount(), 2);  // value, in_set
  int has = 0;
  EXPECT_TRUE(std::isnan(ds->GetRasterBand(1)->GetNoDataValue(&has)) && has);
  const auto table = io::read_csv(dir.file("out/draws.csv"));
  const Eigen::MatrixXd d = table.numeric({"x", "y", "value_1", "in_set"});
  std::vector<char> in_set;
  for (Eigen::Index i = 0; i < d.rows(); ++i) {
    const int col = static_cast<int>(std::floor((d(i, 0) - gt[0]) / gt[1]));
    const int row = static_cast<int>(std::floor((d(i, 1) - gt[3]) / gt[5]));
    double px[2];
    for (int b = 0; b < 2; ++b)
      ASSERT_EQ(ds->GetRasterBand(b + 1)->RasterIO(GF_Read, col, row, 1, 1, &px[b], 1, 1,
                                                   GDT_Float64, 0, 0, nullptr),
                CE_None);
    EXPECT_EQ(px[0], d(i, 2)) << "node " << i;  // the released value, bit for bit
    EXPECT_EQ(px[1], d(i, 3)) << "node " << i;
    in_set.push_back(d(i, 3) != 0);
  }
  // excursion.geojson: RFC 7946; back in RD New every vertex is within 5 cm of a pixel corner, and
  // the polygons on those corners hold exactly the in-set nodes of draws.csv.
  const json fc = json::parse(test::read_text(dir.file("out/excursion.geojson")));
  EXPECT_EQ(test::rfc7946_failure(fc), "");
  auto ll = test::polygons_of(fc["features"][0]["geometry"]);
  const gis::Transformer back(gis::Crs::parse("EPSG:4326"), gis::Crs::parse("EPSG:28992"));
  for (auto& p : ll) {
    for (auto* ring : [&] {
           std::vector<gis::Ring*> rs{&p.outer};
           for (auto& h : p.holes) rs.push_back(&h);
           return rs;
         }()) {
      Points xy(static_cast<Eigen::Index>(ring->size()), 2);
      for (std::size_t k = 0; k < ring->size(); ++k)
        xy.row(static_cast<Eigen::Index>(k)) << (*ring)[k].x, (*ring)[k].y;
      const Points rd = back.apply(xy, "test");
      for (std::size_t k = 0; k < ring->size(); ++k) {
        const auto e = static_cast<Eigen::Index>(k);
        // Within 5 cm of a pixel corner (rounding to 1e-7° is below 1 cm here).
        EXPECT_LT(std::abs(std::remainder(rd(e, 0) - gt[0], gt[1])), 0.05);
        EXPECT_LT(std::abs(std::remainder(rd(e, 1) - gt[3], gt[5])), 0.05);
        (*ring)[k] = {gt[0] + std::round((rd(e, 0) - gt[0]) / gt[1]) * gt[1],  // that corner
                      gt[3] + std::round((rd(e, 1) - gt[3]) / gt[5]) * gt[5]};
      }
    }
  }
  EXPECT_EQ(test::excursion_polygon_failure(in_set, kGrid, ll), "");
}

TEST(CliGis, GeographicCrsIsModelledInTheUtmZoneOfTheDomainAndQueriesTransform) {
  test::TempDir dir;
  // The same records in WGS 84 lon/lat (via PROJ), declared EPSG:4326.
  const auto rd = io::parse_csv(rd_csv(), "rd");
  const Points xy = rd.numeric({"x", "y"});
  const Points ll = gis::Transformer(gis::Crs::parse("EPSG:28992"), gis::Crs::parse("EPSG:4326"))
                        .apply(xy, "test");
  std::string csv = "lon,lat,v\n";
  for (Eigen::Index i = 0; i < ll.rows(); ++i)
    csv += fmt::format("{},{},{}\n", ll(i, 0), ll(i, 1), rd.rows[static_cast<std::size_t>(i)][2]);
  test::write_text(dir.file("ll.csv"), csv);
  const std::string base =
      "release --data " + dir.file("ll.csv") +
      " --x lon,lat --y v --domain 5.70:5.80,50.94:51.00 --crs EPSG:4326 --kernel exp --ell 300 "
      "--sigma 1 --r 2 --grid2d 5.71:5.79:9,50.95:50.99:5 --threshold 0 --delta 1e-3 "
      "--insecure-seed 4 --dataset gis-lonlat --ledger " +
      dir.file("l.sqlite") + " ";
  const auto r =
      test::run_cli(base + "--keep-path " + dir.file("p.gpdp") + " --out " + dir.file("out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json cert = json::parse(test::read_text(dir.file("out/certificate.json")));
  EXPECT_EQ(cert["crs"]["declared"], "EPSG:4326");
  EXPECT_EQ(cert["crs"]["model"], "EPSG:32631");  // UTM 31N: the domain's centre is 5.75° E
  EXPECT_EQ(test::rfc7946_failure(json::parse(test::read_text(dir.file("out/excursion.geojson")))),
            "");
  // A query in RD New: transformed to lon/lat (the release's CRS), answered there, written with
  // the release's columns.
  test::write_text(dir.file("q.csv"), "x1,x2\n180000,331000\n");
  auto q = test::run_cli("query " + dir.file("p.gpdp") + " --data " + dir.file("ll.csv") +
                         " --crs EPSG:28992 --points " + dir.file("q.csv") + " --out " +
                         dir.file("q-out.csv") + " --insecure-seed 1 --json");
  ASSERT_EQ(q.exit_code, 0) << q.err;
  const Eigen::MatrixXd a = io::read_csv(dir.file("q-out.csv")).numeric({"lon", "lat"});
  EXPECT_NEAR(a(0, 0), 5.743087, 1e-5);  // cs2cs EPSG:28992 EPSG:4326
  EXPECT_NEAR(a(0, 1), 50.968141, 1e-5);
  EXPECT_EQ(json::parse(q.out)["crs"], "EPSG:4326");
}

TEST(CliGis, BadCrsIsAClearErrorWithNothingWrittenOrRecorded) {
  test::TempDir dir;
  test::write_text(dir.file("d.csv"), rd_csv());
  const std::string base = kRelease + "--data " + dir.file("d.csv") + " --ledger " +
                           dir.file("l.sqlite") + " --out " + dir.file("out") + " ";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--crs 28992", "AUTH:CODE"},
      {"--crs EPSG:99999999", "PROJ does not know it"},
      {"--crs EPSG:4979", "not a 2-D"},  // 3-D geographic
      {"--crs EPSG:7415", "not a 2-D"},  // compound
      {"--crs EPSG:28992 --model-crs EPSG:32631", "projected and is used as it is"},
  };
  for (const auto& [flags, text] : cases) {
    const auto r = test::run_cli(base + flags);
    EXPECT_EQ(r.exit_code, 2) << flags;
    EXPECT_NE(r.err.find(text), std::string::npos) << flags << ": " << r.err;
    EXPECT_FALSE(fs::exists(dir.file("out"))) << flags;
    EXPECT_FALSE(fs::exists(dir.file("l.sqlite"))) << flags;
  }
  // A domain PROJ cannot transform (latitudes beyond 90°): refused before the draw.
  test::write_text(dir.file("bad.csv"), "lon,lat,v\n5.7,89.5,0\n5.8,89.6,1\n");
  const auto r = test::run_cli(
      "release --data " + dir.file("bad.csv") +
      " --x lon,lat --y v --domain 5:6,89:95 --crs "
      "EPSG:4326 --ell 300 --grid2d 5:6:3,89:90:3 --threshold 0 --delta 1e-3 --dataset polar "
      "--ledger " +
      dir.file("l.sqlite") + " --out " + dir.file("out"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(r.err.empty());
  EXPECT_FALSE(fs::exists(dir.file("out")));
  // --crs on a query of a release without one: refused.
  ASSERT_EQ(
      test::run_cli(kRelease + "--data " + dir.file("d.csv") + " --ledger " + dir.file("l.sqlite") +
                    " --keep-path " + dir.file("p.gpdp") + " --out " + dir.file("plain"))
          .exit_code,
      0);
  test::write_text(dir.file("q.csv"), "x,y\n180000,331000\n");
  const auto q = test::run_cli("query " + dir.file("p.gpdp") + " --data " + dir.file("d.csv") +
                               " --crs EPSG:28992 --points " + dir.file("q.csv") + " --out " +
                               dir.file("q-out.csv"));
  EXPECT_NE(q.exit_code, 0);
  EXPECT_NE(q.err.find("without a CRS"), std::string::npos) << q.err;
  EXPECT_FALSE(fs::exists(dir.file("q-out.csv")));
}

}  // namespace
}  // namespace gpdp
