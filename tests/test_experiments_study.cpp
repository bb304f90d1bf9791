// The end-to-end utility study (paper §5) at a tiny scale: determinism (any thread count; workers
// that keep nothing between tasks) and the privacy constraint.
#include <gtest/gtest.h>

#include "gpdp/experiments/utility_study.hpp"
#include "gpdp/experiments/utility_table.hpp"
#include "gpdp/experiments/utility_tasks.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/parallel.hpp"
#include "gpdp/tasks/executor.hpp"
#include "support/forgetful_executor.hpp"

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
// 2-D: the hybrid route, whose search keeps z₁ between rounds (and speculates).
gx::StudySpec tiny_2d() {
  gx::StudySpec s;
  s.label = "tiny 2-D";
  s.dim = 2;
  s.field2d.n = 30;
  s.grid = gpdp::Grid::parse("0:1:9,0:1:9");
  s.pairs = 5;
  s.validation_pairs = 3;
  s.releases = 3;
  s.privacy.delta = 0.001;
  s.smoothing_bandwidth = 0.03;
  s.search.coarse = gx::SearchGrid::log_spaced(0.1, 3.0, 3, 0.05, 20.0, 5, 0.05, 5.0, 3);
  s.search.refinement_rounds = 2;
  s.keep_examples = 1;
  s.threads = 2;
  return s;
}

void expect_same(const gx::StudyResult& a, const gx::StudyResult& b) {
  EXPECT_EQ(a.theta_unconstrained.ell, b.theta_unconstrained.ell);
  EXPECT_EQ(a.theta_private.r, b.theta_private.r);
  EXPECT_EQ(a.cutoff_C, b.cutoff_C);
  EXPECT_EQ(a.cutoff_c, b.cutoff_c);
  EXPECT_EQ(a.reductions_per_pair, b.reductions_per_pair);
  EXPECT_EQ(a.single_ridge_fits_per_pair, b.single_ridge_fits_per_pair);
  ASSERT_EQ(a.pairs.size(), b.pairs.size());
  for (std::size_t j = 0; j < a.pairs.size(); ++j) {
    EXPECT_EQ(a.pairs[j].bce_unconstrained, b.pairs[j].bce_unconstrained) << j;
    EXPECT_EQ(a.pairs[j].bce_private, b.pairs[j].bce_private) << j;
    EXPECT_EQ(a.pairs[j].iou_release_mean, b.pairs[j].iou_release_mean) << j;
    EXPECT_EQ(a.pairs[j].iou_release_sd, b.pairs[j].iou_release_sd) << j;
    EXPECT_EQ(a.pairs[j].d_eff_private, b.pairs[j].d_eff_private) << j;
  }
  ASSERT_EQ(a.examples.size(), b.examples.size());
  for (std::size_t j = 0; j < a.examples.size(); ++j) {
    EXPECT_EQ(a.examples[j].pair.y, b.examples[j].pair.y);
    EXPECT_EQ(a.examples[j].releases, b.examples[j].releases);
  }
}
}  // namespace

TEST(ExperimentsUtilityStudy, SameResultsWhenWorkersKeepNothing) {
  gpdp::tasks::ThreadExecutor threads(2, gpdp::lab::registry());
  const auto kept = gx::run_study(tiny_2d(), threads);
  EXPECT_GT(kept.reductions_per_pair, 0.0) << "the hybrid route was not exercised";
  gpdp::test::ForgetfulExecutor forgetful(&gx::forget_utility_task_state);
  const auto replayed = gx::run_study(tiny_2d(), forgetful);
  expect_same(kept, replayed);
  ASSERT_EQ(kept.examples.size(), 1u);
}

TEST(ExperimentsUtilityStudy, DeterministicForAnyThreadCountAndFeasible) {
  gpdp::tasks::ThreadExecutor one(1, gpdp::lab::registry());
  gpdp::tasks::ThreadExecutor two(2, gpdp::lab::registry());
  const auto a = gx::run_study(tiny(1), one);
  const auto b = gx::run_study(tiny(2), two);
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
