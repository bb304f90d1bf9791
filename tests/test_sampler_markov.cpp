// Markov (Ornstein–Uhlenbeck, Lemma B.6) engine: posterior mean/variance/weights/d_eff equal the
// dense formulas to ~1e-9 relative, the Posterior never factorises K + r²I for them, and the
// forward-filter backward-sampling draws follow the analytic posterior (with and without η).
//
// Statistical tests: a check rejects when the χ² p-value of the Mahalanobis distances or the
// Bonferroni-corrected smallest per-coordinate KS p-value is below 1e-4: false-alarm rate ≤ 2e-4
// per check (fixed seeds, deterministic outcome); 2·10⁴ draws.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/samplers/markov.hpp"
#include "gpdp/samplers/sampler.hpp"
#include "support/gof.hpp"
#include "support/regression_data.hpp"

namespace gpdp {
namespace {

constexpr int kDraws = 20000;
constexpr double kAlpha = 1e-4;

using Data = test::RegressionData;

// 1-D data with duplicate covariates (some with different responses).
Data make_data(int n, std::uint64_t seed) {
  Data d = test::make_regression_data(
      n, 1, seed, [](double x) { return std::cos(5.0 * x); }, 0.4);
  d.X(n - 1, 0) = d.X(0, 0);
  d.X(n - 2, 0) = d.X(1, 0);
  d.y[n - 2] = d.y[1];
  d.X(n - 3, 0) = d.X(1, 0);
  return d;
}

// The dense posterior mean and σ² k_D(x, x) for the 1-D exponential kernel in long double, so the
// reference's own cancellation error (≈ 1e-12 absolute in double for r = 0.05) does not blur the
// comparison of the Markov engine at 1e-9 relative.
using LMatrix = Eigen::Matrix<long double, Eigen::Dynamic, Eigen::Dynamic>;
using LVector = Eigen::Matrix<long double, Eigen::Dynamic, 1>;
struct Reference {
  Eigen::VectorXd mean, var, weights;
  double deff;
};
Reference dense_reference(const Data& d, const Points& xs, double ell, double r, double sigma) {
  const Eigen::Index n = d.X.rows(), m = xs.rows();
  auto k = [ell](double a, double b) { return std::exp(-std::abs((long double)a - b) / ell); };
  LMatrix kreg(n, n), ks(n, m);
  for (Eigen::Index i = 0; i < n; ++i) {
    for (Eigen::Index j = 0; j < n; ++j)
      kreg(i, j) = k(d.X(i, 0), d.X(j, 0)) + (i == j ? (long double)r * r : 0.0L);
    for (Eigen::Index j = 0; j < m; ++j) ks(i, j) = k(d.X(i, 0), xs(j, 0));
  }
  const Eigen::LLT<LMatrix> llt(kreg);
  const LVector w = llt.solve(d.y.cast<long double>());
  const LMatrix v = llt.matrixL().solve(ks);
  Reference ref;
  ref.mean = (ks.transpose() * w).cast<double>();
  ref.var =
      ((LVector::Ones(m) - v.colwise().squaredNorm().transpose()) * (long double)sigma * sigma)
          .cast<double>();
  ref.weights = w.cast<double>();
  const LMatrix inv = llt.solve(LMatrix::Identity(n, n));
  ref.deff = (double)((kreg - (long double)r * r * LMatrix::Identity(n, n)) * inv).trace();
  return ref;
}

// |a − b| ≤ tol · max(|b|, floor) elementwise.
void expect_close(const Eigen::VectorXd& a, const Eigen::VectorXd& b, double tol, double floor) {
  ASSERT_EQ(a.size(), b.size());
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    EXPECT_LE(std::abs(a[i] - b[i]), tol * std::max(std::abs(b[i]), floor))
        << "at " << i << ": " << a[i] << " vs " << b[i];
  }
}

TEST(MarkovEngine, MeanVarianceWeightsDeffEqualDense) {
  const Data d = make_data(150, 3);
  for (const double r : {0.05, 0.3, 2.0}) {
    for (const double ell : {0.02, 0.3, 5.0}) {
      const auto kern = Kernel::exponential(ell);
      const double sigma = 1.7;
      const Posterior post(kern, d.X, d.y, {r, sigma});
      ASSERT_NE(post.markov(), nullptr);
      // Unsorted queries: outside the data range on both sides, training points, duplicates,
      // and points very close to training points.
      SeededRng rng(5);
      Points xs(120, 1);
      for (int i = 0; i < 100; ++i) xs(i, 0) = -0.3 + 1.6 * rng.uniform01();
      for (int i = 100; i < 110; ++i) xs(i, 0) = d.X(i - 100, 0);
      xs(110, 0) = d.X(0, 0);
      xs(111, 0) = d.X(1, 0) + 1e-12;
      xs(112, 0) = d.X(1, 0) - 1e-9;
      for (int i = 113; i < 120; ++i) xs(i, 0) = xs(i - 13, 0);
      const Reference ref = dense_reference(d, xs, ell, r, sigma);
      const Eigen::VectorXd mean = post.mean(xs);
      const Eigen::VectorXd var = post.variance(xs);
      expect_close(mean, ref.mean, 1e-9, ref.mean.cwiseAbs().maxCoeff());
      expect_close(var, ref.var, 1e-9, 1e-6 * sigma * sigma);
      expect_close(post.weights(), ref.weights, 1e-9, ref.weights.cwiseAbs().maxCoeff());
      EXPECT_NEAR(post.effective_dimension(), ref.deff, 1e-9 * ref.deff);
      const Eigen::VectorXd p = post.excursion_probability(xs, 0.2);
      for (Eigen::Index i = 0; i < xs.rows(); ++i) {
        EXPECT_NEAR(p[i], 0.5 * std::erfc(-(ref.mean[i] - 0.2) / std::sqrt(2 * ref.var[i])), 1e-9);
      }
      EXPECT_FALSE(post.has_dense_factor()) << "mean/variance/d_eff must not factorise K + r²I";
    }
  }
}

TEST(MarkovEngine, LargeDataNeverFormsTheDenseMatrix) {
  // n = 2·10⁵: an n x n matrix would need 320 GB; everything below must run in O(n).
  const int n = 200000;
  SeededRng rng(8);
  Points x(n, 1);
  Eigen::VectorXd y(n);
  for (int i = 0; i < n; ++i) {
    x(i, 0) = rng.uniform01();
    y[i] = std::sin(10 * x(i, 0)) + rng.standard_normal();
  }
  const Posterior post(Kernel::exponential(0.1), x, y, {1.0, 1.0});
  Points xs(1000, 1);
  for (int i = 0; i < 1000; ++i) xs(i, 0) = i / 999.0;
  const Eigen::VectorXd mu = post.mean(xs);
  EXPECT_TRUE(mu.allFinite());
  EXPECT_NEAR(mu[500], std::sin(5.0), 0.15);  // plenty of data: the mean tracks the truth
  EXPECT_GT(post.effective_dimension(), 1.0);
  const Draws d = sample(post, xs, 2, rng);
  EXPECT_EQ(d.method, "markov");
  EXPECT_TRUE(d.values.allFinite());
  EXPECT_FALSE(post.has_dense_factor());
}

void check_markov_law(double eta) {
  const Data d = make_data(12, 4);
  const auto kern = Kernel::exponential(0.25);
  const double r = 0.3, sigma = 1.2;
  const Posterior post(kern, d.X, d.y, {r, sigma});
  Points xs(8, 1);
  // Unsorted, outside the data range, a training point twice, a duplicated covariate's point.
  xs << 0.9, -0.1, 0.33, 1.3, 0.5, 0.0, 0.0, 0.0;
  xs(5, 0) = d.X(2, 0);
  xs(6, 0) = d.X(2, 0);
  xs(7, 0) = d.X(0, 0);
  SeededRng rng(eta > 0 ? 77 : 66);
  const Draws draws = sample(post, xs, kDraws, rng, {SamplerMethod::Markov, eta});
  EXPECT_EQ(draws.method, "markov");
  for (Eigen::Index l = 0; l < draws.values.cols(); ++l) {
    ASSERT_EQ(draws.values(5, l), draws.values(6, l));
  }
  const auto law = test::analytic_law(kern, d.X, d.y, r, sigma, eta, xs);
  const auto fit = test::check_gaussian(draws.values, law.mean, law.cov);
  EXPECT_EQ(fit.rank, 7);
  EXPECT_LT(fit.null_residual, 1e-9);
  EXPECT_GT(fit.chi2_p, kAlpha);
  EXPECT_GT(fit.ks_min_p, kAlpha);
}

TEST(MarkovSampler, MatchesAnalyticPosterior) { check_markov_law(0.0); }
TEST(MarkovSampler, MatchesAnalyticPosteriorWithEta) { check_markov_law(0.7); }

TEST(MarkovSampler, DetectsAWrongLaw) {
  // Power check: the same draws against a posterior with a 10 % larger σ must be rejected.
  const Data d = make_data(12, 4);
  const auto kern = Kernel::exponential(0.25);
  const Posterior post(kern, d.X, d.y, {0.3, 1.2});
  Points xs(4, 1);
  xs << 0.1, 0.4, 0.7, 1.0;
  SeededRng rng(1);
  const Draws draws = sample(post, xs, kDraws, rng);
  const auto wrong = test::analytic_law(kern, d.X, d.y, 0.3, 1.32, 0.0, xs);
  EXPECT_LT(test::check_gaussian(draws.values, wrong.mean, wrong.cov).chi2_p, kAlpha);
}

TEST(MarkovSampler, RejectsOtherKernels) {
  const Data d = make_data(5, 1);
  const Posterior se(Kernel::squared_exponential(0.3), d.X, d.y, {0.3, 1.0});
  EXPECT_EQ(se.markov(), nullptr);
  Points xs(1, 1);
  xs << 0.5;
  SeededRng rng(1);
  EXPECT_THROW(sample(se, xs, 1, rng, {SamplerMethod::Markov, 0.0}), InputError);
}

}  // namespace
}  // namespace gpdp
