// Long statistical runs of every exact sampler (label "slow": ctest -L slow). Larger sample sizes
// than the default suite give power against small errors: with 2·10⁵ draws the per-coordinate KS
// test detects a 1 % error in a standard deviation with probability > 0.99.
// A check rejects when the χ² p-value of the Mahalanobis distances or the Bonferroni-corrected
// smallest KS p-value is below 1e-4: false-alarm rate ≤ 2e-4 per check, fixed seeds.
#include <gtest/gtest.h>

#include "gpdp/samplers/pathwise.hpp"
#include "gpdp/samplers/sample_path.hpp"
#include "gpdp/samplers/sampler.hpp"
#include "support/gof.hpp"

namespace gpdp {
namespace {

constexpr int kDraws = 200000;
constexpr double kAlpha = 1e-4;

struct Case {
  Kernel kernel;
  int dim;
  double eta;
  SamplerMethod method;
};

void run_case(const Case& c, std::uint64_t seed) {
  SeededRng rng(seed);
  const int n = 30;
  Points X(n, c.dim);
  Eigen::VectorXd y(n);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < c.dim; ++j) X(i, j) = rng.uniform01();
    y[i] = std::sin(5 * X(i, 0)) + 0.2 * rng.standard_normal();
  }
  X.row(n - 1) = X.row(0);  // duplicate covariate
  const Posterior post(c.kernel, X, y, {0.25, 1.4});
  Points xs(16, c.dim);
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < c.dim; ++j) xs(i, j) = -0.1 + 1.2 * rng.uniform01();
  }
  xs.row(3) = X.row(5);  // a training point
  const Draws d = sample(post, xs, kDraws, rng, {c.method, c.eta});
  const auto law = test::analytic_law(c.kernel, X, y, 0.25, 1.4, c.eta, xs);
  const auto fit = test::check_gaussian(d.values, law.mean, law.cov);
  EXPECT_GT(fit.chi2_p, kAlpha) << d.method << " " << d.detail;
  EXPECT_GT(fit.ks_min_p, kAlpha) << d.method << " " << d.detail;
}

TEST(SlowSamplers, DenseMarkovWithAndWithoutEta) {
  run_case({Kernel::exponential(0.3), 1, 0.0, SamplerMethod::Markov}, 1);
  run_case({Kernel::exponential(0.3), 1, 0.5, SamplerMethod::Markov}, 2);
  run_case({Kernel::exponential(0.3), 1, 0.0, SamplerMethod::Dense}, 3);
  run_case({Kernel::matern32(0.3), 2, 0.0, SamplerMethod::Dense}, 4);
  run_case({Kernel::squared_exponential(0.3), 2, 0.4, SamplerMethod::Dense}, 5);
}

TEST(SlowSamplers, PathwiseOnAGridWhenAvailable) {
  SeededRng rng(6);
  Points X(20, 2);
  Eigen::VectorXd y(20);
  for (int i = 0; i < 20; ++i) {
    // Covariates on grid nodes (multiples of 1/3), where the pathwise sampler can be exact.
    X.row(i) << std::round(3 * rng.uniform01()) / 3, std::round(3 * rng.uniform01()) / 3;
    y[i] = rng.standard_normal();
  }
  const Posterior post(Kernel::exponential(0.3), X, y, {0.3, 1.0});
  const Grid grid = Grid::parse("0:1:4,0:1:4");
  const std::string why = pathwise_unavailable_reason(post, grid, 0.0);
  if (!why.empty()) GTEST_SKIP() << "pathwise unavailable: " << why;
  const Draws d = sample(post, grid, kDraws, rng, {SamplerMethod::Pathwise, 0.0});
  const auto law = test::analytic_law(post.kernel(), X, y, 0.3, 1.0, 0.0, grid.points());
  const auto fit = test::check_gaussian(d.values, law.mean, law.cov);
  EXPECT_GT(fit.chi2_p, kAlpha) << d.detail;
  EXPECT_GT(fit.ks_min_p, kAlpha) << d.detail;
}

TEST(SlowSamplers, LazyPathThreeStages) {
  // Three stages of 3 points each (with a repeat in each later stage) vs the one-shot law.
  for (const bool markov : {true, false}) {
    SeededRng rng(markov ? 7 : 8);
    Points X(10, 1);
    Eigen::VectorXd y(10);
    for (int i = 0; i < 10; ++i) {
      X(i, 0) = rng.uniform01();
      y[i] = rng.standard_normal();
    }
    const Kernel kern = markov ? Kernel::exponential(0.3) : Kernel::matern52(0.3);
    const Posterior post(kern, X, y, {0.3, 1.0});
    Points s1(3, 1), s2(3, 1), s3(3, 1);
    s1 << 0.1, 0.5, 0.9;
    s2 << 0.5, 0.3, 1.4;
    s3 << 0.3, 0.31, -0.2;
    Points all(7, 1);
    all << 0.1, 0.5, 0.9, 0.3, 1.4, 0.31, -0.2;
    const int paths = 50000;
    Eigen::MatrixXd values(7, paths);
    for (int l = 0; l < paths; ++l) {
      SamplePath path(post);
      const Eigen::VectorXd a = path.evaluate(s1, rng);
      const Eigen::VectorXd b = path.evaluate(s2, rng);
      const Eigen::VectorXd c = path.evaluate(s3, rng);
      ASSERT_EQ(b[0], a[1]);
      ASSERT_EQ(c[0], b[1]);
      values.col(l) << a, b[1], b[2], c[1], c[2];
    }
    const auto law = test::analytic_law(kern, X, y, 0.3, 1.0, 0.0, all);
    const auto fit = test::check_gaussian(values, law.mean, law.cov);
    EXPECT_GT(fit.chi2_p, kAlpha);
    EXPECT_GT(fit.ks_min_p, kAlpha);
  }
}

}  // namespace
}  // namespace gpdp
