// Metrics and generators of the excursion-set experiments on hand-checkable cases (the vote and
// smoothing of released paths: test_release_postprocess.cpp).
#include <gtest/gtest.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/experiments/fields.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/posterior.hpp"

namespace gx = gpdp::experiments;
using Eigen::VectorXd;

TEST(ExperimentsTrapezoidWeights, OneDimensionHalvesTheEnds) {
  const VectorXd w = gx::trapezoid_weights(gpdp::Grid::parse("0:1:5"));
  ASSERT_EQ(w.size(), 5);
  EXPECT_DOUBLE_EQ(w[0], 0.125);
  EXPECT_DOUBLE_EQ(w[1], 0.25);
  EXPECT_DOUBLE_EQ(w[4], 0.125);
  EXPECT_NEAR(w.sum(), 1.0, 1e-15);
}

TEST(ExperimentsTrapezoidWeights, TwoDimensionsIsTheTensorProductFirstAxisFastest) {
  // x-axis 0:1:3 (h = 0.5), y-axis 0:2:3 (h = 1): weights (.25,.5,.25) x (.5,1,.5).
  const VectorXd w = gx::trapezoid_weights(gpdp::Grid::parse("0:1:3,0:2:3"));
  ASSERT_EQ(w.size(), 9);
  EXPECT_DOUBLE_EQ(w[0], 0.25 * 0.5);
  EXPECT_DOUBLE_EQ(w[1], 0.5 * 0.5);   // second x, first y
  EXPECT_DOUBLE_EQ(w[4], 0.5 * 1.0);   // centre
  EXPECT_DOUBLE_EQ(w[3], 0.25 * 1.0);  // first x, second y
  EXPECT_NEAR(w.sum(), 2.0, 1e-15);    // area of [0,1] x [0,2]
}

TEST(ExperimentsLogNormalCdf, MatchesKnownValuesAndTheFarTail) {
  EXPECT_NEAR(gx::log_normal_cdf(0.0), std::log(0.5), 1e-15);
  EXPECT_NEAR(gx::log_normal_cdf(1.0), std::log(0.8413447460685429), 1e-14);
  // log Φ(−40) = −800 − log 40 − ½ log 2π + log(1 − 1/1600 + 3/40⁴ − …) = −804.60844201...
  EXPECT_NEAR(gx::log_normal_cdf(-40.0), -804.6084420137538, 1e-9);
  // The two branches agree where they meet (z = −30).
  EXPECT_NEAR(gx::log_normal_cdf(-30.0 + 1e-9), gx::log_normal_cdf(-30.0 - 1e-9), 1e-7);
}

TEST(ExperimentsIntegratedBce, HandComputedOnFivePoints) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:5");
  const VectorXd w = gx::trapezoid_weights(grid);
  VectorXd truth(5), p(5);
  truth << 1, 1, 0, 0, 0;
  p << 0.9, 0.8, 0.1, 0.5, 0.2;
  const double expected = -(0.125 * std::log(0.9) + 0.25 * std::log(0.8) + 0.25 * std::log(0.9) +
                            0.25 * std::log(0.5) + 0.125 * std::log(0.8));
  EXPECT_NEAR(gx::integrated_bce(p, truth, w), expected, 1e-14);
  // The same through z = Φ⁻¹(p): z = 0 gives log 2 everywhere.
  EXPECT_NEAR(gx::integrated_bce_from_z(VectorXd::Zero(5), truth, w), std::log(2.0), 1e-14);
}

TEST(ExperimentsIntegratedBce, StaysFiniteWhenProbabilityUnderflows) {
  const VectorXd w = VectorXd::Constant(1, 1.0);
  const VectorXd truth = VectorXd::Constant(1, 1.0);
  // p = Φ(−40) underflows nothing in log space: −log p = 804.608...
  EXPECT_NEAR(gx::integrated_bce_from_z(VectorXd::Constant(1, -40.0), truth, w), 804.6084420137538,
              1e-9);
}

TEST(ExperimentsIntersectionOverUnion, HandComputed) {
  const VectorXd w = gx::trapezoid_weights(gpdp::Grid::parse("0:1:5"));
  VectorXd a(5), b(5);
  a << 1, 1, 0, 0, 0;
  b << 0, 1, 1, 0, 0;
  // ∩ = {x1}: 0.25; ∪ = {x0, x1, x2}: 0.125 + 0.25 + 0.25.
  EXPECT_NEAR(gx::intersection_over_union(a, b, w), 0.25 / 0.625, 1e-15);
  EXPECT_DOUBLE_EQ(gx::intersection_over_union(a, a, w), 1.0);
  EXPECT_DOUBLE_EQ(gx::intersection_over_union(VectorXd::Zero(5), VectorXd::Zero(5), w), 1.0);
  EXPECT_DOUBLE_EQ(gx::intersection_over_union(a, VectorXd::Ones(5) - a, w), 0.0);
}

TEST(ExperimentsEffectiveDimension, TwoPointExponentialKernelByEigenvalues) {
  // K = [[1, a], [a, 1]], a = exp(−0.3/ℓ); eigenvalues 1 ± a, so
  // d_eff = tr(K (K + r² I)⁻¹) = (1+a)/(1+a+r²) + (1−a)/(1−a+r²).
  const double ell = 0.5, r = 0.7;
  gpdp::Points X(2, 1);
  X << 0.2, 0.5;
  const gpdp::Posterior post(gpdp::Kernel::exponential(ell), X, VectorXd::Zero(2), {r, 1.0});
  const double a = std::exp(-0.3 / ell);
  const double expected = (1 + a) / (1 + a + r * r) + (1 - a) / (1 - a + r * r);
  EXPECT_NEAR(post.effective_dimension(), expected, 1e-12);
}

TEST(ExperimentsGenerators, OneDimensionalFieldRespectsTheResponseBound) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:800");
  for (const double nsr : {0.11, 0.43, 1.0, 1.5}) {
    gpdp::SeededRng rng(7);
    const gx::ExcursionPair p = gx::generate_field_1d({100, nsr, 1.0}, grid, rng);
    const double m_xi = nsr / (1 + nsr);
    ASSERT_EQ(p.X.rows(), 100);
    ASSERT_EQ(p.field.size(), 800);
    EXPECT_LE(p.field.cwiseAbs().maxCoeff(), 1 - m_xi + 1e-12);
    EXPECT_LE(p.y.cwiseAbs().maxCoeff(), 1.0);
    EXPECT_TRUE((p.X.array() >= 0).all() && (p.X.array() <= 1).all());
    EXPECT_EQ(p.truth, gx::indicator_at_least(p.field, 0.0));
  }
}

TEST(ExperimentsGenerators, NoiselessFieldIsTheGridFieldAtTheCovariates) {
  // NSR = 0: y = f*(x). The OU draw is continuous, so on an 800-point grid the value at a covariate
  // is close to the nearest grid value (|Δf| ~ √(2h/ℓ) ≈ 0.05 at one grid step; allow 0.2).
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:800");
  gpdp::SeededRng rng(3);
  const gx::ExcursionPair p = gx::generate_field_1d({50, 0.0, 1.0}, grid, rng);
  EXPECT_NEAR(std::max(p.field.cwiseAbs().maxCoeff(), p.y.cwiseAbs().maxCoeff()), 1.0, 1e-12);
  for (int i = 0; i < 50; ++i) {
    const auto k = static_cast<Eigen::Index>(std::lround(p.X(i, 0) * 799));
    EXPECT_NEAR(p.y[i], p.field[k], 0.2) << "covariate " << p.X(i, 0);
  }
}

TEST(ExperimentsGenerators, SeededAndReproducible) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:50,0:1:50");
  gpdp::SeededRng a(11), b(11), c(12);
  const auto pa = gx::generate_plume_2d({}, grid, a);
  const auto pb = gx::generate_plume_2d({}, grid, b);
  const auto pc = gx::generate_plume_2d({}, grid, c);
  EXPECT_EQ(pa.y, pb.y);
  EXPECT_EQ(pa.field, pb.field);
  EXPECT_NE(pa.y, pc.y);
}

TEST(ExperimentsGenerators, PlumeFieldIsRescaledAndBounded) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:60,0:1:60");
  gpdp::SeededRng rng(5);
  gx::Plume2dSpec spec;
  spec.nsr = 1.0;
  const auto p = gx::generate_plume_2d(spec, grid, rng);
  EXPECT_EQ(p.X.rows(), 400);
  EXPECT_LE(p.field.cwiseAbs().maxCoeff(), 0.5 + 1e-12);  // (1 − M_ξ) f*, M_ξ = 0.5
  EXPECT_LE(p.y.cwiseAbs().maxCoeff(), 1.0);
  // Below the 65 % quantile of h the sigmoid is < ½, so at most ~35 % of the grid is in the set
  // (min-max rescaling moves the level a little; allow up to 50 %).
  const double share = p.truth.mean();
  EXPECT_GT(share, 0.0);
  EXPECT_LT(share, 0.5);
}
