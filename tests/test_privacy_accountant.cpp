// Accountant: golden regression (tests/data/accountant_mironov.csv, every row), the α optimiser
// against a dense brute-force scan, closed-form Gaussian-mechanism conversion, CKS ≤ Mironov,
// ε(δ) and δ(ε) inverse, composition of heterogeneous curves, NaN/negative RDP refused.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

#include "gpdp/error.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "gpdp/privacy/mechanism.hpp"
#include "support/paths.hpp"

using namespace gpdp;
using namespace gpdp::privacy;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  std::string cell;
  while (std::getline(ss, cell, ',')) out.push_back(cell);
  return out;
}

// Dense brute force over α, independent of the accountant's scan: 20001 points in log(α−1) and in
// log(α_max − α), then four zooms (2001 points each) onto the best point's neighbourhood.
double brute_force_min(const std::function<double(double)>& f, double alpha_max) {
  double best = kInf, best_alpha = 0;
  auto consider = [&](double alpha) {
    if (!(alpha > 1.0) || !(alpha < alpha_max)) return;
    const double v = f(alpha);
    if (v < best) {
      best = v;
      best_alpha = alpha;
    }
  };
  const int m = 20000;
  const double top = std::isinf(alpha_max) ? 1e7 : alpha_max - 1.0;
  double step = 0;  // relative spacing of the coarse grid around the best point
  for (int i = 0; i <= m; ++i) {
    const double u = -34.0 + 34.0 * i / m;
    consider(1.0 + top * std::exp(u));
    if (!std::isinf(alpha_max)) consider(alpha_max - top * std::exp(u));
  }
  step = 34.0 / m;
  double lo = 1.0 + (best_alpha - 1.0) * std::exp(-2 * step);
  double hi = std::min(alpha_max, 1.0 + (best_alpha - 1.0) * std::exp(2 * step));
  if (!std::isinf(alpha_max)) {  // the neighbourhood in the upper-end variable as well
    lo = std::min(lo, alpha_max - (alpha_max - best_alpha) * std::exp(2 * step));
    hi = std::max(lo, std::min(hi, alpha_max - (alpha_max - best_alpha) * std::exp(-2 * step)));
  }
  for (int zoom = 0; zoom < 4; ++zoom) {
    const int k = 2000;
    for (int i = 0; i <= k; ++i) consider(lo + (hi - lo) * i / k);
    const double w = 2.0 * (hi - lo) / k;
    lo = std::max(1.0, best_alpha - w);
    hi = std::min(alpha_max, best_alpha + w);
  }
  return best;
}
}  // namespace

TEST(PrivacyAccountant, GoldenMironovAllRows) {
  std::ifstream in(gpdp::test::test_data_dir() + "/accountant_mironov.csv");
  ASSERT_TRUE(in.good());
  std::string line;
  std::getline(in, line);
  const auto header = split(line);
  ASSERT_EQ(header.size(), 15u);
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    const auto c = split(line);
    ASSERT_EQ(c.size(), 15u) << line;
    GpMechanism m;
    const std::string kernel = c[0];
    if (kernel == "exp1d" || kernel == "exp2d") {
      m.kernel = Kernel::exponential(std::stod(c[3]));
      m.dim = kernel == "exp1d" ? 1 : 2;
    } else {
      ASSERT_EQ(kernel, "any");
      m.kappa = std::stod(c[4]);
    }
    m.lemma = parse_sensitivity_lemma(c[1]);
    m.n = std::stol(c[2]);
    m.r = std::stod(c[5]);
    m.sigma = c[6] == "inf" ? kInf : std::stod(c[6]);
    m.eta = std::stod(c[7]);
    const long draws = std::stol(c[8]);
    const double delta = std::stod(c[9]);
    m.M_Y = std::stod(c[10]);
    const auto b = resolve_bounds(m);
    EXPECT_NEAR(b.kappa, std::stod(c[4]), 1e-15) << line;
    EXPECT_NEAR(b.Vn, std::stod(c[11]), 1e-12 * std::stod(c[11])) << line;
    EXPECT_NEAR(b.Delta_n, std::stod(c[12]), 1e-12 * std::stod(c[12])) << line;
    const auto g = account(m, draws, delta, Conversion::Mironov);
    const double eps = std::stod(c[13]);
    EXPECT_NEAR(g.epsilon, eps, 1e-9 * eps) << line;
    // The optimum is flat in α: its location is known to ~√(1e-16) relative.
    EXPECT_NEAR(g.alpha, std::stod(c[14]), 1e-5 * std::stod(c[14])) << line;
    EXPECT_FALSE(g.pinned_low || g.pinned_high) << line;
    ++rows;
  }
  EXPECT_EQ(rows, 46);
}

TEST(PrivacyAccountant, GaussianMechanismClosedForm) {
  // ε_α = αρ (Gaussian mechanism): Mironov's optimum is ρ + 2√(ρ log(1/δ)) at α* = 1 +
  // √(log(1/δ)/ρ).
  for (double rho : {1e-6, 1e-3, 0.5, 20.0}) {
    for (double delta : {1e-10, 1e-5, 0.1}) {
      Accountant acc;
      acc.add(RdpCurve([rho](double a) { return a * rho; }, kInf, "gaussian"), 1);
      const auto g = acc.epsilon(delta, Conversion::Mironov);
      const double L = std::log(1.0 / delta);
      EXPECT_NEAR(g.epsilon, rho + 2.0 * std::sqrt(rho * L), 1e-10 * g.epsilon);
      EXPECT_NEAR(g.alpha, 1.0 + std::sqrt(L / rho), 1e-5 * g.alpha);
    }
  }
}

TEST(PrivacyAccountant, OptimiserMatchesDenseBruteForce) {
  int cases = 0;
  for (double r : {0.05, 1.0, 30.0}) {
    for (double sigma : {0.2, 10.0, kInf}) {
      for (long draws : {1L, 1000L}) {
        for (auto conv : {Conversion::Mironov, Conversion::CKS}) {
          GpMechanism m;
          m.kernel = Kernel::exponential(0.5);
          m.n = 50;
          m.r = r;
          m.sigma = sigma;
          m.lemma = SensitivityLemma::B7;
          Accountant acc;
          acc.add(rdp_curve(m), draws);
          const double delta = 1e-5;
          const auto g = acc.epsilon(delta, conv);
          const double brute = brute_force_min(
              [&](double a) { return epsilon_at_order(acc.rdp(a), a, delta, conv); },
              acc.alpha_max());
          if (brute >= 0) {
            EXPECT_NEAR(g.unclamped_epsilon, brute, 1e-9 * std::abs(brute))
                << "r=" << r << " sigma=" << sigma << " L=" << draws << " " << to_string(conv);
          }
          EXPECT_LE(g.unclamped_epsilon, brute + 1e-12 * std::abs(brute));
          ++cases;
        }
      }
    }
  }
  EXPECT_EQ(cases, 36);
}

TEST(PrivacyAccountant, CksNeverAboveMironovAndInverse) {
  for (double r : {0.1, 1.0, 10.0}) {
    for (double sigma : {0.3, 3.0}) {
      for (double delta : {1e-9, 1e-4, 0.05}) {
        GpMechanism m;
        m.kernel = Kernel::matern52(0.2);
        m.dim = 2;
        m.n = 200;
        m.r = r;
        m.sigma = sigma;
        m.eta = 0.5;
        Accountant acc;
        acc.add(rdp_curve(m), 3);
        const auto mir = acc.epsilon(delta, Conversion::Mironov);
        const auto cks = acc.epsilon(delta, Conversion::CKS);
        EXPECT_LE(cks.epsilon, mir.epsilon);
        for (const auto& g : {mir, cks}) {
          if (g.clamped) continue;
          // δ(ε(δ)) = δ and ε(δ(ε)) = ε.
          const auto back = acc.delta(g.epsilon, g.conversion);
          EXPECT_NEAR(back.delta, delta, 1e-6 * delta) << "r=" << r << " sigma=" << sigma;
          const auto again = acc.epsilon(back.delta, g.conversion);
          EXPECT_NEAR(again.epsilon, g.epsilon, 1e-8 * g.epsilon);
        }
      }
    }
  }
}

TEST(PrivacyAccountant, ComposesHeterogeneousCurves) {
  GpMechanism a, b;
  a.kernel = Kernel::exponential(1.0);
  a.lemma = SensitivityLemma::B7;
  a.n = 10;
  a.r = 1.0;
  a.sigma = 2.0;
  b = a;
  b.r = 3.0;
  b.sigma = 0.5;
  Accountant acc;
  acc.add(rdp_curve(a), 2).add(rdp_curve(b), 5);
  EXPECT_EQ(acc.total_releases(), 7);
  EXPECT_DOUBLE_EQ(acc.alpha_max(), std::min(rdp_curve(a).alpha_max(), rdp_curve(b).alpha_max()));
  for (double alpha : {1.01, 1.5, 1.9}) {
    EXPECT_NEAR(acc.rdp(alpha), 2 * rdp_curve(a)(alpha) + 5 * rdp_curve(b)(alpha), 1e-12);
  }
  EXPECT_EQ(acc.rdp(acc.alpha_max()), kInf);
  // Composition never helps: ε of the whole ≥ ε of each part.
  const auto whole = acc.epsilon(1e-5, Conversion::CKS);
  EXPECT_GE(whole.epsilon, account(a, 2, 1e-5, Conversion::CKS).epsilon);
  EXPECT_GE(whole.epsilon, account(b, 5, 1e-5, Conversion::CKS).epsilon);
  // Monotone in L; sub-linear growth is allowed but never a decrease.
  double prev = 0;
  for (long L = 1; L < 100000; L *= 4) {
    const double e = account(a, L, 1e-5, Conversion::Mironov).epsilon;
    EXPECT_GT(e, prev);
    prev = e;
  }
}

TEST(PrivacyAccountant, RefusesNanAndNegativeRdpAndReportsEdges) {
  Accountant nan_acc;
  nan_acc.add(RdpCurve([](double) { return std::nan(""); }, 3.0, "broken"));
  EXPECT_THROW(nan_acc.epsilon(1e-5, Conversion::Mironov), NumericalError);
  Accountant neg;
  neg.add(RdpCurve([](double a) { return 1.0 - a; }, 3.0, "negative"));
  EXPECT_THROW(neg.epsilon(1e-5, Conversion::Mironov), NumericalError);
  // A curve that is 0 everywhere: ε → 0 as α → ∞: the optimum is pinned at the upper edge and said
  // so.
  Accountant zero;
  zero.add(RdpCurve([](double) { return 0.0; }, kInf, "zero"));
  const auto g = zero.epsilon(1e-5, Conversion::Mironov);
  EXPECT_TRUE(g.pinned_high);
  EXPECT_FALSE(g.note().empty());
  EXPECT_LT(g.epsilon, 1e-12);
  // Large δ with CKS: the converted value is negative, reported as ε = 0 with the reason.
  Accountant small;
  small.add(RdpCurve([](double a) { return 1e-4 * a; }, kInf, "tiny"));
  const auto c = small.epsilon(0.9, Conversion::CKS);
  EXPECT_TRUE(c.clamped);
  EXPECT_EQ(c.epsilon, 0.0);
  EXPECT_LT(c.unclamped_epsilon, 0.0);
  EXPECT_NE(c.note().find("ε = 0"), std::string::npos);
  // Bad δ / ε.
  EXPECT_THROW(small.epsilon(0.0, Conversion::Mironov), InputError);
  EXPECT_THROW(small.epsilon(1.0, Conversion::Mironov), InputError);
  EXPECT_THROW(small.delta(-1.0, Conversion::Mironov), InputError);
  EXPECT_THROW(Accountant().epsilon(0.1, Conversion::Mironov), InputError);
}

TEST(PrivacyAccountant, OptimumNearEitherEndIsResolved) {
  // Tiny r: α_max − 1 = r²/V ≈ 1e-6 and the optimum sits just above 1.
  GpMechanism m;
  m.kappa = 0.0;
  m.n = 5;
  m.r = 1e-3;
  m.sigma = 1.0;
  for (auto conv : {Conversion::Mironov, Conversion::CKS}) {
    Accountant acc;
    acc.add(rdp_curve(m), 1);
    const auto g = acc.epsilon(1e-5, conv);
    const double brute = brute_force_min(
        [&](double a) { return epsilon_at_order(acc.rdp(a), a, 1e-5, conv); }, acc.alpha_max());
    EXPECT_NEAR(g.epsilon, brute, 1e-9 * brute);
    EXPECT_GT(g.alpha, 1.0);
    EXPECT_LT(g.alpha, acc.alpha_max());
  }
  // Covariance only with a large δ: the optimum moves toward α_max.
  m.r = 1.0;
  m.sigma = kInf;
  Accountant acc;
  acc.add(rdp_curve(m), 1);
  const auto g = acc.epsilon(0.5, Conversion::Mironov);
  const double brute = brute_force_min(
      [&](double a) { return epsilon_at_order(acc.rdp(a), a, 0.5, Conversion::Mironov); },
      acc.alpha_max());
  EXPECT_NEAR(g.epsilon, brute, 1e-9 * brute);
  EXPECT_GT((g.alpha - 1.0) / (acc.alpha_max() - 1.0), 0.5);
}
