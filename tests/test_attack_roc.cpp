// ROC, AUC, TPR@FPR and the empirical ε bound on hand-made score sets (values worked out by hand).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gpdp/attack/roc.hpp"
#include "gpdp/error.hpp"

namespace gpdp::attack {
namespace {

TEST(AttackTprAtFpr, HandMadeScores) {
  // out: 10 scores 1..10; in: 5 scores.
  const std::vector<double> out{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const std::vector<double> in{9.5, 10.5, 11, 3, 7.5};
  // α = 0.1: k = 1 out score may be declared; threshold just above the 2nd largest (9):
  // in > 9: {9.5, 10.5, 11} → 3/5.
  EXPECT_DOUBLE_EQ(tpr_at_fpr(in, out, 0.1), 0.6);
  // α = 0.2: above 8 → {9.5, 10.5, 11} → 0.6; α = 0.3: above 7 → adds 7.5 → 0.8.
  EXPECT_DOUBLE_EQ(tpr_at_fpr(in, out, 0.2), 0.6);
  EXPECT_DOUBLE_EQ(tpr_at_fpr(in, out, 0.3), 0.8);
  // α = 0.05 < 1/10: no out score may be declared: in > 10 → {10.5, 11} → 0.4.
  EXPECT_DOUBLE_EQ(tpr_at_fpr(in, out, 0.05), 0.4);
  EXPECT_DOUBLE_EQ(tpr_at_fpr(in, out, 1.0), 1.0);
}

TEST(AttackTprAtFpr, TiesAtTheThresholdDoNotCount) {
  const std::vector<double> out{0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  const std::vector<double> in{0, 0, 1, 1};
  // α = 0.1: threshold just above the 2nd largest out score (0): in > 0 → 2/4.
  EXPECT_DOUBLE_EQ(tpr_at_fpr(in, out, 0.1), 0.5);
  // α = 0.01: above 1 → nothing.
  EXPECT_DOUBLE_EQ(tpr_at_fpr(in, out, 0.01), 0.0);
}

TEST(AttackAuc, HandMadeScores) {
  EXPECT_DOUBLE_EQ(auc({3, 4}, {1, 2}), 1.0);
  EXPECT_DOUBLE_EQ(auc({1, 2}, {3, 4}), 0.0);
  // pairs (in, out): (1,1) tie ½, (1,2) 0, (3,1) 1, (3,2) 1 → 2.5/4.
  EXPECT_DOUBLE_EQ(auc({1, 3}, {1, 2}), 0.625);
}

TEST(AttackRocCurve, EndsAndMonotone) {
  const auto roc = roc_curve({1, 3}, {1, 2});
  ASSERT_GE(roc.size(), 3U);
  EXPECT_DOUBLE_EQ(roc.front().fpr, 0.0);
  EXPECT_DOUBLE_EQ(roc.front().tpr, 0.0);
  EXPECT_DOUBLE_EQ(roc.back().fpr, 1.0);
  EXPECT_DOUBLE_EQ(roc.back().tpr, 1.0);
  // thresholds 3, 2, 1: (0, ½), (½, ½), (1, 1).
  EXPECT_DOUBLE_EQ(roc[1].fpr, 0.0);
  EXPECT_DOUBLE_EQ(roc[1].tpr, 0.5);
  EXPECT_DOUBLE_EQ(roc[2].fpr, 0.5);
  for (std::size_t i = 1; i < roc.size(); ++i) {
    EXPECT_GE(roc[i].fpr, roc[i - 1].fpr);
    EXPECT_GE(roc[i].tpr, roc[i - 1].tpr);
  }
}

TEST(AttackClopperPearson, KnownValues) {
  // 0 successes of n at one-sided 2.5 %: upper = 1 − 0.025^{1/n}.
  EXPECT_NEAR(clopper_pearson_upper(0, 100, 0.025), 1 - std::pow(0.025, 0.01), 1e-12);
  EXPECT_DOUBLE_EQ(clopper_pearson_lower(0, 100, 0.025), 0.0);
  // n successes of n: lower = 0.025^{1/n}.
  EXPECT_NEAR(clopper_pearson_lower(50, 50, 0.025), std::pow(0.025, 1.0 / 50), 1e-12);
  // Symmetry: lower(k, n) = 1 − upper(n − k, n).
  EXPECT_NEAR(clopper_pearson_lower(30, 100, 0.025), 1 - clopper_pearson_upper(70, 100, 0.025),
              1e-12);
  EXPECT_THROW(clopper_pearson_lower(5, 3, 0.025), InputError);
}

TEST(AttackDpMaxTpr, BothInequalities) {
  // ε = 0, δ = 0: TPR ≤ FPR.
  EXPECT_DOUBLE_EQ(dp_max_tpr(0.3, 0.0, 0.0), 0.3);
  // small FPR: e^ε FPR + δ binds.
  EXPECT_NEAR(dp_max_tpr(0.01, 1.0, 0.05), std::exp(1.0) * 0.01 + 0.05, 1e-15);
  // large FPR: 1 − (1 − δ − FPR) e^{−ε} binds.
  EXPECT_NEAR(dp_max_tpr(0.5, 1.0, 0.05), 1 - 0.45 * std::exp(-1.0), 1e-15);
  EXPECT_NEAR(dp_max_tpr(0.9, 5.0, 0.05), 1 - 0.05 * std::exp(-5.0), 1e-15);
  EXPECT_DOUBLE_EQ(dp_max_tpr(0.96, 0.5, 0.05), 1.0);  // FPR ≥ 1 − δ: anything goes
}

TEST(AttackEmpiricalEpsilon, PerfectSeparationAndNoSignal) {
  // Perfect separation with 1000 per set: TPR = 1, FPR = 0 at a threshold between the sets.
  std::vector<double> in(1000), out(1000);
  for (int i = 0; i < 1000; ++i) {
    in[static_cast<std::size_t>(i)] = 10 + i * 1e-3;
    out[static_cast<std::size_t>(i)] = i * 1e-3;
  }
  const auto e = empirical_epsilon(in, out, in, out, 0.05);
  // lower = log((0.025^{1/1000} − 0.05) / (1 − 0.025^{1/1000})) by hand (CP at 2.5 % each side).
  const double tlo = std::pow(0.025, 1e-3), fhi = 1 - std::pow(0.025, 1e-3);
  EXPECT_NEAR(e.lower, std::log((tlo - 0.05) / fhi), 1e-9);
  EXPECT_GT(e.lower, 5.0);
  // Identical distributions: no evidence of ε > 0 at 95 % (lower bound clamps to 0).
  const auto z = empirical_epsilon(out, out, out, out, 0.05);
  EXPECT_DOUBLE_EQ(z.lower, 0.0);
}

}  // namespace
}  // namespace gpdp::attack

#include "gpdp/attack/bound.hpp"

namespace gpdp::attack {
namespace {
// The attack's bound is the accountant's: golden values (two independent implementations) for the
// exponential kernel, n = 10, ℓ = 1, Lemma B.7, δ = 0.05 (tests/data/accountant_mironov.csv).
TEST(AttackBound, MatchesGoldenAccountantValues) {
  const ShadowSetting s;
  EXPECT_NEAR(attack_guarantee(s, 1.0, 5.0, 1, 0.05).epsilon, 5.534324088065921, 1e-6);
  EXPECT_NEAR(attack_guarantee(s, 0.3, 5.0, 3, 0.05).epsilon, 149.20263259434364, 1e-4);
  EXPECT_NEAR(attack_guarantee(s, 3.0, INFINITY, 1, 0.05).epsilon, 0.4964504416005275, 1e-6);
}
}  // namespace
}  // namespace gpdp::attack
