// The adaptive choice among public candidates (privacy/envelope.hpp, Mironov 2017 Prop. 1): the
// closed form of Gaussian-type curves (summary ρ₀ then the envelope of ρ_k is the Gaussian
// mechanism with ρ₀ + max ρ_k, whose Mironov conversion is ρ + 2√(ρ log(1/δ))), crossing curves
// with finite ranges (pointwise maximum, the smallest α_max), every candidate's own composition
// with the summary below the total, and the empty list refused.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/privacy/envelope.hpp"
#include "gpdp/privacy/rdp.hpp"

using namespace gpdp;
using namespace gpdp::privacy;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

Accountant gaussian(double rho, long count = 1) {
  Accountant a;
  a.add(RdpCurve([rho](double alpha) { return alpha * rho; }, kInf, "gaussian"), count);
  return a;
}
}  // namespace

TEST(PrivacyEnvelope, GaussianCandidatesClosedForm) {
  // Summary ρ₀ = 0.01; candidates ρ = 0.2, 0.5 and 2 × 0.15 (= 0.3 composed): the envelope is 0.5α.
  const double rho0 = 0.01, rho_max = 0.5;
  const std::vector<Accountant> candidates{gaussian(0.2), gaussian(rho_max), gaussian(0.15, 2)};
  const Accountant total = summary_then_choice(gaussian(rho0), candidates);
  for (double delta : {1e-8, 1e-5}) {
    const auto g = total.epsilon(delta, Conversion::Mironov);
    const double rho = rho0 + rho_max, L = std::log(1.0 / delta);
    EXPECT_NEAR(g.epsilon, rho + 2.0 * std::sqrt(rho * L), 1e-9 * g.epsilon);
  }
  for (double alpha : {1.01, 2.0, 37.0}) EXPECT_DOUBLE_EQ(total.rdp(alpha), (rho0 + rho_max) * alpha);
}

TEST(PrivacyEnvelope, CrossingCurvesPointwiseMaximum) {
  // A: 0.3α on (1, ∞); B: 0.05α² on (1, 8). They cross at α = 6: B below before, above after.
  Accountant a = gaussian(0.3), b;
  b.add(RdpCurve([](double alpha) { return 0.05 * alpha * alpha; }, 8.0, "quadratic"), 1);
  const RdpCurve env = candidate_envelope({a, b});
  EXPECT_EQ(env.alpha_max(), 8.0);
  EXPECT_DOUBLE_EQ(env(2.0), 0.6);
  EXPECT_DOUBLE_EQ(env(7.0), 0.05 * 49.0);
  EXPECT_EQ(env(8.5), kInf);
  // Every candidate's own curve lies below the envelope on the common range.
  for (double alpha = 1.05; alpha < 8.0; alpha += 0.05) {
    EXPECT_LE(a.rdp(alpha), env(alpha));
    EXPECT_LE(b.rdp(alpha), env(alpha));
  }
  // The total is at least the summary composed with any one candidate (the choice may realise
  // either) and at most the summary composed with all of them (the naive, non-adaptive bound).
  const Accountant summary = gaussian(0.02);
  const auto total = summary_then_choice(summary, {a, b}).epsilon(1e-6, Conversion::CKS);
  Accountant with_a = summary, with_b = summary, with_both = summary;
  with_a.add(a);
  with_b.add(b);
  with_both.add(a).add(b);
  EXPECT_GE(total.epsilon, with_a.epsilon(1e-6, Conversion::CKS).epsilon - 1e-12);
  EXPECT_GE(total.epsilon, with_b.epsilon(1e-6, Conversion::CKS).epsilon - 1e-12);
  EXPECT_LT(total.epsilon, with_both.epsilon(1e-6, Conversion::CKS).epsilon);
}

TEST(PrivacyEnvelope, RefusesAnEmptyList) {
  EXPECT_THROW(candidate_envelope({}), ParameterError);
  EXPECT_THROW(candidate_envelope({Accountant{}}), ParameterError);
}
