// Hexagonal aggregation (gpdp hexbin, paper App. D.2) on hand-checkable layouts.
#include <gtest/gtest.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/experiments/hexbin.hpp"
#include "support/paths.hpp"

namespace gx = gpdp::experiments;

namespace {
const gx::HexLattice kLattice{gpdp::Box::parse("0:10,0:10"), 2.0};
}

TEST(HexLattice, CentresFollowTheOffsetRowLayout) {
  // Row spacing 2·√3/2 = √3; odd rows shifted by 1.
  EXPECT_DOUBLE_EQ(kLattice.centre(0, 0)[0], 0.0);
  EXPECT_DOUBLE_EQ(kLattice.centre(2, 0)[0], 4.0);
  EXPECT_DOUBLE_EQ(kLattice.centre(2, 1)[0], 5.0);
  EXPECT_NEAR(kLattice.centre(2, 1)[1], std::sqrt(3.0), 1e-15);
}

TEST(HexLattice, EveryPointGoesToItsNearestCentre) {
  // Brute force over all centres near the box: the chosen cell is the nearest one.
  for (double x = 0.05; x < 10; x += 0.37) {
    for (double y = 0.05; y < 10; y += 0.41) {
      const auto [c, r] = kLattice.cell_of(x, y);
      const double d = (kLattice.centre(c, r) - Eigen::Vector2d(x, y)).norm();
      for (long rr = -1; rr <= 8; ++rr) {
        for (long cc = -1; cc <= 7; ++cc) {
          EXPECT_LE(d, (kLattice.centre(cc, rr) - Eigen::Vector2d(x, y)).norm() + 1e-12);
        }
      }
    }
  }
}

TEST(Hexbin, MedianAndCountPerCellAndOutsidePointsDropped) {
  Eigen::MatrixXd xy(6, 2);
  Eigen::VectorXd v(6);
  // Three points near centre (2, 0) [cell (1, 0)], two near (5, √3) [cell (2, 1)], one outside.
  xy << 2.1, 0.1, 1.9, 0.2, 2.0, 0.0, 5.0, 1.8, 4.9, 1.7, 11.0, 5.0;
  v << 3.0, 1.0, 2.0, 10.0, 20.0, 99.0;
  const auto out = gx::hexbin(xy, v, kLattice);
  ASSERT_EQ(out.cells.size(), 2u);
  EXPECT_EQ(out.dropped_outside, 1);
  EXPECT_EQ(out.cells[0].column, 1);
  EXPECT_EQ(out.cells[0].row, 0);
  EXPECT_EQ(out.cells[0].count, 3);
  EXPECT_DOUBLE_EQ(out.cells[0].median, 2.0);  // median of {1, 2, 3}
  EXPECT_EQ(out.cells[1].count, 2);
  EXPECT_DOUBLE_EQ(out.cells[1].median, 15.0);  // even count: mean of the middle two
  EXPECT_THROW(gx::hexbin(xy, v, {gpdp::Box::parse("0:10,0:10"), 0.0}), gpdp::InputError);
}

TEST(Hexbin, UnitSquareCoordinatesKeepTheAspectRatio) {
  Eigen::MatrixXd xy(2, 2);
  xy << 10, 5, 30, 15;
  const auto uv = gx::unit_square_coordinates(xy, gpdp::Box::parse("10:30,5:15"));
  EXPECT_DOUBLE_EQ(uv(1, 0), 1.0);
  EXPECT_DOUBLE_EQ(uv(1, 1), 0.5);  // the shorter side maps to [0, 0.5]
}

TEST(HexbinCli, WritesCellsAndRejectsABadBox) {
  gpdp::test::TempDir dir;
  gpdp::test::write_text(dir.file("pts.csv"),
                         "px,py,price,year\n2.1,0.1,100,a\n1.9,0.2,1000,a\n4.9,1.7,10,b\n");
  const auto ok = gpdp::test::run_cli("hexbin --data " + dir.file("pts.csv") +
                                      " --x px --y py --value price --log --where year=a"
                                      " --box 0:10,0:10 --cell-width 2 --out " +
                                      dir.file("h.csv"));
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  const std::string text = gpdp::test::read_text(dir.file("h.csv"));
  EXPECT_EQ(text.substr(0, text.find('\n')), "column,row,x,y,u,v,median,count");
  // One cell (1, 0) with two records; median of log 100 and log 1000.
  EXPECT_NE(text.find(",2\n"), std::string::npos);
  EXPECT_NE(text.find(std::to_string(0.5 * (std::log(100.0) + std::log(1000.0))).substr(0, 6)),
            std::string::npos);
  const auto bad = gpdp::test::run_cli(
      "hexbin --data " + dir.file("pts.csv") +
      " --x px --y py --value price --box 0:10 --cell-width 2 --out " + dir.file("bad.csv"));
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_FALSE(std::filesystem::exists(dir.file("bad.csv")));
}
