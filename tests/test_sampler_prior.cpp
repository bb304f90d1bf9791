// PriorSampler (samplers/prior.hpp): exact N(0, k(xs, xs)) draws on a whole grid and a masked grid
// (circulant embedding) and on scattered points (dense): the empirical covariance of 6000 seeded
// draws matches the kernel within 5 standard errors at every checked pair (a wrong lattice step or
// a misplaced mask cell shifts some entry by far more).
#include <gtest/gtest.h>

#include <cmath>

#include "gpdp/samplers/prior.hpp"

using namespace gpdp;

namespace {

void expect_kernel_covariance(PriorSampler& sampler, const Points& pts, const Kernel& k,
                              std::uint64_t seed) {
  SeededRng rng(seed);
  const int B = 6000;
  const Eigen::MatrixXd d = sampler.draw(rng, B);
  ASSERT_EQ(d.rows(), pts.rows());
  const Eigen::MatrixXd emp = d * d.transpose() / B;
  for (Eigen::Index i = 0; i < pts.rows(); i += 3) {
    for (Eigen::Index j = i; j < pts.rows(); j += 5) {
      const double kij = k(pts.row(i), pts.row(j));
      const double se = std::sqrt((1.0 + kij * kij) / B);  // var of x_i x_j for unit variances
      EXPECT_NEAR(emp(i, j), kij, 5 * se) << sampler.method() << " at " << i << ", " << j;
    }
  }
}

}  // namespace

TEST(PriorSampler, WholeAndMaskedGridsByCirculantEmbedding) {
  const Kernel k = Kernel::exponential(0.3);
  const Grid grid = Grid::parse("0:1:9,0:2:7");
  PriorSampler whole(k, grid.points(), grid, {});
  EXPECT_NE(whole.method().find("circulant"), std::string::npos);
  expect_kernel_covariance(whole, grid.points(), k, 1);
  std::vector<Eigen::Index> cells{0, 4, 9, 10, 22, 40, 62};
  Points kept(static_cast<Eigen::Index>(cells.size()), 2);
  for (std::size_t i = 0; i < cells.size(); ++i)
    kept.row(static_cast<Eigen::Index>(i)) = grid.points().row(cells[i]);
  PriorSampler masked(k, kept, grid, cells);
  expect_kernel_covariance(masked, kept, k, 2);
}

TEST(PriorSampler, ScatteredPointsByDenseFactorisation) {
  const Kernel k = Kernel::matern52(0.4);
  SeededRng rng(3);
  Points pts(12, 2);
  for (Eigen::Index i = 0; i < pts.size(); ++i) pts.data()[i] = rng.uniform01();
  pts.row(11) = pts.row(2);  // a repeated point: singular, still exact
  PriorSampler dense(k, pts, std::nullopt, {});
  EXPECT_NE(dense.method().find("dense"), std::string::npos);
  expect_kernel_covariance(dense, pts, k, 4);
}
