// Calibration round-trips: the returned parameter meets the target, a slightly smaller r/σ/η (or
// one more draw) does not, and infeasible targets are refused with the reason.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/privacy/calibrate.hpp"

using namespace gpdp;
using namespace gpdp::privacy;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
GpMechanism base() {
  GpMechanism m;
  m.kernel = Kernel::exponential(0.5);
  m.dim = 1;
  m.n = 100;
  m.r = 1.0;
  m.sigma = 1.0;
  m.lemma = SensitivityLemma::B7;
  return m;
}
}  // namespace

TEST(PrivacyCalibrate, SmallestRRoundTrips) {
  for (double eps0 : {0.5, 2.0, 10.0, 300.0}) {
    for (auto conv : {Conversion::Mironov, Conversion::CKS}) {
      const auto c = calibrate(base(), 3, CalibrationParameter::R, {eps0, 1e-5, conv});
      EXPECT_LE(c.achieved.epsilon, eps0);
      EXPECT_NEAR(c.achieved.epsilon, eps0, 1e-6 * eps0);
      auto smaller = c.mechanism;
      smaller.r = c.value * (1 - 1e-6);
      EXPECT_GT(account(smaller, 3, 1e-5, conv).epsilon, eps0);
      EXPECT_DOUBLE_EQ(account(c.mechanism, 3, 1e-5, conv).epsilon, c.achieved.epsilon);
    }
  }
}

TEST(PrivacyCalibrate, SmallestSigmaEtaAndLargestDraws) {
  auto m = base();
  m.r = 2.0;
  const auto s = calibrate(m, 1, CalibrationParameter::Sigma, {3.0, 1e-5, Conversion::CKS});
  EXPECT_LE(s.achieved.epsilon, 3.0);
  auto ms = s.mechanism;
  ms.sigma = s.value * (1 - 1e-6);
  EXPECT_GT(account(ms, 1, 1e-5, Conversion::CKS).epsilon, 3.0);

  m.sigma = 0.3;
  const auto e = calibrate(m, 1, CalibrationParameter::Eta, {3.0, 1e-5, Conversion::Mironov});
  EXPECT_GT(e.value, 0.0);
  EXPECT_LE(e.achieved.epsilon, 3.0);
  auto me = e.mechanism;
  me.eta = e.value * (1 - 1e-6);
  EXPECT_GT(account(me, 1, 1e-5, Conversion::Mironov).epsilon, 3.0);
  // Already met: η = 0.
  const auto e0 = calibrate(m, 1, CalibrationParameter::Eta, {1e6, 1e-5, Conversion::Mironov});
  EXPECT_EQ(e0.value, 0.0);
  EXPECT_FALSE(e0.note.empty());

  m.sigma = 5.0;
  const auto L = calibrate(m, 1, CalibrationParameter::Draws, {10.0, 1e-5, Conversion::Mironov});
  EXPECT_GE(L.draws, 1);
  EXPECT_LE(account(m, L.draws, 1e-5, Conversion::Mironov).epsilon, 10.0);
  EXPECT_GT(account(m, L.draws + 1, 1e-5, Conversion::Mironov).epsilon, 10.0);
}

TEST(PrivacyCalibrate, InfeasibleTargetsSayWhy) {
  auto m = base();
  m.r = 0.2;  // covariance-only term alone is large
  const double cov_only = [&] {
    auto mm = m;
    mm.sigma = kInf;
    return account(mm, 1, 1e-5, Conversion::Mironov).epsilon;
  }();
  try {
    calibrate(m, 1, CalibrationParameter::Sigma, {cov_only * 0.9, 1e-5, Conversion::Mironov});
    FAIL() << "expected infeasible";
  } catch (const PrivacyError& e) {
    EXPECT_NE(std::string(e.what()).find("infeasible"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("σ → ∞"), std::string::npos);
  }
  m.sigma = 0.01;
  EXPECT_THROW(calibrate(m, 1, CalibrationParameter::Draws, {0.1, 1e-5, Conversion::Mironov}),
               PrivacyError);
  EXPECT_THROW(calibrate(m, 1, CalibrationParameter::R, {0.0, 1e-5, Conversion::Mironov}),
               InputError);
  auto user = m;
  user.lemma = SensitivityLemma::User;
  user.user_Delta_n = 1.0;
  user.r = 2.0;
  EXPECT_THROW(calibrate(user, 1, CalibrationParameter::R, {1.0, 1e-5, Conversion::Mironov}),
               InputError);
  EXPECT_NO_THROW(
      calibrate(user, 1, CalibrationParameter::Sigma, {5.0, 1e-5, Conversion::Mironov}));
}
