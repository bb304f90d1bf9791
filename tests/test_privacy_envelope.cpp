// The adaptive choice among public candidates (privacy/envelope.hpp, Mironov 2017 Prop. 1): the
// closed form of Gaussian-type curves (summary ρ₀ then the envelope of ρ_k is the Gaussian
// mechanism with ρ₀ + max ρ_k, whose Mironov conversion is ρ + 2√(ρ log(1/δ))), crossing curves
// with finite ranges (pointwise maximum, the smallest α_max), every candidate's own composition
// with the summary below the total, and the empty list refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/privacy/envelope.hpp"
#include "gpdp/privacy/mechanism.hpp"
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
  for (double alpha : {1.01, 2.0, 37.0})
    EXPECT_DOUBLE_EQ(total.rdp(alpha), (rho0 + rho_max) * alpha);
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

TEST(PrivacyEnvelope, TrivialCandidateAndEmptyList) {
  // The trivial map (no event) adds nothing: the envelope with it is the other candidate's curve,
  // and a list of the trivial map alone leaves the summary's guarantee unchanged.
  const Accountant summary = gaussian(0.05);
  const RdpCurve env = candidate_envelope({Accountant{}, gaussian(0.4)});
  EXPECT_EQ(env.alpha_max(), kInf);
  for (double alpha : {1.5, 3.0, 40.0}) EXPECT_DOUBLE_EQ(env(alpha), 0.4 * alpha);
  EXPECT_DOUBLE_EQ(
      summary_then_choice(summary, {Accountant{}}).epsilon(1e-6, Conversion::CKS).epsilon,
      summary.epsilon(1e-6, Conversion::CKS).epsilon);
  EXPECT_THROW(candidate_envelope({}), ParameterError);
}

TEST(PrivacyEnvelope, ChoiceRecordReplaysToTheSameCurve) {
  // Real events: the summary a grid mean, the candidates a grid mean at less noise, two draws of
  // a prior mean's Gaussian mechanism, and the trivial map. The record lists every candidate and
  // replays to the same curve at every order; a malformed choice is refused.
  GpMechanism grid;
  grid.kind = MechanismKind::GridMean;
  grid.n = 200;
  grid.M_Y = 1.0;
  grid.noise_scale = 8.0;
  grid.count_noise = 8.0;
  grid.cells = {4, 4};
  GpMechanism sharper = grid;
  sharper.noise_scale = 3.0;
  sharper.count_noise = 3.0;
  GpMechanism mean;
  mean.kind = MechanismKind::PriorMean;
  mean.n = 200;
  mean.M_Y = 1.0;
  mean.noise_scale = 0.02;
  Accountant summary, c1, c2;
  summary.add(grid, 1);
  c1.add(sharper, 1);
  c2.add(mean, 2);
  const Accountant total = summary_then_choice(summary, {c1, c2, Accountant{}});
  const auto record = total.record();
  ASSERT_EQ(record["events"].size(), 2u);
  EXPECT_EQ(record["events"][1]["kind"], "choice");
  EXPECT_EQ(record["events"][1]["candidates"].size(), 3u);
  EXPECT_TRUE(record["events"][1]["candidates"][2].empty());
  const Accountant replayed = Accountant::replay(record, "test");
  for (double alpha : {1.1, 2.0, 9.0, 100.0}) {
    EXPECT_DOUBLE_EQ(replayed.rdp(alpha), total.rdp(alpha));
    EXPECT_DOUBLE_EQ(total.rdp(alpha), summary.rdp(alpha) + std::max(c1.rdp(alpha), c2.rdp(alpha)));
  }
  EXPECT_EQ(replayed.record(), record);
  EXPECT_THROW(total.events(), InputError);
  auto broken = record;
  broken["events"][1]["candidates"] = nlohmann::json::array();
  EXPECT_THROW(Accountant::replay(broken, "test"), InputError);
}
