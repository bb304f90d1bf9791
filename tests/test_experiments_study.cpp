// The end-to-end utility study (paper §5) at a tiny scale: determinism and the privacy constraint.
#include <gtest/gtest.h>

#include "gpdp/experiments/utility_study.hpp"
#include "gpdp/experiments/utility_table.hpp"

namespace gx = gpdp::experiments;

namespace {
gx::StudySpec tiny(int threads) {
  gx::StudySpec s;
  s.label = "tiny";
  s.field1d = {40, 1.0, 1.0};
  s.grid = gpdp::Grid::parse("0:1:200");
  s.pairs = 6;
  s.validation_pairs = 6;
  s.releases = 5;
  s.search.coarse = gx::SearchGrid::log_spaced(0.1, 5.0, 3, 0.05, 50.0, 6, 0.01, 5.0, 4);
  s.search.refinement_rounds = 1;
  s.threads = threads;
  return s;
}
}  // namespace

TEST(ExperimentsUtilityStudy, DeterministicForAnyThreadCountAndFeasible) {
  const auto a = gx::run_study(tiny(1));
  const auto b = gx::run_study(tiny(2));
  ASSERT_EQ(a.pairs.size(), 6u);
  EXPECT_LT(a.epsilon_private, 10.0);
  EXPECT_EQ(a.theta_private.r, b.theta_private.r);
  EXPECT_EQ(a.cutoff_C, b.cutoff_C);
  for (std::size_t j = 0; j < a.pairs.size(); ++j) {
    EXPECT_EQ(a.pairs[j].iou_release_mean, b.pairs[j].iou_release_mean);
    EXPECT_EQ(a.pairs[j].d_eff_private, b.pairs[j].d_eff_private);
    // θ_priv is feasible, θ* is the unconstrained optimum: the mean BCE can only go up.
  }
  double bu = 0, bp = 0;
  for (const auto& p : a.pairs) {
    bu += p.bce_unconstrained;
    bp += p.bce_private;
    EXPECT_GE(p.iou_release_mean, 0.0);
    EXPECT_LE(p.iou_release_mean, 1.0);
  }
  EXPECT_LE(bu, bp);
  EXPECT_EQ(a.sampler_method, "markov");  // the O(n + m) path in 1-D
  // The table has one column per result and the paper's rows.
  const std::string md = gx::utility_table_markdown({a}, "setting");
  EXPECT_NE(md.find("relative IoU gap"), std::string::npos);
  EXPECT_NE(md.find("| tiny |"), std::string::npos);
}

TEST(ExperimentsUtilityStudy, Quartiles) {
  const auto q = gx::quartiles({4, 1, 3, 2, 5});
  EXPECT_DOUBLE_EQ(q.median, 3);
  EXPECT_DOUBLE_EQ(q.q1, 2);
  EXPECT_DOUBLE_EQ(q.q3, 4);
  EXPECT_DOUBLE_EQ(gx::quartiles({1, 2}).median, 1.5);
}
