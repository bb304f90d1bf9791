// Dense exact sampler: goodness of fit of seeded draws against the analytic posterior
// (docs/mathematics.md §1, §3), singular covariances, added prior noise η, and the PSD
// factorisation itself.
//
// Statistical tests: each GaussianFit check rejects when the χ² p-value of the Mahalanobis
// distances or the Bonferroni-corrected smallest per-coordinate KS p-value is below 1e-4, so the
// false-alarm rate of one check is ≤ 2e-4 (seeds fixed: the outcome is deterministic). With 2·10⁴
// draws a 3 % error in one standard deviation is detected with probability > 0.99 by the KS test.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "gpdp/error.hpp"
#include "gpdp/samplers/dense.hpp"
#include "gpdp/samplers/sampler.hpp"
#include "support/gof.hpp"
#include "support/regression_data.hpp"

namespace gpdp {
namespace {

constexpr int kDraws = 20000;
constexpr double kAlpha = 1e-4;

using Data = test::RegressionData;

Data make_data(int n, int dim, std::uint64_t seed) {
  return test::make_regression_data(
      n, dim, seed, [](double x) { return std::sin(6.0 * x); }, 0.3);
}

TEST(DenseSampler, MatchesAnalyticPosterior) {
  const Data d = make_data(8, 1, 11);
  const auto kern = Kernel::squared_exponential(0.3);
  const double r = 0.4, sigma = 1.3;
  const Posterior post(kern, d.X, d.y, {r, sigma});
  Points xs(6, 1);
  xs << -0.2, 0.1, 0.45, 0.8, 1.2, d.X(3, 0);  // includes a training point
  SeededRng rng(2024);
  const Draws draws = sample(post, xs, kDraws, rng, {SamplerMethod::Dense, 0.0});
  EXPECT_EQ(draws.method, "dense");
  EXPECT_NE(draws.detail.find("dpotrf"), std::string::npos) << draws.detail;
  const auto law = test::analytic_law(kern, d.X, d.y, r, sigma, 0.0, xs);
  const auto fit = test::check_gaussian(draws.values, law.mean, law.cov);
  EXPECT_EQ(fit.rank, 6);
  EXPECT_GT(fit.chi2_p, kAlpha);
  EXPECT_GT(fit.ks_min_p, kAlpha);
}

TEST(DenseSampler, TwoDimensionalWithDuplicateQueriesAndTrainingPoints) {
  // Exactly singular: duplicated query points and query points equal to training points
  // (including a duplicated covariate in the data).
  Data d = make_data(10, 2, 5);
  d.X.row(9) = d.X.row(4);
  const auto kern = Kernel::exponential(0.5);
  const double r = 0.2, sigma = 0.8;
  const Posterior post(kern, d.X, d.y, {r, sigma});
  Points xs(7, 2);
  xs << 0.3, 0.3, 0.7, 0.2, 0.3, 0.3, 0, 0, 0, 0, 0, 0, 0.5, 0.9;
  xs.row(3) = d.X.row(4);
  xs.row(4) = d.X.row(4);
  xs.row(5) = d.X.row(1);
  SeededRng rng(7);
  const Draws draws = sample(post, xs, kDraws, rng, {SamplerMethod::Dense, 0.0});
  EXPECT_NE(draws.detail.find("7 points, 5 distinct"), std::string::npos) << draws.detail;
  for (Eigen::Index l = 0; l < draws.values.cols(); ++l) {
    ASSERT_EQ(draws.values(0, l), draws.values(2, l));  // same point, same value: exactly
    ASSERT_EQ(draws.values(3, l), draws.values(4, l));
  }
  const auto law = test::analytic_law(kern, d.X, d.y, r, sigma, 0.0, xs);
  const auto fit = test::check_gaussian(draws.values, law.mean, law.cov);
  EXPECT_EQ(fit.rank, 5);
  EXPECT_LT(fit.null_residual, 1e-7);
  EXPECT_GT(fit.chi2_p, kAlpha);
  EXPECT_GT(fit.ks_min_p, kAlpha);
}

TEST(DenseSampler, ConstantKernelIsRankOne) {
  // k ≡ 1 (Lemma B.4): the posterior is a random constant, so every draw is flat.
  const Data d = make_data(5, 1, 3);
  const Posterior post(Kernel::constant(), d.X, d.y, {0.5, 2.0});
  Points xs(4, 1);
  xs << 0.0, 0.25, 0.5, 1.0;
  SeededRng rng(9);
  const Draws draws = sample(post, xs, kDraws, rng, {SamplerMethod::Dense, 0.0});
  EXPECT_NE(draws.detail.find("rank 1 of 4"), std::string::npos) << draws.detail;
  const auto law = test::analytic_law(Kernel::constant(), d.X, d.y, 0.5, 2.0, 0.0, xs);
  const auto fit = test::check_gaussian(draws.values, law.mean, law.cov);
  EXPECT_EQ(fit.rank, 1);
  EXPECT_LT(fit.null_residual, 1e-9);
  EXPECT_GT(fit.chi2_p, kAlpha);
  EXPECT_GT(fit.ks_min_p, kAlpha);
}

TEST(DenseSampler, VeryFineGridWithSmoothKernelIsNumericallySingular) {
  // 60 points within 0.05 under a squared-exponential kernel of lengthscale 0.5: the covariance
  // has numerical rank far below 60; the draw must still follow the law on its support.
  const Data d = make_data(6, 1, 21);
  const auto kern = Kernel::squared_exponential(0.5);
  const Posterior post(kern, d.X, d.y, {0.3, 1.0});
  Points xs(60, 1);
  for (int i = 0; i < 60; ++i) xs(i, 0) = 0.4 + 0.05 * i / 59.0;
  SeededRng rng(31);
  const Draws draws = sample(post, xs, kDraws, rng, {SamplerMethod::Dense, 0.0});
  EXPECT_NE(draws.detail.find("pivoted Cholesky"), std::string::npos) << draws.detail;
  const auto law = test::analytic_law(kern, d.X, d.y, 0.3, 1.0, 0.0, xs);
  // Directions with eigenvalue below 1e-7 λmax have standard deviation < 3e-4 √λmax: test the law
  // on the well-determined support, and that the rest stays at the size the law allows.
  const auto fit = test::check_gaussian(draws.values, law.mean, law.cov, 1e-7);
  EXPECT_GT(fit.chi2_p, kAlpha);
  EXPECT_GT(fit.ks_min_p, kAlpha);
  EXPECT_LT(fit.null_residual, 5e-3 * std::sqrt(law.cov.diagonal().maxCoeff()));
}

TEST(DenseSampler, AddedPriorNoiseEta) {
  const Data d = make_data(8, 2, 17);
  const auto kern = Kernel::matern32(0.4);
  const double r = 0.3, sigma = 1.0, eta = 0.6;
  const Posterior post(kern, d.X, d.y, {r, sigma});
  Points xs(5, 2);
  xs << 0.1, 0.1, 0.5, 0.5, 0.9, 0.2, 0.2, 0.9, 0.5, 0.52;
  SeededRng rng(99);
  const Draws draws = sample(post, xs, kDraws, rng, {SamplerMethod::Auto, eta});
  EXPECT_EQ(draws.method, "dense");
  const auto law = test::analytic_law(kern, d.X, d.y, r, sigma, eta, xs);
  const auto fit = test::check_gaussian(draws.values, law.mean, law.cov);
  EXPECT_GT(fit.chi2_p, kAlpha);
  EXPECT_GT(fit.ks_min_p, kAlpha);
  // The law with η = 0 must be rejected: the test has power against a missing η.
  const auto wrong = test::analytic_law(kern, d.X, d.y, r, sigma, 0.0, xs);
  EXPECT_LT(test::check_gaussian(draws.values, wrong.mean, wrong.cov).chi2_p, kAlpha);
}

TEST(FactorPsd, RevealsRankAndReconstructs) {
  SeededRng rng(1);
  Eigen::MatrixXd a(6, 2);
  for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = rng.standard_normal();
  const Eigen::MatrixXd c = a * a.transpose();
  const PsdFactor f = factor_psd(c);
  EXPECT_EQ(f.rank, 2);
  EXPECT_FALSE(f.full_rank);
  EXPECT_LT((f.factor * f.factor.transpose() - c).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_NE(f.detail.find("rank 2 of 6"), std::string::npos);

  const Eigen::MatrixXd spd = c + Eigen::MatrixXd::Identity(6, 6);
  const PsdFactor g = factor_psd(spd);
  EXPECT_TRUE(g.full_rank);
  EXPECT_LT((g.factor * g.factor.transpose() - spd).cwiseAbs().maxCoeff(), 1e-12);

  EXPECT_EQ(factor_psd(Eigen::MatrixXd::Zero(3, 3)).rank, 0);
  Eigen::MatrixXd bad(2, 2);
  bad << 1, 2, 2, 1;  // eigenvalues 3 and −1
  EXPECT_THROW(factor_psd(bad), NumericalError);
}

TEST(DenseSampler, RejectsBadArguments) {
  const Data d = make_data(4, 1, 1);
  const Posterior post(Kernel::squared_exponential(0.3), d.X, d.y, {0.3, 1.0});
  Points xs(2, 1);
  xs << 0.1, 0.2;
  SeededRng rng(1);
  EXPECT_THROW(sample(post, xs, 0, rng), InputError);
  EXPECT_THROW(sample(post, xs, 1, rng, {SamplerMethod::Dense, -1.0}), InputError);
  EXPECT_THROW(sample(post, Points(2, 2), 1, rng), InputError);
}

}  // namespace
}  // namespace gpdp
