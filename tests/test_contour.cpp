// Contour lines (GDAL's contour generator) on analytic fields, GeoJSON orientation, 1-D
// intervals and the polygon primitives. Excursion polygons: tests/test_excursion_polygons.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/gis/contour_lines.hpp"
#include "gpdp/gis/excursion_polygons.hpp"
#include "gpdp/gis/geojson.hpp"
#include "gpdp/gis/intervals.hpp"
#include "gpdp/gis/polygon.hpp"

namespace gpdp::gis {
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

TEST(Polygon, AreaIsExactFarFromTheOrigin) {
  // A 0.001° square at longitude -93.7: the shoelace is taken relative to the first vertex.
  const Ring sq{{-93.7, 41.98}, {-93.699, 41.98}, {-93.699, 41.981}, {-93.7, 41.981}};
  EXPECT_NEAR(signed_area(sq), 1e-6, 1e-15);
}

TEST(ContourLines, CircleIsOneClosedLoopOnTheCircle) {
  const double R = 0.6;
  const auto v = sample(square101, [&](double x, double y) { return R - std::hypot(x, y); });
  const auto lines = contour_lines(v, square101, 0.0);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_TRUE(lines[0].closed);
  EXPECT_GT(lines[0].points.size(), 100u);
  for (const auto& p : lines[0].points) EXPECT_NEAR(std::hypot(p.x, p.y), R, 2e-3);
}

TEST(ContourLines, AnnulusHasTwoLoopsAndAStraightLevelEndsOnTheBoundary) {
  const auto ring =
      sample(square101, [](double x, double y) { return 0.2 - std::abs(std::hypot(x, y) - 0.5); });
  EXPECT_EQ(contour_lines(ring, square101, 0.0).size(), 2u);
  // v = x: the level line x = 0.31 runs across the raster frame (GDAL carries it to the pixel
  // edges, half a step beyond the outer nodes: y from -1.01 to 1.01) and is not closed.
  const auto lines =
      contour_lines(sample(square101, [](double x, double) { return x; }), square101, 0.31);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_FALSE(lines[0].closed);
  double y0 = INFINITY, y1 = -INFINITY;
  for (const auto& p : lines[0].points) {
    EXPECT_NEAR(p.x, 0.31, 1e-5);  // GDAL moves the end points at the frame edge by ~1e-6
    y0 = std::min(y0, p.y);
    y1 = std::max(y1, p.y);
  }
  EXPECT_NEAR(y0, -1.01, 1e-12);
  EXPECT_NEAR(y1, 1.01, 1e-12);
}

TEST(ContourLines, StopAtBlankCells) {
  // v = x with the left half blank: the line x = -0.5 lies in the blank part, so nothing is drawn;
  // x = 0.5 is drawn as before.
  auto v = sample(square101, [](double x, double) { return x; });
  for (std::size_t k = 0; k < v.size(); ++k) {
    if (k % 101 < 50) v[k] = NAN;
  }
  EXPECT_TRUE(contour_lines(v, square101, -0.5).empty());
  EXPECT_EQ(contour_lines(v, square101, 0.5).size(), 1u);
}

TEST(ContourLines, RejectsBadInput) {
  EXPECT_THROW(contour_lines({1, 2, 3}, square101, 0), InputError);
  EXPECT_THROW(contour_lines({1, 2}, Grid({{0, 1, 2}}), 0), InputError);
  EXPECT_THROW(contour_lines({1, 0, 0, 1}, Grid({{0, 1, 2}, {0, 1, 2}}), NAN), InputError);
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
}  // namespace gpdp::gis
