// Bounds of docs/mathematics.md §2 / paper App. A–B at hand-computed points, ψ_α against its
// definition, the lemma applicability rules, monotonicity, and the Lemma B.2 construction (Δ_n
// grows like √n).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>

#include "gpdp/error.hpp"
#include "gpdp/privacy/bounds.hpp"
#include "gpdp/privacy/mechanism.hpp"
#include "gpdp/privacy/rdp.hpp"

using namespace gpdp;
using namespace gpdp::privacy;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
}

TEST(PrivacyBounds, ClosedFormsAtHandComputedPoints) {
  // Proposition 3: 1 − 0.25·2/(2+1) = 5/6.
  EXPECT_NEAR(posterior_variance_scale(0.5, 3, 1.0), 5.0 / 6.0, 1e-15);
  EXPECT_DOUBLE_EQ(posterior_variance_scale(0.7, 1, 0.3), 1.0);  // n = 1: no common core
  // Φ_n: V ≥ r² → 1/(4r²); V < r² → V/(V+r²)².
  EXPECT_DOUBLE_EQ(phi_n(1.0, 0.5), 1.0);
  EXPECT_NEAR(phi_n(0.5, 1.0), 0.5 / 2.25, 1e-16);
  // B.1: n=5, r=2, V=1: Φ = 1/25, Δ = 2(1 + 2/2)(1/5) = 0.8.
  EXPECT_NEAR(mean_sensitivity_b1(5, 2.0, 1.0, 1.0), 0.8, 1e-15);
  // B.4: n=4, r=1: 2√4/(1·5) = 0.8.
  EXPECT_NEAR(mean_sensitivity_b4(4, 1.0, 1.0), 0.8, 1e-15);
  // B.5: √2/r for r ≤ 1, 2√2/(1+r²) for r ≥ 1 (continuous at r = 1).
  EXPECT_NEAR(mean_sensitivity_b5(0.5, 1.0), 2.0 * std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(mean_sensitivity_b5(2.0, 3.0), 3.0 * 2.0 * std::sqrt(2.0) / 5.0, 1e-15);
  EXPECT_NEAR(mean_sensitivity_b5(1.0, 1.0), std::sqrt(2.0), 1e-15);
  // B.7: r = 0.5, V = 1 ≥ r²: 4·√(1/(4·0.25)) = 4; and 2M_Y/r in that regime.
  EXPECT_NEAR(mean_sensitivity_b7(0.5, 1.0, 1.0), 4.0, 1e-15);
  EXPECT_NEAR(mean_sensitivity_b7(0.1, 0.9, 2.0), 2.0 * 2.0 / 0.1, 1e-12);
  // B.8: 2·3·1/(1+1) = 3.
  EXPECT_NEAR(mean_sensitivity_b8(1.0, 1.0, 3.0), 3.0, 1e-15);
  // B.2: n=5, r=1: (1+1+2)/(1·√2·3).
  EXPECT_NEAR(sensitivity_lower_bound_b2(5, 1.0, 1.0), 4.0 / (3.0 * std::sqrt(2.0)), 1e-15);
  // B.3: |y1|=1, k11=1, k01=0.6, r=1: √0.64/2 = 0.4.
  EXPECT_NEAR(sensitivity_lower_bound_b3(1.0, 1.0, 1.0, 0.6), 0.4, 1e-15);
}

TEST(PrivacyBounds, PsiAlphaClosedForm) {
  // α = 2, τ = 0.5: t1 = ½log1.5 − ½log(2/1.5) = ½log(1.125); t2 = −½log1.5 − ½log(0.5) =
  // ½log(4/3).
  EXPECT_NEAR(psi_alpha(2.0, 0.5), 0.5 * std::log(4.0 / 3.0), 1e-15);
  EXPECT_DOUBLE_EQ(psi_alpha(3.0, 0.0), 0.0);
  EXPECT_EQ(psi_alpha(3.0, 0.5), kInf);  // α = 1 + 1/τ is outside the open range
  EXPECT_EQ(psi_alpha(1.0, 0.5), kInf);
}

TEST(PrivacyBounds, TheoremAndPropositionAtHandComputedPoints) {
  // Theorem 3.1, α = 2, V = 1, Δ = 1, r = 2, σ = 1: τ = 1/4,
  //   2ψ_2(1/4) = −log(1 − 1/4)·... : t2 = −½log1.25 − ½log0.75 = −½log(0.9375) (> t1 =
  //   ½log(1.25/1.2)), mean = 2·5·1/(2·1·(4 − 1)) = 5/3.
  const double expected = -std::log(0.9375) + 5.0 / 3.0;
  EXPECT_NEAR(gp_rdp(2.0, 1.0, 1.0, 2.0, 1.0, 0.0), expected, 1e-14);
  // σ = ∞: covariance only.
  EXPECT_NEAR(gp_rdp(2.0, 1.0, 1.0, 2.0, kInf, 0.0), -std::log(0.9375), 1e-15);
  // Proposition 2, α = 2, V = 1, Δ = 1, r = 1, σ = 1, η = 1: τ̃ = 1/(1 + 2) = 1/3,
  //   t1 = ½log(4/3) − ½log((5/3)/(4/3)) = ½log(16/15), t2 = −½log(4/3) − ½log(2/3) = ½log(9/8),
  //   mean = 2·2·1/(2·(1·(1−1) + 1·2)) = 1.
  EXPECT_NEAR(gp_rdp(2.0, 1.0, 1.0, 1.0, 1.0, 1.0), std::log(9.0 / 8.0) + 1.0, 1e-14);
  EXPECT_NEAR(noisy_tau(1.0, 1.0, 1.0, 1.0), 1.0 / 3.0, 1e-16);
  // Admissible range is open: α ≥ 1 + r²/V gives +∞.
  EXPECT_EQ(gp_rdp(5.0, 1.0, 1.0, 2.0, 1.0, 0.0), kInf);
  EXPECT_TRUE(std::isfinite(gp_rdp(4.999, 1.0, 1.0, 2.0, 1.0, 0.0)));
}

// ψ_α(τ) is the maximum of ϕ_α(λ) = −½log λ − log(α − (α−1)λ)/(2(α−1)) over [1/(1+τ), 1+τ].
TEST(PrivacyBounds, PsiAlphaEqualsMaximumOfLambdaExpressionByDenseSearch) {
  for (double tau : {1e-4, 0.01, 0.1, 0.5, 1.0, 3.0, 20.0}) {
    const double top = 1.0 + 1.0 / tau;
    for (double frac : {1e-6, 0.01, 0.2, 0.5, 0.9, 0.999}) {
      const double alpha = 1.0 + (top - 1.0) * frac;
      const double a = alpha - 1.0;
      double best = -kInf;
      const int m = 200000;
      const double lo = 1.0 / (1.0 + tau), hi = 1.0 + tau;
      for (int i = 0; i <= m; ++i) {
        const double lambda = lo + (hi - lo) * i / m;
        // log(α − (α−1)λ) = log1p((α−1)(1−λ)), written so that α → 1 keeps its digits.
        const double phi = -0.5 * std::log(lambda) - std::log1p(a * (1.0 - lambda)) / (2.0 * a);
        best = std::max(best, phi);
      }
      const double psi = psi_alpha(alpha, tau);
      // The maximum sits at an end point, which the grid contains: agreement to rounding.
      EXPECT_NEAR(psi, best, 1e-9 * std::max(1e-3, best)) << "tau=" << tau << " alpha=" << alpha;
    }
  }
}

TEST(PrivacyBounds, PsiAlphaNonDecreasingInTauAndAlpha) {
  for (double alpha : {1.001, 1.5, 2.0, 5.0}) {
    double prev = 0.0;
    for (double tau = 1e-3; tau * (alpha - 1.0) < 1.0; tau *= 1.1) {
      const double v = psi_alpha(alpha, tau);
      EXPECT_GE(v, prev - 1e-15) << "alpha=" << alpha << " tau=" << tau;
      prev = v;
    }
  }
  for (double tau : {0.01, 0.3, 2.0}) {
    double prev = 0.0;
    for (double alpha = 1.0001; (alpha - 1.0) * tau < 1.0; alpha += 0.01) {
      const double v = psi_alpha(alpha, tau);
      EXPECT_GE(v, prev - 1e-15) << "tau=" << tau << " alpha=" << alpha;
      prev = v;
    }
  }
}

TEST(PrivacyBounds, MonotoneInRSigmaEtaAndN) {
  // Every sensitivity bound decreases in r; ε_α decreases in r, σ, η (at fixed admissible α).
  for (SensitivityLemma lemma :
       {SensitivityLemma::B1, SensitivityLemma::B7, SensitivityLemma::B8}) {
    double prev = kInf;
    for (double r = 0.05; r < 50; r *= 1.2) {
      const double V = posterior_variance_scale(0.4, 30, r);
      const double d = mean_sensitivity(lemma, {30, r, V, 1.0, 2.0});
      EXPECT_LE(d, prev * (1 + 1e-14)) << to_string(lemma) << " r=" << r;
      prev = d;
    }
  }
  double prev_b4 = kInf, prev_b5 = kInf;
  for (double r = 0.05; r < 50; r *= 1.2) {
    EXPECT_LE(mean_sensitivity_b4(30, r, 1.0), prev_b4);
    EXPECT_LE(mean_sensitivity_b5(r, 1.0), prev_b5 * (1 + 1e-14));
    prev_b4 = mean_sensitivity_b4(30, r, 1.0);
    prev_b5 = mean_sensitivity_b5(r, 1.0);
  }
  // B.1 grows with n (O(√n)); B.4 decreases with n (O(1/√n)); V̄_n decreases with n.
  double b1 = 0, b4 = kInf, vn = kInf;
  for (long n = 1; n < 5000; n *= 3) {
    const double V = posterior_variance_scale(0.3, n, 1.0);
    EXPECT_LE(V, vn);
    EXPECT_GE(mean_sensitivity_b1(n, 1.0, 1.0, 1.0), b1);
    EXPECT_LE(mean_sensitivity_b4(n, 1.0, 1.0), b4);
    vn = V;
    b1 = mean_sensitivity_b1(n, 1.0, 1.0, 1.0);
    b4 = mean_sensitivity_b4(n, 1.0, 1.0);
  }
  const double alpha = 1.3;
  double last = kInf;
  for (double sigma = 0.1; sigma < 100; sigma *= 1.5) {
    const double v = gp_rdp(alpha, 0.9, 2.0, 1.0, sigma, 0.0);
    EXPECT_LT(v, last);
    last = v;
  }
  last = kInf;
  for (double eta = 0.0; eta < 10; eta += 0.25) {
    const double v = gp_rdp(alpha, 0.9, 2.0, 1.0, 1.0, eta);
    EXPECT_LT(v, last);
    last = v;
  }
}

TEST(PrivacyBounds, LemmaApplicability) {
  const auto exp = Kernel::exponential(0.5);
  EXPECT_NO_THROW(check_lemma_applies(SensitivityLemma::B7, exp, 1));
  EXPECT_THROW(check_lemma_applies(SensitivityLemma::B7, exp, 2), PrivacyError);
  try {  // B.7 is false in 2-D (the witness of NeverBelowTheWorstPairsOfTheStudy): say so.
    check_lemma_applies(SensitivityLemma::B7, exp, 2);
  } catch (const PrivacyError& e) {
    EXPECT_NE(std::string(e.what()).find("in d ≥ 2 it is false"), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_lemma_applies(SensitivityLemma::B7, Kernel::squared_exponential(1.0), 1),
               PrivacyError);
  EXPECT_THROW(check_lemma_applies(SensitivityLemma::B4, exp, 1), PrivacyError);
  EXPECT_NO_THROW(check_lemma_applies(SensitivityLemma::B4, Kernel::constant(), 3));
  EXPECT_THROW(check_lemma_applies(SensitivityLemma::B5, exp, 1), PrivacyError);
  EXPECT_NO_THROW(check_lemma_applies(SensitivityLemma::B5, Kernel::diagonal(), 4));
  EXPECT_THROW(check_lemma_applies(SensitivityLemma::B7, std::nullopt, 1), PrivacyError);
  for (auto lemma : {SensitivityLemma::B1, SensitivityLemma::B8}) {
    EXPECT_NO_THROW(check_lemma_applies(lemma, Kernel::matern32(1.0), 5));
  }
  EXPECT_THROW(parse_sensitivity_lemma("b2"), InputError);
  EXPECT_EQ(parse_sensitivity_lemma("B7"), SensitivityLemma::B7);
  // B.8 without a norm bound is refused, not silently zero.
  GpMechanism m;
  m.kernel = Kernel::squared_exponential(0.3);
  m.lemma = SensitivityLemma::B8;
  EXPECT_THROW(resolve_bounds(m), InputError);
  m.rkhs_norm = 3.0;
  EXPECT_NO_THROW(resolve_bounds(m));
  // Bad parameters.
  GpMechanism bad;
  bad.r = 0.0;
  EXPECT_THROW(resolve_bounds(bad), InputError);
  bad.r = 1.0;
  bad.n = 0;
  EXPECT_THROW(resolve_bounds(bad), InputError);
  bad.n = 3;
  bad.sigma = -1.0;
  EXPECT_THROW(resolve_bounds(bad), InputError);
}

// Lemma B.2's feature-map kernel: φ(x0) = 0, φ(a_i) = e_i, φ(b_m) = (1/√m) Σ_{i≤m} e_i. With the
// common core {(a_i, M_Y)}_{i<n}, D = D− ∪ {(b_{n−1}, −M_Y)}, D' = D− ∪ {(x0, M_Y)}, the exact RKHS
// distance ‖μ_D − μ_D'‖_{H−} = |μ_D(b) − μ_D'(b)| / √k_{D−}(b, b) (μ_D − μ_D' ∝ k_{D−}(·, b)) is
// computed here by plain matrix algebra on the feature vectors and must equal the lemma's value
// and grow like √n; Lemma B.1 must stay above it.
TEST(PrivacyBounds, LemmaB2ConstructionGrowsLikeSqrtN) {
  const double r = 0.7, M = 1.3;
  double prev_ratio = 0.0;
  for (long n : {2L, 5L, 17L, 65L, 257L, 1025L}) {
    const long m = n - 1;
    // Features: rows a_1..a_m, then b_m, then x0 (dimension m).
    Eigen::MatrixXd Phi = Eigen::MatrixXd::Zero(m + 2, m);
    for (long i = 0; i < m; ++i) Phi(i, i) = 1.0;
    Phi.row(m).setConstant(1.0 / std::sqrt(static_cast<double>(m)));
    const Eigen::MatrixXd G = Phi * Phi.transpose();  // the kernel on all points
    auto posterior_mean_at_b = [&](const std::vector<long>& idx, const Eigen::VectorXd& y) {
      const auto k = static_cast<Eigen::Index>(idx.size());
      Eigen::MatrixXd K(k, k);
      Eigen::VectorXd kb(k);
      for (Eigen::Index i = 0; i < k; ++i) {
        kb[i] = G(idx[i], m);
        for (Eigen::Index j = 0; j < k; ++j) K(i, j) = G(idx[i], idx[j]);
      }
      K.diagonal().array() += r * r;
      return kb.dot(K.ldlt().solve(y));
    };
    std::vector<long> core(m);
    for (long i = 0; i < m; ++i) core[i] = i;
    Eigen::VectorXd y_core = Eigen::VectorXd::Constant(m, M);
    auto idx_D = core, idx_Dp = core;
    idx_D.push_back(m);       // b_{n−1}
    idx_Dp.push_back(m + 1);  // x0
    Eigen::VectorXd yD(m + 1), yDp(m + 1);
    yD << y_core, -M;
    yDp << y_core, M;
    const double diff = posterior_mean_at_b(idx_D, yD) - posterior_mean_at_b(idx_Dp, yDp);
    // k_{D−}(b, b) = 1 − k_b ᵀ(I + r²I)⁻¹ k_b.
    Eigen::MatrixXd Kc = G.topLeftCorner(m, m);
    Kc.diagonal().array() += r * r;
    const Eigen::VectorXd kb = G.col(m).head(m);
    const double v = G(m, m) - kb.dot(Kc.ldlt().solve(kb));
    const double exact = std::abs(diff) / std::sqrt(v);
    EXPECT_NEAR(exact, sensitivity_lower_bound_b2(n, r, M), 1e-10 * exact) << "n=" << n;
    // Generic upper bound (V_n ≤ 1 for a kernel with k(x,x) ≤ 1).
    EXPECT_LE(exact, mean_sensitivity_b1(n, r, 1.0, M));
    const double ratio = exact / std::sqrt(static_cast<double>(n));
    if (n >= 257) {
      EXPECT_NEAR(ratio, prev_ratio, 0.1 * prev_ratio);  // Θ(√n)
    }
    prev_ratio = ratio;
  }
  EXPECT_GT(sensitivity_lower_bound_b2(10000, r, M) / sensitivity_lower_bound_b2(100, r, M), 8.0);
}
