// The post-processing that `gpdp release` ships and the utility study measures (one module):
// vote fractions, the vote set, and the Gaussian smoothing with its edge rule.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/release/postprocess.hpp"

namespace gr = gpdp::release;
using Eigen::MatrixXd;
using Eigen::VectorXd;

TEST(ReleasePostprocess, VoteFractionCountsPathsAtOrAboveTheLevel) {
  MatrixXd paths(3, 4);
  paths << 0.5, 0.1, -0.2, 0.0,  // 3 of 4 paths ≥ 0 (0.0 counts)
      -1.0, -0.1, 0.3, -0.5,     // 1 of 4
      2.0, 1.0, 3.0, 4.0;        // 4 of 4
  const VectorXd f = gr::vote_fraction(paths, 0.0);
  EXPECT_EQ(f, (VectorXd(3) << 0.75, 0.25, 1.0).finished());
  EXPECT_EQ(gr::vote_set(f, 0.5), (VectorXd(3) << 1, 0, 1).finished());
  EXPECT_EQ(gr::vote_set(f, 1.0), (VectorXd(3) << 0, 0, 1).finished());
  EXPECT_EQ(gr::vote_set(f, 0.25), (VectorXd(3) << 1, 1, 1).finished());
  EXPECT_THROW(gr::vote_set(f, 0.0), gpdp::InputError);
  EXPECT_THROW(gr::vote_set(f, 1.5), gpdp::InputError);
  EXPECT_THROW(gr::vote_fraction(MatrixXd(3, 0), 0.0), gpdp::InputError);
}

TEST(ReleasePostprocess, CutoffKOverLIsExactForEveryL) {
  // Exactly k of L paths are above the level: the point is in the set at c = k/L and not at
  // c = (k + 1)/L, for every L ≤ 60 (no slack needed when comparing fractions).
  for (int L = 1; L <= 60; ++L) {
    for (int k = 1; k <= L; ++k) {
      MatrixXd paths = MatrixXd::Constant(1, L, -1.0);
      paths.leftCols(k).setOnes();
      const VectorXd f = gr::vote_fraction(paths, 0.0);
      EXPECT_EQ(gr::vote_set(f, static_cast<double>(k) / L)[0], 1.0) << k << "/" << L;
      if (k < L) {
        EXPECT_EQ(gr::vote_set(f, static_cast<double>(k + 1) / L)[0], 0.0) << k << "/" << L;
      }
    }
  }
}

// Post-processing of path values only: nothing here accepts a Posterior (μ_D, k_D).
template <class T>
concept PostprocessedFrom = requires(const T& x) {
  gr::vote_fraction(x, 0.0);
};
static_assert(PostprocessedFrom<MatrixXd>);
static_assert(!PostprocessedFrom<gpdp::Posterior>);

TEST(ReleasePostprocess, SmoothingKeepsConstantsAndSpreadsAPointSymmetrically) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:21,0:1:21");
  MatrixXd paths = MatrixXd::Constant(grid.size(), 2, 3.0);
  paths(10 + 21 * 10, 1) = 4.0;  // a bump at the centre of field 2
  const MatrixXd s = gr::smooth_fields(paths, grid, 0.1);
  // Constant up to rounding everywhere, the edges and corners included (renormalised windows).
  EXPECT_NEAR((s.col(0).array() - 3.0).abs().maxCoeff(), 0.0, 1e-14);
  EXPECT_NEAR(s(9 + 21 * 10, 1), s(11 + 21 * 10, 1), 1e-14);
  EXPECT_NEAR(s(10 + 21 * 9, 1), s(10 + 21 * 11, 1), 1e-14);
  EXPECT_NEAR(s(9 + 21 * 10, 1), s(10 + 21 * 9, 1), 1e-14);
  EXPECT_LT(s(10 + 21 * 10, 1), 4.0);
  EXPECT_GT(s(10 + 21 * 10, 1), 3.0);
  EXPECT_EQ(gr::smooth_fields(paths, grid, 0.0), paths);
  EXPECT_THROW(gr::smooth_fields(paths.topRows(5), grid, 0.1), gpdp::InputError);
}

TEST(ReleasePostprocess, SmoothingLeavesOutCellsBeyondTheEdge) {
  // 1-D grid, step 0.1, bandwidth 0.09: window radius ⌈2.7⌉ = 3 cells, weights exp(−(0.1k/h)²/2).
  // At the first cell only k = 0..3 exist, so f(x) = x smooths to Σ w_k x_k / Σ w_k (a reflecting
  // edge would mirror k = −3..−1 onto the same cells and give a different value).
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:11");
  const VectorXd x = grid.points().col(0);
  const double h = 0.09;
  const VectorXd s = gr::smooth_fields(x, grid, h);
  double sum = 0, weight = 0;
  for (int k = 0; k <= 3; ++k) {
    const double d = 0.1 * k / h;
    sum += std::exp(-0.5 * d * d) * x[k];
    weight += std::exp(-0.5 * d * d);
  }
  EXPECT_NEAR(s[0], sum / weight, 1e-14);
  EXPECT_NEAR(s[5], 0.5, 1e-14);  // interior, symmetric window: a linear field is kept
  EXPECT_NEAR(s[10], 1.0 - sum / weight, 1e-14);
}

TEST(ReleasePostprocess, SmoothingTreatsBlankCellsLikeTheGridEdge) {
  // A mask (NaN) splits a 1-D field: each side is smoothed as if the blank cells were the edge,
  // so the left half of 0:1:11 with cells 5.. blank equals the smoothing of the 5-cell grid
  // 0:0.4:5.
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:11");
  VectorXd f = grid.points().col(0).array().square().matrix();
  VectorXd masked = f;
  masked.tail(6).setConstant(std::numeric_limits<double>::quiet_NaN());
  const VectorXd s = gr::smooth_fields(masked, grid, 0.1);
  const VectorXd left = gr::smooth_fields(f.head(5), gpdp::Grid::parse("0:0.4:5"), 0.1);
  for (int i = 0; i < 5; ++i) EXPECT_DOUBLE_EQ(s[i], left[i]) << i;
  for (int i = 5; i < 11; ++i) EXPECT_TRUE(std::isnan(s[i])) << i;
}
