// Lazy sample paths (docs/mathematics.md §1, §3): answering X₁ then X₂ has the law of answering X₁
// ∪ X₂ at once; repeated points return the same value; saved states restore; singular conditionals
// are exact.
//
// Statistical tests: 10⁴ independent two-stage paths per case; a check rejects when the χ² p-value
// of the Mahalanobis distances (pseudo-inverse on the support) or the Bonferroni-corrected
// smallest per-coordinate KS p-value is below 1e-4: false-alarm rate ≤ 2e-4 per check, seeds fixed.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <vector>

#include "gpdp/error.hpp"
#include "gpdp/samplers/sample_path.hpp"
#include "support/gof.hpp"
#include "support/regression_data.hpp"

namespace gpdp {
namespace {

constexpr int kPaths = 10000;
constexpr double kAlpha = 1e-4;

using Data = test::RegressionData;

Data make_data(int n, int dim, std::uint64_t seed) {
  return test::make_regression_data(
      n, dim, seed, [](double x) { return std::sin(4.0 * x); }, 0.3);
}

// The answered values (one path per column) against the one-shot analytic law on `all`.
void expect_law(const Eigen::MatrixXd& values, const Kernel& kern, const Data& d, double r,
                double sigma, double eta, const Points& all) {
  const auto law = test::analytic_law(kern, d.X, d.y, r, sigma, eta, all);
  const auto fit = test::check_gaussian(values, law.mean, law.cov);
  EXPECT_EQ(fit.rank, all.rows());
  EXPECT_GT(fit.chi2_p, kAlpha);
  EXPECT_GT(fit.ks_min_p, kAlpha);
}

// Runs kPaths two-stage paths (X1, then X2 which repeats X1's row 1) and checks the joint law of
// the distinct answered values against the one-shot analytic law on X1 ∪ X2.
void check_two_stage(const Kernel& kern, const Data& d, double r, double sigma, double eta,
                     const Points& x1, const Points& x2, const std::string& expect_method) {
  const Posterior post(kern, d.X, d.y, {r, sigma});
  SeededRng rng(4242);
  const Eigen::Index m1 = x1.rows(), m2 = x2.rows();
  Points all(m1 + m2 - 1, x1.cols());  // x2.row(0) duplicates x1.row(1)
  all << x1, x2.bottomRows(m2 - 1);
  Eigen::MatrixXd values(all.rows(), kPaths);
  for (int l = 0; l < kPaths; ++l) {
    SamplePath path(post, eta);
    const Eigen::VectorXd v1 = path.evaluate(x1, rng);
    const Eigen::VectorXd v2 = path.evaluate(x2, rng);
    if (l == 0) {
      EXPECT_NE(path.last_method().find(expect_method), std::string::npos) << path.last_method();
    }
    ASSERT_EQ(v2[0], v1[1]);  // asked again: the same value
    values.col(l) << v1, v2.tail(m2 - 1);
  }
  expect_law(values, kern, d, r, sigma, eta, all);
}

TEST(SamplePath, TwoStageEqualsOneShotMarkov) {
  const Data d = make_data(10, 1, 1);
  Points x1(3, 1), x2(5, 1);
  x1 << 0.2, 0.5, 0.8;
  x2 << 0.5, 0.55, -0.1, 1.2, d.X(3, 0);  // repeat, near, outside, outside, a training point
  check_two_stage(Kernel::exponential(0.3), d, 0.3, 1.1, 0.0, x1, x2, "markov");
}

TEST(SamplePath, TwoStageEqualsOneShotMarkovKernelWithEta) {
  const Data d = make_data(10, 1, 2);
  Points x1(3, 1), x2(4, 1);
  x1 << 0.1, 0.4, 0.9;
  x2 << 0.4, 0.45, 0.0, 1.1;
  check_two_stage(Kernel::exponential(0.3), d, 0.3, 1.0, 0.5, x1, x2, "dense conditional");
}

TEST(SamplePath, TwoStageEqualsOneShotDense2D) {
  const Data d = make_data(12, 2, 3);
  Points x1(3, 2), x2(4, 2);
  x1 << 0.2, 0.2, 0.5, 0.5, 0.8, 0.3;
  x2 << 0.5, 0.5, 0.52, 0.5, 0.1, 0.9, 0.9, 0.9;
  check_two_stage(Kernel::matern52(0.4), d, 0.2, 1.3, 0.0, x1, x2, "dense conditional");
}

TEST(SamplePath, RestoredStateContinuesDeterministically) {
  const Data d = make_data(15, 2, 4);
  const Posterior post(Kernel::exponential(0.5), d.X, d.y, {0.3, 1.0});
  SeededRng rng(1);
  SamplePath path(post, 0.2);
  Points x1(4, 2);
  x1 << 0.1, 0.1, 0.2, 0.7, 0.6, 0.4, 0.9, 0.9;
  const Eigen::VectorXd v1 = path.evaluate(x1, rng);
  EXPECT_EQ(path.size(), 4);
  EXPECT_EQ(path.points(), x1);
  EXPECT_EQ(path.values(), v1);

  SamplePath restored(post, 0.2, path.points(), path.values());
  EXPECT_EQ(restored.evaluate(x1, rng), v1);  // known points: no randomness used
  EXPECT_EQ(restored.last_method(), "");
  Points x2(3, 2);
  x2 << 0.3, 0.3, 0.6, 0.4, 0.5, 0.5;
  SeededRng a(77), b(77);
  const Eigen::VectorXd w1 = path.evaluate(x2, a);
  const Eigen::VectorXd w2 = restored.evaluate(x2, b);
  EXPECT_EQ(w1, w2);
  EXPECT_EQ(w1[1], v1[2]);
}

TEST(SamplePath, NearlyCoincidentPointsConditionExactly) {
  // New points 1e-13 away from answered ones: the conditional covariance is numerically zero in
  // those directions; the values must agree with the answered ones to rounding, without failure.
  for (const bool markov : {true, false}) {
    const Data d = make_data(8, 1, 5);
    const Kernel kern = markov ? Kernel::exponential(0.3) : Kernel::squared_exponential(0.3);
    const Posterior post(kern, d.X, d.y, {0.2, 1.0});
    SeededRng rng(3);
    SamplePath path(post);
    Points x1(3, 1), x2(3, 1);
    x1 << 0.2, 0.5, 0.7;
    x2 << 0.2 + 1e-13, 0.5 - 1e-13, 0.6;
    const Eigen::VectorXd v1 = path.evaluate(x1, rng);
    const Eigen::VectorXd v2 = path.evaluate(x2, rng);
    EXPECT_NEAR(v2[0], v1[0], 1e-5) << path.last_method();
    EXPECT_NEAR(v2[1], v1[1], 1e-5) << path.last_method();
    EXPECT_TRUE(v2.allFinite());
  }
}

TEST(SamplePath, DuplicatesWithinOneQueryAndBadStates) {
  const Data d = make_data(6, 1, 6);
  const Posterior post(Kernel::squared_exponential(0.3), d.X, d.y, {0.2, 1.0});
  SeededRng rng(3);
  SamplePath path(post);
  Points xs(4, 1);
  xs << 0.3, 0.7, 0.3, -0.0;
  const Eigen::VectorXd v = path.evaluate(xs, rng);
  EXPECT_EQ(v[0], v[2]);
  EXPECT_EQ(path.size(), 3);
  Points zero(1, 1);
  zero << 0.0;
  EXPECT_EQ(path.evaluate(zero, rng)[0], v[3]);  // −0 and +0 are the same point

  Points p(2, 1);
  p << 0.1, 0.1;
  Eigen::VectorXd vals(2);
  vals << 1.0, 2.0;
  EXPECT_THROW(SamplePath(post, 0.0, p, vals), InputError);
  EXPECT_THROW(SamplePath(post, 0.0, p, Eigen::VectorXd(3)), InputError);
  EXPECT_THROW(SamplePath(post, -1.0), InputError);
}

// Four stages on one path: the first drawn by the samplers, the second after rebuilding the
// conditioning from the answered state, the third and fourth by extending the factor block by
// block (no refactorisation). The joint law of everything answered must be the one-shot law.
TEST(SamplePath, FourStagesIncrementalEqualsOneShot) {
  const Data d = make_data(12, 2, 7);
  const Kernel kern = Kernel::exponential(0.4);
  const Posterior post(kern, d.X, d.y, {0.25, 1.2});
  std::vector<Points> stages(4, Points(3, 2));
  stages[0] << 0.1, 0.2, 0.5, 0.5, 0.9, 0.1;
  stages[1] << 0.3, 0.3, 0.52, 0.5, 0.7, 0.9;
  stages[2] << 0.0, 1.0, 0.51, 0.49, 0.35, 0.6;
  stages[3] << 0.9, 0.9, 1.1, 0.4, 0.2, 0.8;
  Points all(12, 2);
  all << stages[0], stages[1], stages[2], stages[3];
  SeededRng rng(99);
  Eigen::MatrixXd values(12, kPaths);
  for (int l = 0; l < kPaths; ++l) {
    SamplePath path(post, 0.3);
    for (int s = 0; s < 4; ++s) values.col(l).segment(3 * s, 3) = path.evaluate(stages[s], rng);
    if (l == 0) {
      EXPECT_NE(path.last_method().find("dense conditional on 9 answered point(s) (incremental"),
                std::string::npos)
          << path.last_method();
    }
  }
  expect_law(values, kern, d, 0.25, 1.2, 0.3, all);
}

// The same randomness gives the same answers whether the path extended its factor batch by batch
// or was restored from its saved state and conditioned from scratch.
TEST(SamplePath, IncrementalAnswersEqualFromScratchAnswers) {
  const Data d = make_data(20, 2, 8);
  const Posterior post(Kernel::matern32(0.3), d.X, d.y, {0.3, 1.0});
  SeededRng rng(5);
  SamplePath incremental(post, 0.2);
  SeededRng points_rng(6);
  for (int batch = 0; batch < 12; ++batch) {
    Points x(batch % 3 + 1, 2);
    for (Eigen::Index i = 0; i < x.size(); ++i) x(i) = points_rng.uniform01();
    incremental.evaluate(x, rng);
  }
  const Eigen::Index k = incremental.size();
  SamplePath scratch(post, 0.2, incremental.points(), incremental.values());
  Points next(5, 2);
  for (Eigen::Index i = 0; i < next.size(); ++i) next(i) = points_rng.uniform01();
  SeededRng a(11), b(11);
  const Eigen::VectorXd by_extension = incremental.evaluate(next, a);
  const Eigen::VectorXd by_rebuild = scratch.evaluate(next, b);
  EXPECT_NE(incremental.last_method().find("incremental"), std::string::npos);
  EXPECT_LT((by_extension - by_rebuild).cwiseAbs().maxCoeff(), 1e-9)
      << by_extension.transpose() << "\n"
      << by_rebuild.transpose();
  EXPECT_EQ(incremental.size(), k + 5);
  EXPECT_GT(incremental.conditioning_bytes(), 8.0 * static_cast<double>(k * k) / 2);
}

TEST(SamplePath, TruncateUndoesTheLastQuery) {
  // A query whose new state could not be saved is forgotten: asking again with the same
  // randomness gives the same values, and the answered points are those before it.
  const Data d = make_data(10, 2, 9);
  const Posterior post(Kernel::exponential(0.3), d.X, d.y, {0.3, 1.0});
  SeededRng rng(1);
  SamplePath path(post);
  Points x1(4, 2), x2(2, 2), x3(3, 2);
  x1 << 0.1, 0.1, 0.4, 0.8, 0.6, 0.2, 0.9, 0.7;
  x2 << 0.5, 0.5, 0.3, 0.3;
  x3 << 0.2, 0.9, 0.8, 0.8, 0.45, 0.55;
  path.evaluate(x1, rng);
  path.evaluate(x2, rng);
  SeededRng a(3), b(3);
  const Eigen::VectorXd first = path.evaluate(x3, a);
  path.truncate(6);
  EXPECT_EQ(path.size(), 6);
  const Eigen::VectorXd again = path.evaluate(x3, b);
  EXPECT_EQ(first, again);
  path.truncate(4);  // also below the conditioning's first batch: rebuilt on the next query
  EXPECT_EQ(path.size(), 4);
  EXPECT_EQ(path.points(), x1);
  EXPECT_THROW(path.truncate(5), InputError);
}

}  // namespace
}  // namespace gpdp
