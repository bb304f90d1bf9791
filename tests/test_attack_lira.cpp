// End-to-end behaviour of the LiRA attack (docs/mathematics.md §4): shadow generator, exact
// one-point releases, the attack's power in the regimes the paper describes, reproducibility.
#include <gtest/gtest.h>

#include <cmath>

#include "gpdp/attack/lira.hpp"
#include "gpdp/attack/sweep.hpp"
#include "gpdp/error.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/posterior.hpp"

namespace gpdp::attack {
namespace {

TEST(AttackShadow, GeneratorFollowsTheExperiment) {
  ShadowSetting s;
  s.noise = 0.2;
  SeededRng rng(3);
  const auto in = draw_shadow_dataset(s, Hypothesis::In, rng);
  ASSERT_EQ(in.X.rows(), 10);
  EXPECT_DOUBLE_EQ(in.X(0, 0), 0.5);
  EXPECT_DOUBLE_EQ(in.y[0], 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    const auto d = draw_shadow_dataset(s, Hypothesis::Out, rng);
    for (Eigen::Index i = 0; i < d.X.rows(); ++i) {
      const double x = d.X(i, 0), y = d.y[i];
      ASSERT_GT(x, 0.0);
      ASSERT_LT(x, 1.0);
      // y = 0.8 f_step(x) + ξ, |ξ| ≤ 0.2: sign of f_step and |y| ≤ 1.
      ASSERT_LE(std::abs(y - 0.8 * step_function(x)), 0.2);
    }
  }
  s.noise = 1.0;
  EXPECT_THROW(s.validate(), InputError);
}

TEST(AttackShadow, TargetPosteriorMatchesThePosteriorClass) {
  ShadowSetting s;
  SeededRng rng(5);
  const auto d = draw_shadow_dataset(s, Hypothesis::Out, rng);
  const double r = 0.4, sigma = 3.0;
  const Posterior post(s.kernel, d.X, d.y, {r, sigma});
  Points x0(1, 1);
  x0(0, 0) = 0.5;
  const auto tp = target_posterior(s, d, r);
  EXPECT_NEAR(tp.mean, post.mean(x0)[0], 1e-12);
  EXPECT_NEAR(sigma * sigma * tp.kd, post.variance(x0)[0], 1e-12);
}

// The one-point release is exact: f̂ over many releases of one dataset has mean μ and variance
// σ² k_D / L, and L v̂ / k_D ~ χ²_{L−1}. 40000 releases: standard errors 0.5 % of the scale;
// tolerances are 5 of them.
TEST(AttackRelease, ObservablesHaveTheExactDistribution) {
  const std::vector<TargetPosterior> p(40000, TargetPosterior{0.3, 0.25});
  SeededRng rng(9);
  const ReleaseSetting rel{2.0, 4};
  const auto obs = release_observables(p, rel, rng);
  double m = 0, v = 0, mv = 0;
  for (double f : obs.f_hat) m += f;
  m /= 40000;
  for (double f : obs.f_hat) v += (f - m) * (f - m);
  v /= 40000;
  for (double lv : obs.log_v_hat) mv += std::exp(lv);
  mv /= 40000;
  const double var = 4.0 * 0.25 / 4;  // σ² k_D / L
  EXPECT_NEAR(m, 0.3, 5 * std::sqrt(var / 40000));
  EXPECT_NEAR(v / var, 1.0, 0.04);
  EXPECT_NEAR(mv, 0.25 * 3.0 / 4.0, 0.25 * 0.04);  // E v̂ = k_D (L−1)/L
}

LiraOptions small_options(long shadow, long eval) {
  LiraOptions o;
  o.sizes = {shadow, eval};
  return o;
}

// r = 10, σ = 1, L = 1: the accountant gives single-digit ε there (ε < 0.4, Lemma B.7, δ = 0.05);
// the true TPR@0.1 is then within a few 0.01 of 0.1. With 4000 evaluations per hypothesis the
// standard error of TPR@0.1 is ≈ 0.005, so |excess| < 0.04 fails a working attack with negligible
// probability, while an attack that could separate the hypotheses would exceed it.
TEST(AttackLira, LargeRidgeLeavesNoAdvantage) {
  const auto out = run_lira(small_options(4000, 4000), 10.0, {{1.0, 1}}, 1);
  ASSERT_EQ(out.size(), 1U);
  EXPECT_NEAR(out[0].metrics.tpr[0] - 0.1, 0.0, 0.04);
  EXPECT_NEAR(out[0].metrics.auc, 0.5, 0.03);
  EXPECT_LT(out[0].metrics.epsilon.lower, 0.5);
}

// r = 0.1, σ = 10, L = 3: even a very large posterior scale leaves a clear covariance signal
// (paper §4). Observed excess TPR@0.1 ≈ 0.6 at these sizes; 0.3 is far below it and far above
// the noise level (≈ 0.01).
TEST(AttackLira, SmallRidgeKeepsAClearAdvantageAtLargeSigma) {
  const auto out = run_lira(small_options(3000, 3000), 0.1, {{10.0, 3}, {INFINITY, 3}}, 2);
  EXPECT_GT(out[0].metrics.tpr[0] - 0.1, 0.3);
  EXPECT_GT(out[0].metrics.auc, 0.75);
  // The covariance-only limit σ = ∞ leaks too.
  EXPECT_GT(out[1].metrics.tpr[0] - 0.1, 0.3);
  EXPECT_GT(out[0].metrics.epsilon.lower, 1.0);
}

// r = 1, σ = 5 (Figure 3; ε = 5.5 at L = 1 by Lemma B.7, δ = 0.05): the attack is close to
// chance at L = 1 and strengthens with L towards the non-private benchmark. Differences asserted
// (≥ 0.05 in AUC between L = 1 and L = 30) are > 5 standard errors at 3000 evaluations per
// hypothesis (AUC standard error ≈ 0.006).
TEST(AttackLira, StrengthGrowsWithTheNumberOfDraws) {
  const auto out = run_lira(small_options(3000, 3000), 1.0, {{5.0, 1}, {5.0, 30}, {5.0, 0}}, 3);
  const double auc1 = out[0].metrics.auc, auc30 = out[1].metrics.auc, exact = out[2].metrics.auc;
  EXPECT_LT(auc1, 0.6);
  EXPECT_GT(auc30, auc1 + 0.05);
  EXPECT_GE(exact, auc30 - 0.01);
}

TEST(AttackLira, SeededAndIndependentOfThreads) {
  SweepOptions o;
  o.lira = small_options(200, 200);
  o.seeds = 3;
  const std::vector<SweepPoint> pts{{0.3, {{1.0, 1}}}, {3.0, {{1.0, 2}}}};
  gpdp::tasks::ThreadExecutor one(1, gpdp::lab::registry()), two(2, gpdp::lab::registry());
  const auto a = run_sweep(pts, o, one);
  const auto b = run_sweep(pts, o, two);
  for (std::size_t p = 0; p < 2; ++p) {
    for (std::size_t s = 0; s < 3; ++s) {
      EXPECT_EQ(a[p][s][0].metrics.auc, b[p][s][0].metrics.auc);
      EXPECT_EQ(a[p][s][0].metrics.tpr, b[p][s][0].metrics.tpr);
    }
  }
  // The same configuration alone gives the same numbers as inside the sweep.
  const auto alone = run_lira(o.lira, 3.0, {{1.0, 2}}, o.base_seed + 1);
  EXPECT_EQ(alone[0].metrics.auc, a[1][1][0].metrics.auc);
  // Different seeds differ.
  EXPECT_NE(a[0][0][0].metrics.auc, a[0][1][0].metrics.auc);
}

}  // namespace
}  // namespace gpdp::attack
