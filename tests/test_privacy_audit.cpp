// The auditor: a hand-built pair whose exact divergence is known in closed form, the violation of a
// Δ_n √2 below Lemma B.1 (the public reference scripts' constant, docs/mathematics.md §2 note)
// found by both searches, no violation of the paper's lemmas, the structured starts reaching the
// known n = 1 worst case, and the gradient search finding at least what the original Subplex
// search finds.
#include <gtest/gtest.h>

#include <cmath>

#include "gpdp/auditor/audit.hpp"
#include "gpdp/error.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/privacy/bounds.hpp"
#include "gpdp/tasks/executor.hpp"
#include "support/paths.hpp"

using namespace gpdp;
using namespace gpdp::auditor;
using namespace gpdp::privacy;

namespace {
auditor::AuditSettings quick_settings() {
  AuditSettings s;
  s.restarts = 4;
  s.max_evals = 150;
  s.extra_test_points = 1;
  s.seed = 7;
  s.delta = 1e-5;
  return s;
}
}  // namespace

// n = 1, r = 1, D = {(x, M)}, D' = {(x, −M)}, X_T = {x}: μ_D(x) = ±M/(1+r²) = ±M/2 and
// σ² k_D(x,x) = σ²(1 − 1/2), so D_α = α (M)² / (2 σ²/2) = α M²/σ² exactly. Lemma B.1 at n = 1,
// r = 1 gives Δ_1 = 2M √(1/4) = M (tight here): the bound holds. With Δ √2 smaller the mean term
// α(V+r²)Δ²/(2σ²(r² − (α−1)V)) = αM²/(2σ²(2−α)) falls below αM²/σ² − 2ψ_α(1) for small σ.
TEST(PrivacyAudit, SqrtTwoSmallerLemmaB1ConstantIsViolatedByAConcretePair) {
  const double M = 1.0, sigma = 0.1, r = 1.0, alpha = 1.05;
  NeighbourPair p;
  p.X = Points::Constant(1, 1, 0.5);
  p.Xp = p.X;
  p.y = Eigen::VectorXd::Constant(1, M);
  p.yp = Eigen::VectorXd::Constant(1, -M);
  p.test = p.X;
  const double exact = pair_renyi_divergence(Kernel::exponential(1.0), r, sigma, 0.0, p, alpha);
  EXPECT_NEAR(exact, alpha * M * M / (sigma * sigma), 1e-9 * exact);
  const double b1 = mean_sensitivity_b1(1, r, 1.0, M);
  EXPECT_NEAR(b1, M, 1e-15);
  EXPECT_LE(exact, gp_rdp(alpha, 1.0, b1, r, sigma, 0.0));
  EXPECT_GT(exact, gp_rdp(alpha, 1.0, b1 / std::sqrt(2.0), r, sigma, 0.0));

  // The auditor finds it by itself, from the flags alone.
  GpMechanism m;
  m.kernel = Kernel::exponential(1.0);
  m.n = 1;
  m.r = r;
  m.sigma = sigma;
  m.lemma = SensitivityLemma::User;
  m.user_Delta_n = b1 / std::sqrt(2.0);
  for (const auto search : {AuditSearch::Gradient, AuditSearch::Subplex}) {
    auto s = quick_settings();
    s.search = search;
    const auto bad = audit(m, s);
    EXPECT_TRUE(bad.violation) << to_string(search);
    EXPECT_GT(bad.epsilon_lower, bad.proven.epsilon);  // visible in (ε, δ) as well
  }
  // The gradient search also reports the mean sensitivity itself above the supplied Δ_n.
  const auto bad = audit(m, quick_settings());
  ASSERT_TRUE(bad.sensitivity_searched);
  EXPECT_TRUE(bad.sensitivity_violation);
  EXPECT_NEAR(bad.sensitivity_lower, b1, 1e-9);
  // The paper's Lemma B.1 survives the same search.
  m.lemma = SensitivityLemma::B1;
  m.user_Delta_n.reset();
  const auto good = audit(m, quick_settings());
  EXPECT_FALSE(good.violation);
  for (const auto& o : good.orders) EXPECT_LE(o.lower, o.proven);
  // ... and the search gets close to it at small α (the bound is nearly tight here).
  EXPECT_GT(good.orders.front().lower, 0.9 * good.orders.front().proven);
}

// n = 1: D = {(x, M)}, D' = {(x, −M)} gives μ_D(x) − μ_D'(x) = 2M/(1 + r²) and σ² k_D(x, x) =
// σ² r²/(1 + r²), so D_α = 2αM²/(σ² r² (1 + r²)) and ‖μ_D − μ_D'‖_{H−} = 2M/(1 + r²). The
// structured starts alone (no random start, no ascent step, no continuation) reach it.
TEST(PrivacyAudit, StructuredStartsFindTheKnownNEqualsOneWorstCase) {
  for (const double r : {0.5, 1.0, 2.0}) {
    GpMechanism m;
    m.kernel = Kernel::exponential(0.7);
    m.dim = 2;
    m.n = 1;
    m.r = r;
    m.sigma = 0.1;
    m.M_Y = 1.5;
    AuditSettings s;
    s.restarts = 0;
    s.max_evals = 1;
    s.continuation = false;
    s.extra_test_points = 0;
    s.alphas = {1.05};
    const auto rep = audit(m, s);
    const double M = m.M_Y, alpha = 1.05;
    const double exact = 2 * alpha * M * M / (m.sigma * m.sigma * r * r * (1 + r * r));
    ASSERT_EQ(rep.orders.size(), 1u);
    const auto& o = rep.orders.front();
    EXPECT_NEAR(o.lower, exact, 1e-9 * exact) << "r = " << r;
    EXPECT_LE(o.lower, o.proven);
    EXPECT_TRUE(o.witness.X == o.witness.Xp);
    EXPECT_NEAR(std::abs(o.witness.y[0] - o.witness.yp[0]), 2 * M, 1e-12);
    EXPECT_NEAR(rep.sensitivity_lower, 2 * M / (1 + r * r), 1e-9);
    EXPECT_NEAR(o.shape.sensitivity, 2 * M / (1 + r * r), 1e-9);
  }
}

// Exponential kernel in 2-D, ℓ = 1, r = 0.5, n = 8: the core matters (|μ_{D−}| can exceed M_Y),
// and the original search stops short of what the gradient search reaches with the same seed and
// random-restart count; the continuation visits n = 1, 2, 3, 5, 8 and seeds the final search.
TEST(PrivacyAudit, GradientSearchFindsAtLeastWhatSubplexFinds) {
  GpMechanism m;
  m.kernel = Kernel::exponential(1.0);
  m.dim = 2;
  m.n = 8;
  m.r = 0.5;
  m.sigma = 0.5;
  AuditSettings s;
  s.restarts = 4;
  s.alphas = {1.1};
  s.search = AuditSearch::Subplex;
  const auto sub = audit(m, s);
  s.search = AuditSearch::Gradient;
  const auto grad = audit(m, s);
  EXPECT_FALSE(grad.violation);
  EXPECT_GT(grad.orders[0].lower, 1.1 * sub.orders[0].lower);
  EXPECT_GE(grad.epsilon_lower, sub.epsilon_lower);
  std::vector<long> sizes;
  for (const auto& rung : grad.continuation) sizes.push_back(rung.n);
  EXPECT_EQ(sizes, (std::vector<long>{1, 2, 3, 5, 8}));
  EXPECT_GE(grad.orders[0].lower, grad.continuation.back().lower * (1 - 1e-12));
  // The mean sensitivity found exceeds 2 M_Y √Φ_n, the most that differing points with
  // μ_{D−} = 0 can give (B.1's first term): the core contributes, but stays far below Lemma B.1.
  const auto b = resolve_bounds(m);
  EXPECT_GT(grad.sensitivity_lower, 1.2 * 2.0 * std::sqrt(phi_n(b.Vn, m.r)));
  EXPECT_LT(grad.sensitivity_lower, grad.sensitivity_proven);
}

TEST(PrivacyAudit, PaperLemmasSurviveTheSearch) {
  struct Setting {
    Kernel kernel;
    int dim;
    long n;
    SensitivityLemma lemma;
  };
  const std::vector<Setting> settings = {
      {Kernel::exponential(0.5), 1, 3, SensitivityLemma::B7},
      {Kernel::constant(), 1, 2, SensitivityLemma::B4},
      {Kernel::diagonal(), 1, 2, SensitivityLemma::B5},
      {Kernel::matern32(0.3), 2, 2, SensitivityLemma::B1},
      {Kernel::squared_exponential(0.5), 1, 2, SensitivityLemma::B8},
  };
  for (const auto& st : settings) {
    GpMechanism m;
    m.kernel = st.kernel;
    m.dim = st.dim;
    m.n = st.n;
    m.r = 0.6;
    m.sigma = 0.5;
    m.eta = 0.2;
    m.lemma = st.lemma;
    m.rkhs_norm = 2.0;
    const auto rep = audit(m, quick_settings());
    EXPECT_FALSE(rep.violation) << st.kernel.name() << " " << to_string(st.lemma);
    for (const auto& o : rep.orders) {
      EXPECT_GT(o.lower, 0.0);
      EXPECT_LE(o.lower, o.proven);
    }
    EXPECT_LE(rep.epsilon_lower, rep.proven.epsilon);
  }
  // Lemma B.4 is nearly tight: the search comes within a few per cent at the smallest order.
  GpMechanism c;
  c.kernel = Kernel::constant();
  c.n = 2;
  c.r = 0.6;
  c.sigma = 0.5;
  c.lemma = SensitivityLemma::B4;
  const auto rep = audit(c, quick_settings());
  EXPECT_GT(rep.orders.front().lower, 0.9 * rep.orders.front().proven);
}

TEST(PrivacyAudit, CliFailsLoudlyOnViolation) {
  const auto bad = gpdp::test::run_lab_cli(
      "audit --kernel exp1d --n 1 --r 1 --sigma 0.1 --Delta-n 0.7071 --delta 1e-5 --restarts 3 "
      "--evals 100 --quiet");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("VIOLATION"), std::string::npos);
  EXPECT_NE(bad.out.find("VIOLATION"), std::string::npos);
  const auto good = gpdp::test::run_lab_cli(
      "audit --kernel exp1d --n 1 --r 1 --sigma 0.1 --delta 1e-5 --restarts 3 --evals 100 --quiet "
      "--json");
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_NE(good.out.find("\"violation\": false"), std::string::npos);
  EXPECT_NE(good.out.find("\"search\": \"gradient\""), std::string::npos);
  EXPECT_NE(good.out.find("\"sensitivity\""), std::string::npos);
  const auto sub = gpdp::test::run_lab_cli(
      "audit --kernel exp1d --n 2 --r 1 --sigma 0.1 --delta 1e-5 --restarts 2 --evals 50 --quiet "
      "--search subplex --json");
  EXPECT_EQ(sub.exit_code, 0) << sub.err;
  EXPECT_NE(sub.out.find("\"search\": \"subplex\""), std::string::npos);
  const auto many = gpdp::test::run_lab_cli(
      "audit --kernel exp1d --n 2 --r 1 --sigma 0.1 --delta 1e-5 --test-points 51");
  EXPECT_NE(many.exit_code, 0);
  EXPECT_NE(many.err.find("50"), std::string::npos);
  const auto inf =
      gpdp::test::run_lab_cli("audit --kernel exp1d --n 2 --r 1 --sigma inf --delta 1e-5");
  EXPECT_NE(inf.exit_code, 0);
  EXPECT_NE(inf.err.find("finite"), std::string::npos);
}

// The local searches as tasks (privacy/audit_tasks.hpp) through an executor give the report of the
// in-process search: same values, same witnesses, same evaluation counts, for both searches (the
// pairs cross the task boundary as JSON, every double exact).
TEST(PrivacyAudit, SameReportWhenTheSearchesRunAsTasks) {
  GpMechanism m;
  m.kernel = Kernel::exponential(1.0);
  m.n = 3;
  m.r = 1.0;
  m.sigma = 1.0;
  tasks::ThreadExecutor executor(2, lab::registry());
  for (const auto search : {AuditSearch::Gradient, AuditSearch::Subplex}) {
    auto s = quick_settings();
    s.search = search;
    s.restarts = 2;
    s.max_evals = 40;
    s.alphas = {1.3};
    s.threads = 2;
    const auto here = audit(m, s);
    const auto tasked = audit(m, s, {}, &executor);
    ASSERT_EQ(here.orders.size(), tasked.orders.size());
    EXPECT_EQ(here.orders[0].lower, tasked.orders[0].lower);
    EXPECT_EQ(here.orders[0].witness.X, tasked.orders[0].witness.X);
    EXPECT_EQ(here.orders[0].witness.yp, tasked.orders[0].witness.yp);
    EXPECT_EQ(here.orders[0].start, tasked.orders[0].start);
    EXPECT_EQ(here.mean_distance, tasked.mean_distance);
    EXPECT_EQ(here.sensitivity_lower, tasked.sensitivity_lower);
    EXPECT_EQ(here.evaluations, tasked.evaluations);
    EXPECT_EQ(here.singular_skipped, tasked.singular_skipped);
    EXPECT_GT(here.evaluations, 0);
  }
}
