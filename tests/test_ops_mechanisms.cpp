// DP-SGLD, objective and output perturbation (spec ops-sgld-spec.md §3–4).
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <vector>

#include "gpdp/ops/calibration.hpp"
#include "gpdp/ops/dpsgld.hpp"
#include "gpdp/ops/erm.hpp"
#include "gpdp/ops/logistic.hpp"
#include "gpdp/rng.hpp"

namespace {

using gpdp::ops::LogisticModel;

LogisticModel random_model(int n, int d, double radius, std::uint64_t seed) {
  gpdp::SeededRng rng(seed);
  Eigen::MatrixXd x(n, d);
  Eigen::VectorXd y(n), w(d);
  rng.fill_standard_normal(w.data(), static_cast<std::size_t>(d));
  for (int i = 0; i < n; ++i) {
    Eigen::VectorXd v(d);
    rng.fill_standard_normal(v.data(), static_cast<std::size_t>(d));
    v /= std::max(1.0, v.norm());
    x.row(i) = v.transpose();
    y(i) = rng.uniform01() < 1.0 / (1.0 + std::exp(-3.0 * w.dot(v))) ? 1.0 : -1.0;
  }
  return LogisticModel(x, y, radius);
}

// Spec §3.2 "for free": when η_t ≤ τ/(Nα) for all t, Algorithm 2 injects exactly the Langevin noise
// and is plain SGLD — same seed, same iterates, bit for bit.
TEST(OpsDpSgld, ReducesToPlainSgldBelowFreeStepsize) {
  const LogisticModel model = random_model(400, 3, 5.0, 1);
  gpdp::ops::DpSgldOptions o;
  o.delta = 1e-4;
  o.passes = 2.0;
  o.sgld.tau = 20;
  const double alpha = gpdp::ops::dpsgld_alpha(1.0, o.passes, 1.0, o.delta);
  const double free = gpdp::ops::dpsgld_free_stepsize(400, alpha, 20);
  EXPECT_DOUBLE_EQ(free, 20.0 / (400.0 * alpha));
  o.sgld.steps = {free * (1 - 1e-9), 5.0, 0.5};  // η_0 just below τ/(Nα), decreasing
  const Eigen::VectorXd init = Eigen::VectorXd::Constant(3, 0.1);
  gpdp::SeededRng r1(77), r2(77);
  const auto dp = gpdp::ops::dp_sgld(model, 1.0, init, o, r1);
  EXPECT_EQ(dp.run.extra_noise_steps, 0);
  EXPECT_EQ(dp.run.iterations, 40);  // N·T/τ
  gpdp::ops::SgldOptions plain = o.sgld;
  plain.iterations = dp.run.iterations;
  const auto sg = gpdp::ops::sgld(model, init, plain, r2);
  EXPECT_EQ(dp.run.last, sg.last);
  EXPECT_EQ(dp.run.average, sg.average);

  // Ten times the free step: every step adds privacy noise and the runs differ.
  o.sgld.steps.eta0 = 10.0 * free;
  plain.steps.eta0 = 10.0 * free;
  gpdp::SeededRng r3(77), r4(77);
  const auto dp2 = gpdp::ops::dp_sgld(model, 1.0, init, o, r3);
  const auto sg2 = gpdp::ops::sgld(model, init, plain, r4);
  EXPECT_GT(dp2.run.extra_noise_steps, 0);
  EXPECT_NE(dp2.run.last, sg2.last);
}

// The injected increment has variance max{η, Nαη²/τ} per coordinate: the drift is removed by
// replaying the same random stream with zero noise (same minibatch), leaving the noise alone.
// 5-standard-error tolerance on a variance estimate from 8000 normals (false alarm < 1e-6).
TEST(OpsDpSgld, ExtraNoiseVarianceFollowsMaxRule) {
  const LogisticModel model = random_model(100, 2, 50.0, 2);
  const double n = 100, tau = 10, alpha = 5.0, eta = 0.01;  // Nαη²/τ = 5e-3 < η: Langevin noise
  const double eta_big = 1.0;                               // Nαη²/τ = 50 > η
  for (const double e : {eta, eta_big}) {
    const double var = gpdp::ops::dpsgld_noise_variance(e, n, alpha, tau);
    gpdp::SeededRng rng(5);
    double s2 = 0.0;
    const int reps = 4000;
    std::vector<Eigen::Index> scratch(100);
    for (int k = 0; k < 100; ++k) scratch[static_cast<std::size_t>(k)] = k;
    for (int r = 0; r < reps; ++r) {
      Eigen::VectorXd th = Eigen::VectorXd::Zero(2);
      gpdp::SeededRng probe = rng;  // replays the same minibatch
      std::vector<Eigen::Index> scratch_copy = scratch;
      gpdp::ops::sgld_step(model, 1e12, static_cast<Eigen::Index>(tau), e, var, th, scratch, rng);
      Eigen::VectorXd drift = Eigen::VectorXd::Zero(2);
      gpdp::ops::sgld_step(model, 1e12, static_cast<Eigen::Index>(tau), e, 0.0, drift, scratch_copy,
                           probe);
      s2 += (th - drift).squaredNorm();
    }
    EXPECT_NEAR(s2 / (2.0 * reps), var, 5.0 * var * std::sqrt(2.0 / (2.0 * reps)));  // 5 s.e.
  }
}

// Kolmogorov–Smirnov distance of a sample from the CDF.
double ks_statistic(std::vector<double> v, const std::function<double(double)>& cdf) {
  std::sort(v.begin(), v.end());
  double d = 0.0;
  const double n = static_cast<double>(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double f = cdf(v[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}

// CMS 2011 Algorithm 2 step 3: ‖b‖ ~ Gamma(d, 2/ε'). KS test on 1500 releases of a small problem at
// the 1 % level (critical value 1.628/√n): false-alarm rate 1 % for a fixed seed, i.e. this seed
// either passes always or never. A Gamma(d+1, ·) or Gamma(d, 1.1·scale) would be rejected with
// power > 0.99 at this n (checked below on the same draws).
TEST(OpsObjPert, NoiseNormsFollowGammaDTwoOverEpsPrime) {
  const int d = 4, n = 60, reps = 1500;
  const LogisticModel model = random_model(n, d, 1.0, 3);
  const double eps = 2.0, lambda = 0.05;
  const double eps_prime = eps - 2.0 * std::log(1.0 + 0.25 / (n * lambda));  // CMS step 1
  ASSERT_GT(eps_prime, 0.0);
  const double scale = 2.0 / eps_prime;
  gpdp::SeededRng rng(99);
  std::vector<double> norms;
  for (int r = 0; r < reps; ++r)
    norms.push_back(gpdp::ops::objective_perturbation(model, eps, lambda, rng).noise_norm);
  const double crit = 1.628 / std::sqrt(static_cast<double>(reps));
  auto gamma_cdf = [](double shape, double sc) {
    return [shape, sc](double x) { return boost::math::gamma_p(shape, x / sc); };
  };
  EXPECT_LT(ks_statistic(norms, gamma_cdf(d, scale)), crit);
  EXPECT_GT(ks_statistic(norms, gamma_cdf(d + 1, scale)), crit);
  EXPECT_GT(ks_statistic(norms, gamma_cdf(d, 1.15 * scale)), crit);
}

TEST(OpsObjPert, NoiseDirectionIsUniform) {
  gpdp::SeededRng rng(8);
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(3);
  const int reps = 20000;
  for (int r = 0; r < reps; ++r) mean += gpdp::ops::gamma_norm_noise(rng, 3, 1.0).normalized();
  mean /= reps;
  // Each coordinate of a uniform unit vector in R³ has variance 1/3: 5 s.e. per coordinate.
  EXPECT_LT(mean.cwiseAbs().maxCoeff(), 5.0 * std::sqrt(1.0 / 3.0 / reps));
}

// The perturbed ERM is solved exactly: the gradient of J(f) + bᵀf/n + (Δ/2)‖f‖², computed here
// independently, vanishes at the returned f.
TEST(OpsObjPert, MinimiserIsExact) {
  const int n = 300, d = 5;
  const LogisticModel model = random_model(n, d, 1.0, 4);
  const Eigen::MatrixXd& z = model.signed_features();
  Eigen::VectorXd b(d);
  b << 3.0, -1.0, 0.5, 7.0, -2.0;
  const double lambda = 1e-3, extra = 2e-3;
  const Eigen::VectorXd f = gpdp::ops::regularised_logistic_erm(model, lambda, b, extra);
  Eigen::VectorXd g = (lambda + extra) * f + b / n;
  for (int i = 0; i < n; ++i) g -= z.row(i).transpose() / (1.0 + std::exp(z.row(i).dot(f))) / n;
  EXPECT_LT(g.norm(), 1e-9);
}

TEST(OpsOutPert, NoiseNormMeanMatchesScale) {
  const int n = 200, d = 3;
  const LogisticModel model = random_model(n, d, 1.0, 6);
  const double eps = 1.0, lambda = 0.01;
  gpdp::SeededRng rng(10);
  double mean = 0.0;
  const int reps = 3000;
  for (int r = 0; r < reps; ++r)
    mean += gpdp::ops::output_perturbation(model, eps, lambda, rng).noise_norm;
  mean /= reps;
  const double scale =
      2.0 / (n * lambda * eps);  // CMS Algorithm 1: Gamma(d, 2/(nΛε)), mean d·scale
  EXPECT_NEAR(mean, d * scale, 5.0 * std::sqrt(d) * scale / std::sqrt(reps));
}

}  // namespace
