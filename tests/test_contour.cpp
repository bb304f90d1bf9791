// Excursion-set geometry: marching squares on analytic fields (areas against closed forms,
// rings, holes, boundary closure, saddles), point-in-polygon agreement with the field on random
// data, GeoJSON orientation, and 1-D intervals.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/geometry/geojson.hpp"
#include "gpdp/geometry/intervals.hpp"
#include "gpdp/geometry/marching_squares.hpp"
#include "gpdp/geometry/polygon.hpp"

namespace gpdp::geometry {
namespace {

// Samples f on the grid in gpdp::Grid order (first axis fastest).
std::vector<double> sample(const Grid& g, const std::function<double(double, double)>& f) {
  std::vector<double> v;
  const auto& ax = g.axes()[0];
  const auto& ay = g.axes()[1];
  for (long j = 0; j < ay.count; ++j) {
    for (long i = 0; i < ax.count; ++i) v.push_back(f(ax.at(i), ay.at(j)));
  }
  return v;
}

const Grid square101({{-1, 1, 101}, {-1, 1, 101}});  // spacing h = 0.02

TEST(Polygon, ShoelaceAndContainment) {
  const Ring ccw{{0, 0}, {2, 0}, {2, 1}, {0, 1}};
  const Ring cw(ccw.rbegin(), ccw.rend());
  EXPECT_DOUBLE_EQ(signed_area(ccw), 2.0);
  EXPECT_DOUBLE_EQ(signed_area(cw), -2.0);
  const Polygon frame{ccw, {{{0.5, 0.25}, {0.5, 0.75}, {1.5, 0.75}, {1.5, 0.25}}}};
  EXPECT_DOUBLE_EQ(area(frame), 2.0 - 0.5);
  EXPECT_TRUE(contains(frame, {0.25, 0.5}));
  EXPECT_FALSE(contains(frame, {1.0, 0.5}));  // in the hole
  EXPECT_FALSE(contains(frame, {2.5, 0.5}));
}

TEST(MarchingSquares, DiscIsOneRingWithAreaPiRSquared) {
  const double R = 0.6;
  const auto v = sample(square101, [&](double x, double y) { return R - std::hypot(x, y); });
  const auto polys = excursion_polygons(v, square101, 0.0);
  ASSERT_EQ(polys.size(), 1u);
  EXPECT_TRUE(polys[0].holes.empty());
  EXPECT_GT(signed_area(polys[0].outer), 0);  // counter-clockwise
  // Inscribed polygon with vertices on the circle, edges <= h*sqrt(2): area deficit < 2πR·h²/(4R)
  // ≈ 6e-4; allow 2e-3 (0.2% of πR² = 1.131).
  EXPECT_NEAR(area(polys), M_PI * R * R, 2e-3);
  EXPECT_TRUE(contains(polys, {0, 0}));
  EXPECT_TRUE(contains(polys, {0.59 / std::sqrt(2.0), 0.59 / std::sqrt(2.0)}));
  EXPECT_FALSE(contains(polys, {0.61 / std::sqrt(2.0), 0.61 / std::sqrt(2.0)}));
  const auto lines = contour_lines(v, square101, 0.0);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(lines[0].closed);
  for (const auto& p : lines[0].points) EXPECT_NEAR(std::hypot(p.x, p.y), R, 2e-3);
}

TEST(MarchingSquares, AnnulusIsOneOuterRingWithOneClockwiseHole) {
  const auto v =
      sample(square101, [](double x, double y) { return 0.2 - std::abs(std::hypot(x, y) - 0.5); });
  const auto polys = excursion_polygons(v, square101, 0.0);
  ASSERT_EQ(polys.size(), 1u);
  ASSERT_EQ(polys[0].holes.size(), 1u);
  EXPECT_GT(signed_area(polys[0].outer), 0);
  EXPECT_LT(signed_area(polys[0].holes[0]), 0);
  EXPECT_NEAR(area(polys), M_PI * (0.7 * 0.7 - 0.3 * 0.3), 3e-3);
  EXPECT_FALSE(contains(polys, {0, 0}));
  EXPECT_TRUE(contains(polys, {0.5, 0}));
  EXPECT_TRUE(contains(polys, {0, -0.5}));
  EXPECT_EQ(contour_lines(v, square101, 0.0).size(), 2u);
}

TEST(MarchingSquares, SetTouchingTheBoundaryIsClosedAlongIt) {
  // v = x: the set {x >= 0.31} is the rectangle [0.31, 1] x [-1, 1]; linear, so exact.
  const auto v = sample(square101, [](double x, double) { return x; });
  const auto half = excursion_polygons(v, square101, 0.31);
  ASSERT_EQ(half.size(), 1u);
  EXPECT_NEAR(area(half), 0.69 * 2.0, 1e-12);
  for (const auto& p : half[0].outer) {
    const bool on_boundary = std::abs(p.x - 1) < 1e-12 || std::abs(std::abs(p.y) - 1) < 1e-12;
    EXPECT_TRUE(on_boundary || std::abs(p.x - 0.31) < 1e-12) << p.x << "," << p.y;
  }
  // A level on a grid column (x = 0.3 is the 66th point): crossings move by at most 1e-9 of a
  // cell (0.02) off the grid point.
  EXPECT_NEAR(area(excursion_polygons(v, square101, 0.3)), 0.7 * 2.0, 2 * 0.02 * 1e-9 + 1e-12);
  // Only the level line x = 0.31 is drawn, not the boundary: one open line from y=-1 to y=1.
  const auto lines = contour_lines(v, square101, 0.31);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_FALSE(lines[0].closed);
  for (const auto& p : lines[0].points) EXPECT_NEAR(p.x, 0.31, 1e-12);
  // A disc centred on the corner (1, 1): a quarter disc, closed along two sides.
  const auto q =
      sample(square101, [](double x, double y) { return 0.8 - std::hypot(x - 1, y - 1); });
  const auto quarter = excursion_polygons(q, square101, 0.0);
  ASSERT_EQ(quarter.size(), 1u);
  EXPECT_NEAR(area(quarter), M_PI * 0.64 / 4, 2e-3);
  // Everything above the level: the whole domain.
  const auto all = excursion_polygons(std::vector<double>(v.size(), 1.0), square101, 0.5);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_NEAR(area(all), 4.0, 1e-12);
  EXPECT_TRUE(excursion_polygons(v, square101, 5.0).empty());
}

TEST(MarchingSquares, SaddleResolvedByTheCellMean) {
  // One cell, high corners (0,0) and (1,1). Mean 0.5: at level 0.5 the corners are joined (a
  // hexagon of area 1 - 2·(0.5²/2) = 0.75); at 0.6 they are two triangles of legs 0.4.
  const Grid cell({{0, 1, 2}, {0, 1, 2}});
  const std::vector<double> v{1, 0, 0, 1};
  const auto joined = excursion_polygons(v, cell, 0.5);
  ASSERT_EQ(joined.size(), 1u);
  EXPECT_NEAR(area(joined), 0.75, 1e-12);
  const auto split = excursion_polygons(v, cell, 0.6);
  ASSERT_EQ(split.size(), 2u);
  EXPECT_NEAR(area(split), 2 * 0.4 * 0.4 / 2, 1e-12);
  EXPECT_EQ(contour_lines(v, cell, 0.5).size(), 2u);
  EXPECT_EQ(contour_lines(v, cell, 0.6).size(), 2u);
}

TEST(MarchingSquares, PolygonsAgreeWithTheFieldOnRandomData) {
  // White noise makes many islands, holes and saddles. Every interior grid point must be inside
  // the polygons exactly when its value is >= level (values are continuous, so none equals it).
  const Grid g({{0, 1, 40}, {0, 2, 30}});
  std::mt19937 rng(20240601);
  std::normal_distribution<double> normal;
  std::vector<double> v(static_cast<std::size_t>(g.size()));
  for (double& x : v) x = normal(rng);
  for (double level : {-0.5, 0.0, 0.7}) {
    const auto polys = excursion_polygons(v, g, level);
    std::size_t holes = 0;
    for (const auto& p : polys) {
      EXPECT_GT(signed_area(p.outer), 0);
      for (const auto& h : p.holes) EXPECT_LT(signed_area(h), 0);
      holes += p.holes.size();
    }
    EXPECT_GT(polys.size() + holes, 10u);  // a non-trivial case
    if (level < 0) {
      EXPECT_GT(holes, 0u);
    }
    for (long j = 1; j + 1 < 30; ++j) {
      for (long i = 1; i + 1 < 40; ++i) {
        const double value = v[static_cast<std::size_t>(j * 40 + i)];
        EXPECT_EQ(contains(polys, {g.axes()[0].at(i), g.axes()[1].at(j)}), value >= level)
            << "level " << level << " point " << i << "," << j;
      }
    }
  }
}

TEST(MarchingSquares, ValuesExactlyAtTheLevelAreHandled) {
  // Integer fields in {0, 1, 2} put many grid points exactly on the level: rings may not touch
  // or cross, and points strictly above / below the level must be inside / outside.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const long nx = 3 + static_cast<long>(rng() % 10), ny = 3 + static_cast<long>(rng() % 10);
    const Grid g({{0, 1, nx}, {0, 2, ny}});
    std::vector<double> v(static_cast<std::size_t>(nx * ny));
    for (double& x : v) x = static_cast<double>(rng() % 3);
    const double level = static_cast<double>(rng() % 3);
    std::vector<Polygon> polys;
    ASSERT_NO_THROW(polys = excursion_polygons(v, g, level)) << "trial " << trial;
    EXPECT_LE(area(polys), 2.0 + 1e-9);
    for (long j = 1; j + 1 < ny; ++j) {
      for (long i = 1; i + 1 < nx; ++i) {
        const double value = v[static_cast<std::size_t>(j * nx + i)];
        if (value == level) continue;  // on the boundary of the set
        EXPECT_EQ(contains(polys, {g.axes()[0].at(i), g.axes()[1].at(j)}), value > level)
            << "trial " << trial << " point " << i << "," << j;
      }
    }
  }
}

TEST(MarchingSquares, RejectsBadInput) {
  EXPECT_THROW(excursion_polygons({1, 2, 3}, square101, 0), InputError);
  EXPECT_THROW(excursion_polygons({1, 2}, Grid({{0, 1, 2}}), 0), InputError);
  EXPECT_THROW(excursion_polygons({1, NAN, 0, 1}, Grid({{0, 1, 2}, {0, 1, 2}}), 0), InputError);
  EXPECT_THROW(excursion_polygons({1, 0, 0, 1}, Grid({{0, 1, 2}, {0, 1, 2}}), NAN), InputError);
}

TEST(GeoJson, MultiPolygonFollowsRfc7946Orientation) {
  const auto v =
      sample(square101, [](double x, double y) { return 0.2 - std::abs(std::hypot(x, y) - 0.5); });
  auto polys = excursion_polygons(v, square101, 0.0);
  ASSERT_EQ(polys.size(), 1u);
  // Deliberately reverse both rings: the writer must restore CCW outer / CW hole.
  std::reverse(polys[0].outer.begin(), polys[0].outer.end());
  std::reverse(polys[0].holes[0].begin(), polys[0].holes[0].end());
  const auto fc =
      geojson_feature_collection({geojson_feature(polys, {{"level", 0.0}, {"name", "annulus"}})});
  EXPECT_EQ(fc["type"], "FeatureCollection");
  const auto& f = fc["features"][0];
  EXPECT_EQ(f["type"], "Feature");
  EXPECT_EQ(f["properties"]["name"], "annulus");
  EXPECT_EQ(f["geometry"]["type"], "MultiPolygon");
  const auto& rings = f["geometry"]["coordinates"][0];
  ASSERT_EQ(rings.size(), 2u);
  auto twice_area = [](const nlohmann::json& ring) {  // shoelace over the closed position list
    double s = 0;
    for (std::size_t k = 0; k + 1 < ring.size(); ++k) {
      s += ring[k][0].get<double>() * ring[k + 1][1].get<double>() -
           ring[k + 1][0].get<double>() * ring[k][1].get<double>();
    }
    return s;
  };
  for (const auto& ring : rings) {
    ASSERT_GE(ring.size(), 4u);
    EXPECT_EQ(ring.front(), ring.back());  // closed by repeating the first position
  }
  EXPECT_GT(twice_area(rings[0]), 0);
  EXPECT_LT(twice_area(rings[1]), 0);
}

TEST(Intervals, RunsAboveTheLevelWithInterpolatedEnds) {
  const Grid g({{0, 10, 11}});
  const std::vector<double> v{1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 2};
  const auto iv = excursion_intervals(v, g, 0.5);
  ASSERT_EQ(iv.size(), 3u);
  EXPECT_DOUBLE_EQ(iv[0].lo, 0.0);  // starts at the domain boundary
  EXPECT_DOUBLE_EQ(iv[0].hi, 0.5);
  EXPECT_DOUBLE_EQ(iv[1].lo, 2.5);
  EXPECT_DOUBLE_EQ(iv[1].hi, 4.5);
  EXPECT_DOUBLE_EQ(iv[2].lo, 9.25);  // 0 -> 2 crosses 0.5 a quarter of the way
  EXPECT_DOUBLE_EQ(iv[2].hi, 10.0);
  EXPECT_DOUBLE_EQ(total_length(iv), 0.5 + 2.0 + 0.75);
  EXPECT_TRUE(excursion_intervals(v, g, 3.0).empty());
  EXPECT_EQ(excursion_intervals(v, g, -1.0).size(), 1u);
  EXPECT_THROW(excursion_intervals(v, square101, 0.5), InputError);
  EXPECT_THROW(excursion_intervals({1, 2}, g, 0.5), InputError);
}

}  // namespace
}  // namespace gpdp::geometry
