// io::read_mask_cells: the one rule by which --mask keeps grid cells (gpdp release, gpdp preview).
#include <gtest/gtest.h>

#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/io/mask.hpp"
#include "support/paths.hpp"

using gpdp::test::TempDir;
using gpdp::test::write_text;

TEST(IoMask, KeepsTheCellWithinHalfAStepOfEachPoint) {
  // Axes 0:1:3 (step 0.5) and 0:2:3 (step 1): cell index = i + 3 j.
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:3,0:2:3");
  const TempDir dir;
  write_text(dir.file("mask.csv"),
             "x1,x2\n"
             "0,0\n"        // node (0, 0): cell 0
             "0.74,2.4\n"   // nearest node (1, 2), 0.24 and 0.4 away: cell 7
             "0.76,1.1\n"   // nearest node (2, 1) at x 1, 0.24 away: cell 5
             "1.3,0\n"      // beyond the last node by more than half a step: dropped
             "0.5,-0.6\n"   // below the first node by more than half a step: dropped
             "0.01,0.02\n"  // cell 0 again (kept once)
  );
  EXPECT_EQ(gpdp::io::read_mask_cells(grid, dir.file("mask.csv"), {"x1", "x2"}),
            (std::vector<Eigen::Index>{0, 5, 7}));
  // Columns named like the covariates, in the file's order or not.
  write_text(dir.file("named.csv"), "lat,lon\n2,1\n");  // (lon, lat) = (1, 2): cell 2 + 3·2
  EXPECT_EQ(gpdp::io::read_mask_cells(grid, dir.file("named.csv"), {"lon", "lat"}),
            (std::vector<Eigen::Index>{8}));
}

TEST(IoMask, RefusesA1dGridAndAMaskOffTheGrid) {
  const TempDir dir;
  write_text(dir.file("mask.csv"), "x1,x2\n5,5\n");
  EXPECT_THROW(gpdp::io::read_mask_cells(gpdp::Grid::parse("0:1:5"), dir.file("mask.csv"), {"x1"}),
               gpdp::InputError);
  try {
    gpdp::io::read_mask_cells(gpdp::Grid::parse("0:1:3,0:1:3"), dir.file("mask.csv"), {"x1", "x2"});
    FAIL() << "a mask with no point on the grid must be refused";
  } catch (const gpdp::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no mask point falls on the grid"), std::string::npos);
  }
}
