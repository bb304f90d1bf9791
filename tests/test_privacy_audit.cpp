// The auditor: a hand-built pair whose exact divergence is known in closed form, the violation of a
// Δ_n √2 below Lemma B.1 (the public reference scripts' constant, docs/mathematics.md §2 note)
// found by the search, and no violation of the paper's lemmas in the same search.
#include <gtest/gtest.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/privacy/audit.hpp"
#include "gpdp/privacy/bounds.hpp"
#include "support/paths.hpp"

using namespace gpdp;
using namespace gpdp::privacy;

namespace {
privacy::AuditSettings quick_settings() {
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
  const auto bad = audit(m, quick_settings());
  EXPECT_TRUE(bad.violation);
  EXPECT_GT(bad.epsilon_lower, bad.proven.epsilon);  // visible in (ε, δ) as well
  // The paper's Lemma B.1 survives the same search.
  m.lemma = SensitivityLemma::B1;
  m.user_Delta_n.reset();
  const auto good = audit(m, quick_settings());
  EXPECT_FALSE(good.violation);
  for (const auto& o : good.orders) EXPECT_LE(o.lower, o.proven);
  // ... and the search gets close to it at small α (the bound is nearly tight here).
  EXPECT_GT(good.orders.front().lower, 0.9 * good.orders.front().proven);
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
  const auto bad = gpdp::test::run_cli(
      "audit --kernel exp1d --n 1 --r 1 --sigma 0.1 --Delta-n 0.7071 --delta 1e-5 --restarts 3 "
      "--evals 100 --quiet");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("VIOLATION"), std::string::npos);
  EXPECT_NE(bad.out.find("VIOLATION"), std::string::npos);
  const auto good = gpdp::test::run_cli(
      "audit --kernel exp1d --n 1 --r 1 --sigma 0.1 --delta 1e-5 --restarts 3 --evals 100 --quiet "
      "--json");
  EXPECT_EQ(good.exit_code, 0) << good.err;
  EXPECT_NE(good.out.find("\"violation\": false"), std::string::npos);
  const auto inf = gpdp::test::run_cli("audit --kernel exp1d --n 2 --r 1 --sigma inf --delta 1e-5");
  EXPECT_NE(inf.exit_code, 0);
  EXPECT_NE(inf.err.find("finite"), std::string::npos);
}
