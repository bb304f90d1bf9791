// Density models of the membership-inference attack (paper App. C): Gauss–Hermite rule, the
// latent tanh mixture (quadrature accuracy and maximum-likelihood recovery) and the EM mixture.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>
#include <vector>

#include "gpdp/attack/gauss_hermite.hpp"
#include "gpdp/attack/gaussian_mixture.hpp"
#include "gpdp/attack/latent_tanh_mixture.hpp"
#include "gpdp/error.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::attack {
namespace {

TEST(AttackGaussHermite, IntegratesMomentsOfTheGaussianWeight) {
  const auto& gh = gauss_hermite(20);
  ASSERT_EQ(gh.nodes.size(), 20U);
  // ∫ x^{2k} e^{−x²} dx = Γ(k + ½); exact for degree ≤ 39.
  for (int k = 0; k <= 19; ++k) {
    double sum = 0.0;
    for (std::size_t i = 0; i < gh.nodes.size(); ++i)
      sum += gh.weights[i] * std::pow(gh.nodes[i], 2 * k);
    EXPECT_NEAR(sum / std::tgamma(k + 0.5), 1.0, 1e-10) << "moment " << 2 * k;
  }
  // Known extreme node of the 5-point rule (Abramowitz & Stegun Table 25.10): 2.020182870456086.
  EXPECT_NEAR(gauss_hermite(5).nodes.back(), 2.020182870456086, 1e-12);
  EXPECT_NEAR(gauss_hermite(5).weights.back(), 0.019953242059046, 1e-12);
}

// ρ(t) by adaptive Gauss–Kronrod over φ, independent of the model's Gauss–Hermite rules.
double reference_density(const LatentTanhMixture& g, double t) {
  double total = 0.0;
  for (int j = 0; j < 2; ++j) {
    auto f = [&](double phi) {
      const double z = (t - std::tanh(phi / 2)) / g.s;
      const double w = (phi - g.m[j]) / g.tau[j];
      return std::exp(-0.5 * z * z - 0.5 * w * w) / (2 * M_PI * g.s * g.tau[j]);
    };
    total += g.weight[j] * boost::math::quadrature::gauss_kronrod<double, 61>::integrate(
                               f, g.m[j] - 12 * g.tau[j], g.m[j] + 12 * g.tau[j], 15, 1e-12);
  }
  return total;
}

TEST(AttackLatentTanhMixture, QuadratureMatchesAdaptiveIntegrationInEveryRegime) {
  struct Case {
    double w, m0, m1, t0, t1, s;
  };
  // Noise much larger than, comparable to, and much smaller than the latent spread.
  const std::vector<Case> cases{{0.3, -1.0, 2.0, 0.5, 0.8, 2.0},
                                {0.5, 0.0, 4.0, 1.0, 0.3, 0.2},
                                {0.7, -2.0, 1.0, 1.5, 2.0, 0.05},
                                {0.5, 5.0, -0.5, 0.2, 3.0, 0.01},
                                {0.4, 0.5, 0.5, 0.05, 2.5, 0.3}};
  for (const auto& c : cases) {
    LatentTanhMixture g;
    g.weight = {c.w, 1 - c.w};
    g.m = {c.m0, c.m1};
    g.tau = {c.t0, c.t1};
    g.s = c.s;
    // 0.5 % where the density is at least 1 % of its peak, 2 % in the tails beyond.
    double peak = 0.0;
    for (double t = -1.4; t <= 1.4; t += 0.05) peak = std::max(peak, reference_density(g, t));
    const LatentDensity prepared(g);
    for (double t = -1.4; t <= 1.4; t += 0.05) {
      const double ref = reference_density(g, t);
      if (ref < 1e-8) continue;
      const double tol = ref > 0.01 * peak ? 0.005 : 0.02;
      EXPECT_NEAR(std::log(prepared.density(t) / ref), 0.0, tol) << "s=" << c.s << " t=" << t;
    }
  }
}

TEST(AttackLatentTanhMixture, LogDensityIsFiniteInTheFarTails) {
  LatentTanhMixture g;
  g.s = 0.01;
  g.tau = {0.1, 0.1};
  EXPECT_TRUE(std::isfinite(g.log_density(5.0)));
  EXPECT_LT(g.log_density(5.0), g.log_density(2.0));
}

// Power: with 20000 draws the MLE's standard errors are ≈ 0.01–0.03 for these parameters, so the
// tolerances below (≥ 4 standard errors) fail a correct fit with negligible probability, while a
// fit stuck at a start or confusing components misses them by far (the seed is fixed).
TEST(AttackLatentTanhMixture, MaximumLikelihoodRecoversKnownParameters) {
  SeededRng rng(7);
  const double w = 0.35, m0 = -1.2, m1 = 1.5, t0 = 0.5, t1 = 0.4, s = 0.15;
  std::vector<double> xs;
  for (int i = 0; i < 20000; ++i) {
    const bool first = rng.uniform01() < w;
    const double phi = first ? m0 + t0 * rng.standard_normal() : m1 + t1 * rng.standard_normal();
    xs.push_back(std::tanh(phi / 2) + s * rng.standard_normal());
  }
  const LatentTanhMixture fit = fit_latent_tanh_mixture(xs);
  const int a = fit.m[0] < fit.m[1] ? 0 : 1, b = 1 - a;  // label switching
  EXPECT_NEAR(fit.weight[a], w, 0.04);
  EXPECT_NEAR(fit.m[a], m0, 0.15);
  EXPECT_NEAR(fit.m[b], m1, 0.15);
  EXPECT_NEAR(fit.tau[a], t0, 0.12);
  EXPECT_NEAR(fit.tau[b], t1, 0.12);
  EXPECT_NEAR(fit.s, s, 0.03);
}

TEST(AttackLatentTanhMixture, FitRefusesTinyOrNonFiniteSamples) {
  EXPECT_THROW(fit_latent_tanh_mixture({0.1, 0.2}), InputError);
  std::vector<double> xs(20, 0.3);
  xs[3] = NAN;
  EXPECT_THROW(fit_latent_tanh_mixture(xs), InputError);
}

// Power: 20000 draws, standard errors ≈ 0.01–0.02; tolerances are ≥ 4 of them.
TEST(AttackGaussianMixture, EmRecoversKnownParameters) {
  SeededRng rng(11);
  const double w = 0.3, m0 = -3.0, m1 = -1.0, s0 = 0.4, s1 = 0.8;
  std::vector<double> xs;
  for (int i = 0; i < 20000; ++i) {
    xs.push_back(rng.uniform01() < w ? m0 + s0 * rng.standard_normal()
                                     : m1 + s1 * rng.standard_normal());
  }
  const GaussianMixture2 g = fit_gaussian_mixture(xs);
  const int a = g.mean[0] < g.mean[1] ? 0 : 1, b = 1 - a;
  EXPECT_NEAR(g.weight[a], w, 0.03);
  EXPECT_NEAR(g.mean[a], m0, 0.06);
  EXPECT_NEAR(g.mean[b], m1, 0.06);
  EXPECT_NEAR(g.sd[a], s0, 0.05);
  EXPECT_NEAR(g.sd[b], s1, 0.05);
  // The MLE beats the truth on its own sample.
  GaussianMixture2 truth;
  truth.weight = {w, 1 - w};
  truth.mean = {m0, m1};
  truth.sd = {s0, s1};
  EXPECT_GE(g.mean_log_likelihood(xs), truth.mean_log_likelihood(xs) - 1e-9);
}

TEST(AttackGaussianMixture, DensityIntegratesToOne) {
  GaussianMixture2 g;
  g.weight = {0.2, 0.8};
  g.mean = {-1, 2};
  g.sd = {0.3, 1.1};
  const double total = boost::math::quadrature::gauss_kronrod<double, 61>::integrate(
      [&](double x) { return std::exp(g.log_density(x)); }, -20.0, 20.0, 10, 1e-12);
  EXPECT_NEAR(total, 1.0, 1e-9);
}

}  // namespace
}  // namespace gpdp::attack
