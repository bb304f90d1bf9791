// Excursion polygons (cell-based, GDALPolygonize + GEOS validity): hand-checkable sets, then a
// property test on thousands of random fields of every awkward kind (smooth, rough, exact ties at
// the level, masks, all in, all out, one-pixel islands and holes, saddles/checkerboards), on grids
// near the origin and far from it (longitude/latitude boxes, projected metres): never an error,
// always valid, every node inside exactly when it is in the set, area = pixels × pixel area.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/gis/excursion_polygons.hpp"
#include "gpdp/gis/polygon.hpp"
#include "gpdp/gis/raster_frame.hpp"
#include "support/excursion_check.hpp"

namespace gpdp::gis {
namespace {

std::vector<double> sample(const Grid& g, const std::function<double(double, double)>& f) {
  std::vector<double> v;
  for (long j = 0; j < g.axes()[1].count; ++j) {
    for (long i = 0; i < g.axes()[0].count; ++i)
      v.push_back(f(g.axes()[0].at(i), g.axes()[1].at(j)));
  }
  return v;
}

const Grid square101({{-1, 1, 101}, {-1, 1, 101}});  // step h = 0.02

TEST(RasterFrame, NodesArePixelCentresNorthUp) {
  const Grid g({{10, 20, 11}, {-5, 5, 6}});
  const RasterFrame f = raster_frame(g);
  EXPECT_EQ(f.columns, 11);
  EXPECT_EQ(f.rows, 6);
  EXPECT_DOUBLE_EQ(f.geotransform[0], 9.5);
  EXPECT_DOUBLE_EQ(f.geotransform[1], 1.0);
  EXPECT_DOUBLE_EQ(f.geotransform[3], 6.0);
  EXPECT_DOUBLE_EQ(f.geotransform[5], -2.0);
  // Pixel (column 3, row 0) is centred on grid node (3, 5) = (13, 5).
  EXPECT_EQ(f.node(3, 0), 5 * 11 + 3);
  EXPECT_THROW(raster_frame(Grid({{0, 1, 5}})), InputError);
  EXPECT_THROW(raster_frame(Grid({{0, 1, 5}, {0, 0, 1}})), InputError);
}

TEST(ExcursionPolygons, DiscIsOneCounterClockwiseRingOfItsPixels) {
  const double R = 0.6;
  const auto v = sample(square101, [&](double x, double y) { return R - std::hypot(x, y); });
  const auto polys = excursion_polygons(v, square101, 0.0);
  ASSERT_EQ(polys.size(), 1u);
  EXPECT_TRUE(polys[0].holes.empty());
  EXPECT_GT(signed_area(polys[0].outer), 0);
  // Pixel-based: within one ring of pixels (perimeter 2πR × h) of πR².
  EXPECT_NEAR(area(polys), M_PI * R * R, 2 * M_PI * R * 0.02);
  for (const auto& p : polys[0].outer) {  // every vertex is a pixel corner
    EXPECT_NEAR(std::remainder(p.x + 0.01, 0.02), 0.0, 1e-12);
    EXPECT_NEAR(std::remainder(p.y + 0.01, 0.02), 0.0, 1e-12);
  }
  EXPECT_EQ(test::excursion_polygon_failure(excursion_mask(v, 0.0), square101, polys), "");
}

TEST(ExcursionPolygons, AnnulusKeepsItsClockwiseHole) {
  const auto v =
      sample(square101, [](double x, double y) { return 0.2 - std::abs(std::hypot(x, y) - 0.5); });
  const auto polys = excursion_polygons(v, square101, 0.0);
  ASSERT_EQ(polys.size(), 1u);
  ASSERT_EQ(polys[0].holes.size(), 1u);
  EXPECT_LT(signed_area(polys[0].holes[0]), 0);
  EXPECT_FALSE(contains(polys, {0, 0}));
  EXPECT_TRUE(contains(polys, {0.5, 0}));
  EXPECT_EQ(test::excursion_polygon_failure(excursion_mask(v, 0.0), square101, polys), "");
}

TEST(ExcursionPolygons, WholeGridIsItsPixelFrameAndEmptySetHasNoPolygon) {
  const std::vector<double> ones(static_cast<std::size_t>(square101.size()), 1.0);
  const auto all = excursion_polygons(ones, square101, 1.0);  // a tie at the level counts as in
  ASSERT_EQ(all.size(), 1u);
  EXPECT_NEAR(area(all), 2.02 * 2.02, 1e-12);  // the grid's range plus half a pixel each side
  EXPECT_TRUE(excursion_polygons(ones, square101, 1.5).empty());
}

TEST(ExcursionPolygons, BlankCellsAreOutsideAndSinglePixelsAreKept) {
  // A 3 × 3 grid: the centre pixel alone, then everything but the centre (a one-pixel hole), then
  // two pixels touching at a corner (separate polygons, still one valid MultiPolygon).
  const Grid g({{0, 2, 3}, {0, 2, 3}});
  const auto centre = excursion_polygons({0, 0, 0, 0, 1, 0, NAN, 0, 0}, g, 0.5);
  ASSERT_EQ(centre.size(), 1u);
  EXPECT_NEAR(area(centre), 1.0, 1e-12);
  const auto ring = excursion_polygons({1, 1, 1, 1, 0, 1, 1, 1, 1}, g, 0.5);
  ASSERT_EQ(ring.size(), 1u);
  ASSERT_EQ(ring[0].holes.size(), 1u);
  EXPECT_NEAR(area(ring), 8.0, 1e-12);
  const std::vector<char> diagonal{1, 0, 0, 0, 1, 0, 0, 0, 0};
  const auto corner = set_polygons(diagonal, g);
  EXPECT_EQ(corner.size(), 2u);
  EXPECT_EQ(test::excursion_polygon_failure(diagonal, g, corner), "");
}

TEST(ExcursionPolygons, RejectsBadInput) {
  EXPECT_THROW(excursion_polygons({1, 2, 3}, square101, 0), InputError);
  EXPECT_THROW(excursion_polygons({1, 2}, Grid({{0, 1, 2}}), 0), InputError);
  EXPECT_THROW(excursion_polygons({1, 0, 0, 1}, Grid({{0, 1, 2}, {0, 1, 2}}), NAN), InputError);
}

// ---- property test -------------------------------------------------------------------------

enum class Kind { smooth, rough, ties, masked, all_in, all_out, islands, holes, saddles, kCount };

// A random field of one kind, thresholded at 0 (values exactly 0 are in the set).
std::vector<double> random_field(Kind kind, long nx, long ny, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(0, 1);
  std::normal_distribution<double> z;
  const auto n = static_cast<std::size_t>(nx * ny);
  std::vector<double> v(n);
  auto node = [&](std::size_t k) { return std::pair{double(k % nx), double(k / nx)}; };
  switch (kind) {
    case Kind::smooth: {
      const double a = u(rng) * 0.6, b = u(rng) * 0.6, c = u(rng) * 6, d = z(rng) * 0.3;
      for (std::size_t k = 0; k < n; ++k) {
        const auto [x, y] = node(k);
        v[k] = std::sin(a * x + c) * std::cos(b * y) + d;
      }
      break;
    }
    case Kind::rough:
      for (auto& x : v) x = z(rng);
      break;
    case Kind::ties:  // values on a lattice: many exactly at the level
      for (auto& x : v) x = static_cast<double>(static_cast<int>(rng() % 3) - 1);
      break;
    case Kind::masked:  // rough values, a third blank (NaN: outside a mask)
      for (auto& x : v) x = u(rng) < 0.33 ? NAN : z(rng);
      break;
    case Kind::all_in:
      for (auto& x : v) x = u(rng) < 0.5 ? 0.0 : 1.0 + u(rng);
      break;
    case Kind::all_out:
      for (auto& x : v) x = -1e-300 - u(rng);
      break;
    case Kind::islands:
      for (auto& x : v) x = u(rng) < 0.1 ? 0.0 : -1.0;
      break;
    case Kind::holes:
      for (auto& x : v) x = u(rng) < 0.1 ? -1.0 : 1.0;
      break;
    case Kind::saddles:  // checkerboard with random flips: corner-touching pixels everywhere
      for (std::size_t k = 0; k < n; ++k) {
        const auto [x, y] = node(k);
        const bool on = (static_cast<long>(x + y) % 2 == 0) != (u(rng) < 0.15);
        v[k] = on ? 0.0 : -0.0 - 1e-12;
      }
      break;
    case Kind::kCount:
      break;
  }
  return v;
}

// A grid of nx × ny nodes near the origin or far from it.
Grid random_grid(long nx, long ny, std::mt19937_64& rng) {
  const double w = static_cast<double>(nx - 1), h = static_cast<double>(ny - 1);
  switch (rng() % 4) {
    case 0:  // unit box
      return Grid({{0, 1, nx}, {0, 1, ny}});
    case 1:  // the longitude/latitude box, at grid steps of about 0.001°
      return Grid({{-93.70, -93.70 + 0.001 * w, nx}, {41.98, 41.98 + 0.001 * h, ny}});
    case 2:  // projected metres (UTM-like), 25 m cells
      return Grid({{500000.0, 500000.0 + 25 * w, nx}, {6.6e6, 6.6e6 + 25 * h, ny}});
    default:  // millimetre cells ten thousand kilometres from the origin
      return Grid({{1e7, 1e7 + 1e-3 * w, nx}, {-1e7, -1e7 + 1e-3 * h, ny}});
  }
}

TEST(ExcursionPolygons, ThousandsOfRandomFieldsNeverFailAndMatchTheSet) {
  std::mt19937_64 rng(20260520);
  const int kCases = 4000;
  int nonempty = 0;
  for (int c = 0; c < kCases; ++c) {
    const auto kind = static_cast<Kind>(c % static_cast<int>(Kind::kCount));
    const long nx = 2 + static_cast<long>(rng() % 30), ny = 2 + static_cast<long>(rng() % 30);
    const Grid grid = random_grid(nx, ny, rng);
    const auto v = random_field(kind, nx, ny, rng);
    const auto in = excursion_mask(v, 0.0);
    std::vector<Polygon> polys;
    ASSERT_NO_THROW(polys = set_polygons(in, grid)) << "case " << c;
    ASSERT_EQ(test::excursion_polygon_failure(in, grid, polys), "")
        << "case " << c << " kind " << static_cast<int>(kind) << " grid " << nx << "×" << ny
        << " from (" << grid.axes()[0].lo << ", " << grid.axes()[1].lo << ")";
    nonempty += !polys.empty();
  }
  EXPECT_GT(nonempty, kCases * 3 / 4);  // the cases are not trivially empty
}

}  // namespace
}  // namespace gpdp::gis
