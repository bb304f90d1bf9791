// Pathwise sampler (Matheron's rule + circulant embedding, docs/mathematics.md §3): posterior draws
// against the analytic posterior of Posterior::mean/covariance, the lattice plan (refined/extended
// lattices), added prior noise η, and the reasons it refuses.
//
// Statistical tests (fixed seeds, so deterministic): each check rejects when the binned χ² p-value
// of the Mahalanobis distances or the Bonferroni-corrected per-coordinate KS p-value is below 1e-4,
// or when an entry of the whitened sample covariance (or the whitened sample mean) is more than
// 5.5 standard errors off (≤ 231 entries: ≤ 1e-5). False alarm ≤ 3e-4 per check. With 2·10⁴ draws
// a covariance error of 0.04 or a mean error of 0.04 standard deviations (whitened) is detected.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <string>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/samplers/pathwise.hpp"
#include "support/gof.hpp"

namespace gpdp {
namespace {

constexpr int kDraws = 20000;
constexpr double kAlpha = 1e-4;

// Largest deviation of the whitened sample mean (units 1/√N) and covariance (1/√N off the
// diagonal, √(2/N) on it) from 0 and I.
double whitened_deviation(const Eigen::MatrixXd& draws, const Eigen::VectorXd& mean,
                          const Eigen::MatrixXd& cov) {
  const Eigen::MatrixXd u =
      Eigen::LLT<Eigen::MatrixXd>(cov).matrixL().solve(draws.colwise() - mean);
  const double n = static_cast<double>(draws.cols());
  double worst = (u.rowwise().mean() * std::sqrt(n)).cwiseAbs().maxCoeff();
  const Eigen::MatrixXd s = u * u.transpose() / n;
  for (Eigen::Index i = 0; i < s.rows(); ++i) {
    for (Eigen::Index j = 0; j <= i; ++j) {
      const double se = i == j ? std::sqrt(2.0 / n) : std::sqrt(1.0 / n);
      worst = std::max(worst, std::abs(s(i, j) - (i == j ? 1.0 : 0.0)) / se);
    }
  }
  return worst;
}

// Data whose covariates are nodes of `grid` (rows `nodes` of Grid::points()), one duplicated.
Posterior posterior_on_nodes(const Kernel& k, const Grid& grid, const std::vector<long>& nodes,
                             double r, double sigma, std::uint64_t seed) {
  const Points pts = grid.points();
  Points x(static_cast<Eigen::Index>(nodes.size()) + 1, grid.dim());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    x.row(static_cast<Eigen::Index>(i)) = pts.row(nodes[i]);
  x.row(x.rows() - 1) = x.row(0);
  SeededRng rng(seed);
  Eigen::VectorXd y(x.rows());
  for (Eigen::Index i = 0; i < y.size(); ++i)
    y[i] = std::sin(4.0 * x(i, 0)) + 0.3 * rng.standard_normal();
  return Posterior(k, x, y, {r, sigma});
}

void expect_posterior_law(const Posterior& post, const Grid& grid, double eta, std::uint64_t seed,
                          const std::string& expect_in_detail) {
  ASSERT_EQ(pathwise_unavailable_reason(post, grid, eta), "");
  SeededRng rng(seed);
  const Draws draws = sample_pathwise(post, grid, kDraws, rng, eta);
  EXPECT_EQ(draws.method, "pathwise");
  EXPECT_NE(draws.detail.find(expect_in_detail), std::string::npos) << draws.detail;
  const Points pts = grid.points();
  const Eigen::VectorXd mean = post.mean(pts);
  const Eigen::MatrixXd cov = post.covariance(pts) + eta * eta * post.kernel().gram(pts);
  const auto fit = test::check_gaussian(draws.values, mean, cov);
  EXPECT_EQ(fit.rank, pts.rows());
  EXPECT_GT(fit.chi2_p, kAlpha) << draws.detail;
  EXPECT_GT(fit.ks_min_p, kAlpha) << draws.detail;
  EXPECT_LT(whitened_deviation(draws.values, mean, cov), 5.5) << draws.detail;
}

TEST(Pathwise, PosteriorLaw1D) {
  const Grid grid = Grid::parse("0:1:9");
  const Posterior post = posterior_on_nodes(Kernel::matern32(0.3), grid, {0, 2, 3, 7}, 0.4, 1.3, 1);
  expect_posterior_law(post, grid, 0.0, 21, "minimal");
}

TEST(Pathwise, PosteriorLaw2DCutOffWithEta) {
  // Exponential ℓ = 1 on the unit square: the cut-off embedding; η-noise on the same embedding.
  const Grid grid = Grid::parse("0:1:5,0:1:4");
  const Posterior post =
      posterior_on_nodes(Kernel::exponential(1.0), grid, {0, 6, 7, 13, 19}, 0.3, 0.8, 2);
  expect_posterior_law(post, grid, 0.5, 22, "cut-off");
}

TEST(Pathwise, CovariatesOnARefinedAndExtendedLattice) {
  // Step 0.2; covariates at 0.1 (half step), 1.3 and −0.2 (outside the grid, on the lattice).
  const Grid grid = Grid::parse("0:1:6");
  Points x(5, 1);
  x << 0.1, 0.5, 1.3, -0.2, 0.1;
  Eigen::VectorXd y(5);
  y << 0.3, -0.5, 1.0, 0.2, 0.4;
  const Posterior post(Kernel::squared_exponential(0.25), x, y, {0.5, 1.1});
  expect_posterior_law(post, grid, 0.3, 23, "refined by 2");
}

TEST(Pathwise, MeanEqualsPosteriorMeanToRoundoff) {
  // With σ = 1e-12 the random part is negligible: the draw is μ_D computed by FFT convolution.
  const Grid grid = Grid::parse("0:1:33,0:2:17");
  std::vector<long> nodes;
  for (long i = 0; i < 40; ++i) nodes.push_back((i * 97) % grid.size());
  const Posterior post = posterior_on_nodes(Kernel::exponential(0.3), grid, nodes, 0.2, 1e-12, 3);
  SeededRng rng(4);
  const Draws draws = sample_pathwise(post, grid, 2, rng, 0.0);
  const Eigen::VectorXd mu = post.mean(grid.points());
  for (int l = 0; l < 2; ++l) {
    EXPECT_LT((draws.values.col(l) - mu).cwiseAbs().maxCoeff(), 1e-9 * mu.cwiseAbs().maxCoeff());
  }
}

// Scattered data: covariates uniform on the grid's box widened by 10 % each side (so some lie
// outside the grid), off every refined lattice; y = sin(4 x₁) + noise.
Posterior scattered_posterior(const Kernel& k, const Grid& grid, int n, double r, double sigma,
                              std::uint64_t seed) {
  SeededRng rng(seed);
  Points x(n, grid.dim());
  for (int a = 0; a < grid.dim(); ++a) {
    const GridAxis& axis = grid.axes()[static_cast<std::size_t>(a)];
    const double span = axis.hi - axis.lo;
    for (int i = 0; i < n; ++i) x(i, a) = axis.lo - 0.1 * span + 1.2 * span * rng.uniform01();
  }
  Eigen::VectorXd y(n);
  for (int i = 0; i < n; ++i) y[i] = std::sin(4.0 * x(i, 0)) + 0.3 * rng.standard_normal();
  return Posterior(k, x, y, {r, sigma});
}

// The checks of the header against the law written out from docs/mathematics.md §1
// (test::analytic_law, an explicit inverse: not the code under test). 208–240 points: the
// whitened covariance has ≤ 2.9·10⁴ entries, so its threshold is 6.5 standard errors (false alarm
// ≤ 2.4·10⁻⁶ under the normal approximation); it detects a whitened error of 0.046.
struct LawCheck {
  double chi2_p, ks_min_p, whitened;
  bool rejects() const { return chi2_p < kAlpha || ks_min_p < kAlpha || whitened > 6.5; }
};
LawCheck check_against_analytic(const Draws& draws, const Posterior& post, const Grid& grid,
                                double eta) {
  const Points pts = grid.points();
  const auto law =
      test::analytic_law(post.kernel(), post.X(), post.y(), post.r(), post.sigma(), eta, pts);
  const auto fit = test::check_gaussian(draws.values, law.mean, law.cov);
  return {fit.chi2_p, fit.ks_min_p, whitened_deviation(draws.values, law.mean, law.cov)};
}

void expect_off_lattice_law(const Posterior& post, const Grid& grid, double eta, std::uint64_t seed,
                            const std::vector<std::string>& in_detail) {
  ASSERT_EQ(pathwise_unavailable_reason(post, grid, eta), "");
  SeededRng rng(seed);
  const Draws draws = sample_pathwise(post, grid, kDraws, rng, eta);
  for (const auto& text : in_detail)
    EXPECT_NE(draws.detail.find(text), std::string::npos) << draws.detail;
  const LawCheck c = check_against_analytic(draws, post, grid, eta);
  EXPECT_FALSE(c.rejects()) << c.chi2_p << " " << c.ks_min_p << " " << c.whitened << "\n"
                            << draws.detail;
}

TEST(Pathwise, PosteriorLaw2DOffLatticeWithEta) {
  // 25 scattered covariates, exponential ℓ = 0.3, a 16 x 13 grid (208 points), η = 0.5.
  const Grid grid = Grid::parse("0:1:16,0:1:13");
  expect_off_lattice_law(scattered_posterior(Kernel::exponential(0.3), grid, 25, 0.4, 0.9, 41),
                         grid, 0.5, 42,
                         {"25 off-lattice covariate(s) drawn from their exact law", "minimal"});
}

TEST(Pathwise, PosteriorLaw1DOffLattice) {
  // Exponential with ℓ twice the grid's span: 240 points, 12 scattered covariates (Auto would use
  // the Markov sampler here; this calls pathwise directly).
  const Grid grid = Grid::parse("0:1:240");
  expect_off_lattice_law(scattered_posterior(Kernel::exponential(2.0), grid, 12, 0.3, 1.2, 43),
                         grid, 0.0, 44, {"12 off-lattice"});
}

TEST(Pathwise, PosteriorLaw2DOffLatticeCutOff) {
  // Exponential ℓ = 1 on the unit square (the cut-off embedding), 15 x 15 grid, 20 covariates.
  const Grid grid = Grid::parse("0:1:15,0:1:15");
  expect_off_lattice_law(scattered_posterior(Kernel::exponential(1.0), grid, 20, 0.3, 1.1, 46),
                         grid, 0.0, 47, {"cut-off", "20 off-lattice"});
}

TEST(Pathwise, SnappingCovariatesToTheGridIsDetected) {
  // The power of the checks above against the shortcut the off-lattice sampler avoids: the exact
  // posterior of the covariates moved to their nearest grid nodes (at most half a step, 0.033,
  // against ℓ = 0.3) is rejected as a draw of the true posterior.
  const Grid grid = Grid::parse("0:1:16,0:1:13");
  const Posterior post = scattered_posterior(Kernel::exponential(0.3), grid, 25, 0.4, 0.9, 41);
  Points snapped = post.X();
  for (Eigen::Index i = 0; i < snapped.rows(); ++i) {
    for (int a = 0; a < 2; ++a) {
      const GridAxis& axis = grid.axes()[static_cast<std::size_t>(a)];
      snapped(i, a) = axis.lo + std::round((snapped(i, a) - axis.lo) / axis.step()) * axis.step();
    }
  }
  const Posterior moved(post.kernel(), snapped, post.y(), {post.r(), post.sigma()});
  SeededRng rng(42);
  const Draws draws = sample_pathwise(moved, grid, kDraws, rng, 0.5);
  EXPECT_NE(draws.detail.find("on lattice nodes"), std::string::npos) << draws.detail;
  const LawCheck c = check_against_analytic(draws, post, grid, 0.5);
  EXPECT_TRUE(c.rejects()) << c.chi2_p << " " << c.ks_min_p << " " << c.whitened;
}

TEST(Pathwise, OffLatticeMeanEqualsPosteriorMeanToRoundoff) {
  const Grid grid = Grid::parse("0:1:33,0:2:17");
  const Posterior post = scattered_posterior(Kernel::exponential(0.3), grid, 40, 0.2, 1e-12, 45);
  SeededRng rng(4);
  const Draws draws = sample_pathwise(post, grid, 2, rng, 0.0);
  const Eigen::VectorXd mu = post.mean(grid.points());
  for (int l = 0; l < 2; ++l) {
    EXPECT_LT((draws.values.col(l) - mu).cwiseAbs().maxCoeff(), 1e-9 * mu.cwiseAbs().maxCoeff());
  }
}

TEST(Pathwise, ReasonsItRefuses) {
  const Grid grid = Grid::parse("0:1:11");
  Points x(3, 1);
  x << 0.1, 0.123, 0.5;
  const Eigen::VectorXd y = Eigen::VectorXd::Ones(3);
  const Posterior off(Kernel::exponential(0.5), x, y, {0.5, 1.0});
  EXPECT_EQ(pathwise_unavailable_reason(off, grid, 0.0), "");
  PathwiseOptions on_lattice_only;
  on_lattice_only.off_lattice = false;
  const std::string reason = pathwise_unavailable_reason(off, grid, 0.0, on_lattice_only);
  EXPECT_NE(reason.find("not on the grid lattice"), std::string::npos) << reason;
  EXPECT_NE(reason.find("on axis x1"), std::string::npos) << reason;
  // The reason reaches the public certificate: no private covariate's value or offset in it.
  EXPECT_EQ(reason.find("grid steps from"), std::string::npos) << reason;
  EXPECT_EQ(reason.find("0.23"), std::string::npos) << reason;
  SeededRng rng(1);
  EXPECT_THROW(sample_pathwise(off, grid, 1, rng, 0.0, on_lattice_only), InputError);
  // The squared exponential's embedding is singular to rounding: nothing to condition on.
  const Posterior smooth(Kernel::squared_exponential(0.5), x, y, {0.5, 1.0});
  EXPECT_NE(pathwise_unavailable_reason(smooth, Grid::parse("0:1:41"), 0.0)
                .find("no positive definite (invertible)"),
            std::string::npos);
  std::string why;
  EXPECT_FALSE(try_sample_pathwise(smooth, Grid::parse("0:1:41"), 1, rng, 0.0, why).has_value());
  EXPECT_NE(why.find("positive definite"), std::string::npos) << why;

  x << 0.1, 0.2, 0.5;
  const Posterior on(Kernel::exponential(0.5), x, y, {0.5, 1.0});
  EXPECT_EQ(pathwise_unavailable_reason(on, grid, 0.0), "");
  EXPECT_NE(pathwise_unavailable_reason(on, grid, -1.0).find("η"), std::string::npos);
  EXPECT_NE(pathwise_unavailable_reason(on, Grid::parse("0:1:5,0:1:5"), 0.0).find("covariates"),
            std::string::npos);
  EXPECT_NE(pathwise_unavailable_reason(on, Grid::parse("0:0:1"), 0.0).find("single point"),
            std::string::npos);

  Points x3(2, 3);
  x3 << 0, 0, 0, 1, 1, 1;
  const Posterior p3(Kernel::exponential(0.5), x3, Eigen::VectorXd::Ones(2), {0.5, 1.0});
  EXPECT_NE(
      pathwise_unavailable_reason(p3, Grid::parse("0:1:3,0:1:3,0:1:3"), 0.0).find("1-D and 2-D"),
      std::string::npos);

  PathwiseOptions tiny;
  tiny.embedding.max_bytes = 100.0;
  EXPECT_NE(pathwise_unavailable_reason(on, grid, 0.0, tiny).find("no nonnegative definite"),
            std::string::npos);
  EXPECT_THROW(sample_pathwise(on, grid, 1, rng, 0.0, tiny), InputError);
  EXPECT_THROW(sample_pathwise(on, grid, 0, rng, 0.0), InputError);
}

}  // namespace
}  // namespace gpdp
