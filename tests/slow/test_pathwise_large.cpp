// Pathwise sampler on larger grids (slow suite): the posterior law on a 16x16 grid with the
// cut-off embedding, and the posterior mean by FFT convolution on a 257x257 grid.
//
// Statistical test (fixed seed): rejects when the binned χ² p-value of the Mahalanobis distances or
// the Bonferroni-corrected per-coordinate KS p-value is below 1e-4, or when an entry of the
// whitened sample mean/covariance is more than 6 standard errors off (33 152 entries, Bonferroni:
// ≤ 7e-5). False alarm ≤ 3e-4.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "gpdp/samplers/pathwise.hpp"
#include "support/gof.hpp"

namespace gpdp {
namespace {

Posterior posterior_on_nodes(const Kernel& k, const Grid& grid, long n, double r, double sigma,
                             std::uint64_t seed) {
  SeededRng rng(seed);
  const Points pts = grid.points();
  Points x(n, grid.dim());
  Eigen::VectorXd y(n);
  for (long i = 0; i < n; ++i) {
    x.row(i) = pts.row(
        static_cast<Eigen::Index>(rng.next_u64() % static_cast<std::uint64_t>(grid.size())));
    y[i] = std::sin(5.0 * x(i, 0)) * std::cos(3.0 * x(i, 1)) + 0.2 * rng.standard_normal();
  }
  return Posterior(k, x, y, {r, sigma});
}

TEST(PathwiseLarge, PosteriorLaw16x16CutOff) {
  const Grid grid = Grid::parse("0:1:16,0:1:16");
  const Posterior post = posterior_on_nodes(Kernel::exponential(1.0), grid, 30, 0.3, 1.2, 5);
  SeededRng rng(6);
  const Draws draws = sample_pathwise(post, grid, 20000, rng, 0.2);
  EXPECT_NE(draws.detail.find("cut-off"), std::string::npos) << draws.detail;
  const Points pts = grid.points();
  const Eigen::VectorXd mean = post.mean(pts);
  const Eigen::MatrixXd cov = post.covariance(pts) + 0.04 * post.kernel().gram(pts);
  const auto fit = test::check_gaussian(draws.values, mean, cov);
  EXPECT_GT(fit.chi2_p, 1e-4);
  EXPECT_GT(fit.ks_min_p, 1e-4);
  const Eigen::MatrixXd u =
      Eigen::LLT<Eigen::MatrixXd>(cov).matrixL().solve(draws.values.colwise() - mean);
  const double n = static_cast<double>(draws.values.cols());
  EXPECT_LT((u.rowwise().mean() * std::sqrt(n)).cwiseAbs().maxCoeff(), 6.0);
  EXPECT_LT(test::whitened_covariance_deviation(draws.values.colwise() - mean, cov), 6.0);
}

TEST(PathwiseLarge, MeanOn257x257GridEqualsPosteriorMean) {
  const Grid grid = Grid::parse("0:1:257,0:1:257");
  const Posterior post = posterior_on_nodes(Kernel::exponential(0.7), grid, 500, 0.2, 1e-12, 7);
  SeededRng rng(8);
  const Draws draws = sample_pathwise(post, grid, 1, rng, 0.0);
  const Eigen::VectorXd mu = post.mean(grid.points());
  EXPECT_LT((draws.values.col(0) - mu).cwiseAbs().maxCoeff(), 1e-9 * mu.cwiseAbs().maxCoeff());
}

}  // namespace
}  // namespace gpdp
