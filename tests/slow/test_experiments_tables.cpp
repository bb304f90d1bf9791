// Table 1 shape at a reduced scale (200 pairs, paper settings otherwise): the qualitative claims of
// paper §5 that do not depend on the scale. Slow (minutes): label "slow".
#include <gtest/gtest.h>

#include "gpdp/experiments/utility_study.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/tasks/executor.hpp"

namespace gx = gpdp::experiments;

TEST(ExperimentsTable1Reduced, NoisierSettingsCostLessPrivacyAndUtility) {
  std::vector<gx::StudyResult> r;
  for (const double nsr : {0.11, 1.5}) {
    gx::StudySpec s;
    s.label = "nsr";
    s.field1d = {100, nsr, 1.0};
    s.pairs = 200;
    s.validation_pairs = 200;
    s.releases = 20;
    s.search.coarse = gx::default_search_grid(1);
    gpdp::tasks::ThreadExecutor executor(s.threads, gpdp::lab::registry());
    r.push_back(gx::run_study(s, executor));
  }
  // Paper Table 1: ε(θ*) and d_eff(θ*) fall with the NSR; the constrained θ is always feasible.
  EXPECT_GT(r[0].epsilon_unconstrained, r[1].epsilon_unconstrained);
  EXPECT_LT(r[0].epsilon_private, 10.0);
  EXPECT_LT(r[1].epsilon_private, 10.0);
  auto median = [](const gx::StudyResult& x, auto f) {
    std::vector<double> v;
    for (const auto& p : x.pairs) v.push_back(f(p));
    return gx::quartiles(v).median;
  };
  const auto deff = [](const gx::PairOutcome& p) { return p.d_eff_unconstrained; };
  const auto bce = [](const gx::PairOutcome& p) { return p.relative_bce_increase(); };
  EXPECT_GT(median(r[0], deff), median(r[1], deff));
  EXPECT_GT(median(r[0], bce), median(r[1], bce));  // privacy costs more at low noise
}
