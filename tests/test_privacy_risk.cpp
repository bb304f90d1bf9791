// Attack-risk bounds: the binary Rényi divergence, the RDP hypothesis-testing region against the
// exact trade-off curve of the Gaussian mechanism (TPR = Φ(Φ⁻¹(FPR) + μ): never exceeded, and
// close), the (ε, δ) region, and the smaller of the two for a GP release.
#include <gtest/gtest.h>

#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/privacy/risk.hpp"

using namespace gpdp;
using namespace gpdp::privacy;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The exact trade-off of the Gaussian mechanism with sensitivity/σ = μ (Dong, Roth, Su 2019).
double gaussian_tpr(double fpr, double mu) {
  const boost::math::normal z;
  return boost::math::cdf(z, boost::math::quantile(z, fpr) + mu);
}

}  // namespace

TEST(PrivacyRisk, BinaryRenyiDivergence) {
  EXPECT_NEAR(binary_renyi(2.0, 0.3, 0.3), 0.0, 1e-15);
  // α = 2: log(p²/q + (1−p)²/(1−q)).
  EXPECT_NEAR(binary_renyi(2.0, 0.5, 0.1), std::log(0.25 / 0.1 + 0.25 / 0.9), 1e-14);
  // α → 1: the binary KL divergence.
  const double kl = 0.5 * std::log(0.5 / 0.1) + 0.5 * std::log(0.5 / 0.9);
  EXPECT_NEAR(binary_renyi(1.0 + 1e-9, 0.5, 0.1), kl, 1e-7);
  // Large α stays finite (log-sum-exp) and tends to log max(p/q, (1−p)/(1−q)).
  EXPECT_NEAR(binary_renyi(1e6, 0.5, 0.1), std::log(5.0), 1e-5);
  EXPECT_NEAR(binary_renyi(3.0, 1.0, 0.01), std::log(100.0), 1e-12);
  EXPECT_THROW(binary_renyi(0.5, 0.5, 0.1), InputError);
}

// The RDP region at the Gaussian mechanism's curve ε_α = α μ²/2 never claims less than the exact
// trade-off curve (the bound must hold), and stays within a factor 1.7 and 0.27 of it (it is the
// intersection of single-order regions, not the curve itself: measured ratios 1.03–1.64, largest
// difference 0.259 at μ = 3, FPR = 0.1 %).
TEST(PrivacyRisk, GaussianMechanismClosedForm) {
  for (double mu : {0.1, 0.5, 1.0, 2.0, 3.0}) {
    for (double fpr : risk_fprs()) {
      const double exact = gaussian_tpr(fpr, mu);
      const double bound =
          tpr_bound_rdp(fpr, kInf, [mu](double alpha) { return alpha * mu * mu / 2; });
      EXPECT_GE(bound, exact * (1 - 1e-9)) << "mu " << mu << " fpr " << fpr;
      EXPECT_LE(bound, std::min(1.0, 1.7 * exact)) << "mu " << mu << " fpr " << fpr;
      EXPECT_LE(bound - exact, 0.27) << "mu " << mu << " fpr " << fpr;
    }
  }
}

TEST(PrivacyRisk, EpsilonDeltaRegion) {
  EXPECT_DOUBLE_EQ(tpr_bound_epsilon_delta(0.01, 1.0, 1e-5), std::exp(1.0) * 0.01 + 1e-5);
  EXPECT_NEAR(tpr_bound_epsilon_delta(0.5, 1.0, 0.05), 1 - 0.45 * std::exp(-1.0), 1e-15);
  EXPECT_DOUBLE_EQ(tpr_bound_epsilon_delta(0.3, 0.0, 0.0), 0.3);
  EXPECT_DOUBLE_EQ(tpr_bound_epsilon_delta(0.96, 0.5, 0.05), 1.0);
}

// For a GP release the reported TPR is the smaller of the two regions, at each FPR, and grows
// with the number of draws.
TEST(PrivacyRisk, GpReleaseReportsTheSmallerBound) {
  GpMechanism m;
  m.kernel = Kernel::exponential(0.3);
  m.dim = 2;
  m.n = 30;
  m.r = 3.0;
  m.sigma = 1.0;
  double previous = 0.0;
  for (long draws : {1L, 3L, 10L}) {
    Accountant a;
    a.add(m, draws);
    const Guarantee g = a.epsilon(1e-3, Conversion::CKS);
    const AttackRisk risk = attack_risk(a, g);
    ASSERT_EQ(risk.points.size(), 3u);
    for (const auto& p : risk.points) {
      EXPECT_DOUBLE_EQ(p.tpr, std::min(p.tpr_rdp, p.tpr_epsilon_delta));
      EXPECT_DOUBLE_EQ(p.tpr_epsilon_delta, tpr_bound_epsilon_delta(p.fpr, g.epsilon, 1e-3));
      EXPECT_GE(p.tpr, p.fpr);
      EXPECT_LE(p.tpr, 1.0);
    }
    EXPECT_GT(risk.points[1].tpr, previous);
    previous = risk.points[1].tpr;
    const auto j = to_json(risk);
    EXPECT_DOUBLE_EQ(j["tpr_at_fpr"]["0.01"].get<double>(), risk.points[1].tpr);
    EXPECT_TRUE(j["tpr_at_fpr"].contains("0.001") && j["tpr_at_fpr"].contains("0.1"));
    EXPECT_NE(risk_sentence(risk).find("an attacker at 1 % false positives identifies at most"),
              std::string::npos);
  }
  // One order and a budget (a filter's statement): the same rule with ε_α given at one α.
  const AttackRisk budget = attack_risk(8.0, 0.5, 1.25, 1e-3);
  for (const auto& p : budget.points) {
    EXPECT_DOUBLE_EQ(p.tpr_rdp, tpr_bound_rdp(p.fpr, 8.0, 0.5));
    EXPECT_LE(p.tpr, p.tpr_epsilon_delta);
  }
}
