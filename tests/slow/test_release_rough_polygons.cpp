// Issue #20: 200 seeded releases of a rough field on a 130 × 90 grid over a small longitude/
// latitude box (exponential kernel, ℓ = 0.01, σ = 0.5, r = 6.9; 800 clustered records, responses
// often at ±1), the configuration in which the old marching-squares polygons failed after the
// draw in about one release in fifteen. Every release must succeed, and its GeoJSON polygons must
// hold exactly the grid nodes that draws.csv marks in_set. (Records sit on grid nodes so that the
// exact pathwise sampler applies: about half a second per release.)
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>

#include "gpdp/gis/polygon.hpp"
#include "gpdp/grid.hpp"
#include "gpdp/io/csv.hpp"
#include "support/excursion_check.hpp"
#include "support/paths.hpp"
#include "support/rfc7946_check.hpp"

namespace gpdp {
namespace {

const Grid kGrid({{-93.70, -93.57, 130}, {41.98, 42.07, 90}});

std::string clustered_records() {
  std::mt19937_64 gen(20);  // test data only
  std::uniform_int_distribution<long> cx(0, 129), cy(0, 89), pick(0, 11), kind(0, 4);
  std::normal_distribution<double> z;
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<std::pair<long, long>> centres;
  for (int k = 0; k < 12; ++k) centres.emplace_back(cx(gen), cy(gen));
  std::string csv = "lon,lat,y\n";
  for (int i = 0; i < 800; ++i) {
    const auto [i0, j0] = centres[static_cast<std::size_t>(pick(gen))];
    const long ix = std::clamp(i0 + std::lround(8 * z(gen)), 0L, 129L);
    const long iy = std::clamp(j0 + std::lround(6 * z(gen)), 0L, 89L);
    const long k = kind(gen);
    const double y = k < 2 ? 1.0 : k < 4 ? -1.0 : u(gen);
    csv += fmt::format("{:.12f},{:.12f},{}\n", kGrid.axes()[0].at(ix), kGrid.axes()[1].at(iy), y);
  }
  return csv;
}

TEST(SlowReleaseRoughPolygons, TwoHundredSeededReleasesNeverFailAndMatchDrawsCsv) {
  test::TempDir dir;
  const std::string data = dir.file("rough.csv");
  test::write_text(data, clustered_records());
  for (int seed = 1; seed <= 200; ++seed) {
    const std::string out = dir.file(fmt::format("r{}", seed));
    const auto r = test::run_cli(fmt::format(
        "release --data {} --x lon,lat --y y --M-Y 1 --domain=-93.70:-93.57,41.98:42.07 "
        "--grid2d=-93.70:-93.57:130,41.98:42.07:90 --kernel exp --ell 0.01 --sigma 0.5 --r 6.9 "
        "--delta 1e-4 --threshold 0 --insecure-seed {} --dataset rough --ledger {} --out {}",
        data, seed, dir.file("ledger.sqlite"), out));
    ASSERT_EQ(r.exit_code, 0) << "seed " << seed << ": " << r.err;
    const auto draws = io::read_csv(out + "/draws.csv");
    const Eigen::MatrixXd in = draws.numeric({"in_set"});
    std::vector<char> in_set(static_cast<std::size_t>(in.rows()));
    for (Eigen::Index i = 0; i < in.rows(); ++i) in_set[static_cast<std::size_t>(i)] = in(i) != 0;
    const auto polygons = test::polygons_of(nlohmann::json::parse(
        test::read_text(out + "/excursion-grid.json"))["features"][0]["geometry"]);
    ASSERT_EQ(test::excursion_polygon_failure(in_set, kGrid, polygons), "") << "seed " << seed;
  }
}

}  // namespace
}  // namespace gpdp
