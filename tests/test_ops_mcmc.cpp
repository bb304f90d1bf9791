// The OPS sampler (HMC restricted to the ball) targets the tempered posterior: compared with
// posteriors computed by quadrature in 1-D and 2-D, including a case with most mass near the
// boundary of the ball. Plus the R̂ / ESS diagnostics.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gpdp/ops/diagnostics.hpp"
#include "gpdp/ops/hmc.hpp"
#include "gpdp/ops/logistic.hpp"
#include "gpdp/ops/one_posterior_sample.hpp"
#include "gpdp/ops/tempered_posterior.hpp"
#include "gpdp/rng.hpp"

namespace {

using gpdp::ops::LogisticModel;

// Quadrature moments of p(θ) ∝ exp(ρΣℓ − ‖θ‖²/2sd²) on the disk/interval ‖θ‖ ≤ R, written here from
// the formulas (not with the library's log density).
struct Moments {
  Eigen::VectorXd mean;
  Eigen::MatrixXd cov;
  double p_outer;  // P(‖θ‖ > 0.9 R)
};

double log_target(const Eigen::MatrixXd& z, double rho, double sd, const Eigen::VectorXd& th) {
  double s = 0.0;
  for (Eigen::Index i = 0; i < z.rows(); ++i) s -= std::log1p(std::exp(-z.row(i).dot(th)));
  return rho * s - 0.5 * th.squaredNorm() / (sd * sd);
}

Moments quadrature(const Eigen::MatrixXd& z, double rho, double sd, double radius) {
  const int d = static_cast<int>(z.cols());
  const int m = d == 1 ? 20001 : 601;
  const double h = 2.0 * radius / (m - 1);
  std::vector<Eigen::VectorXd> pts;
  std::vector<double> lw;
  double mx = -1e300;
  auto add = [&](const Eigen::VectorXd& th) {
    if (th.norm() > radius) return;
    pts.push_back(th);
    lw.push_back(log_target(z, rho, sd, th));
    mx = std::max(mx, lw.back());
  };
  for (int a = 0; a < m; ++a) {
    if (d == 1) {
      add(Eigen::VectorXd::Constant(1, -radius + a * h));
    } else {
      for (int b = 0; b < m; ++b) add(Eigen::Vector2d(-radius + a * h, -radius + b * h));
    }
  }
  Moments mo{Eigen::VectorXd::Zero(d), Eigen::MatrixXd::Zero(d, d), 0.0};
  double total = 0.0;
  for (std::size_t k = 0; k < pts.size(); ++k) {
    const double w = std::exp(lw[k] - mx);
    total += w;
    mo.mean += w * pts[k];
    mo.cov += w * pts[k] * pts[k].transpose();
    if (pts[k].norm() > 0.9 * radius) mo.p_outer += w;
  }
  mo.mean /= total;
  mo.cov = mo.cov / total - mo.mean * mo.mean.transpose();
  mo.p_outer /= total;
  return mo;
}

void compare(const LogisticModel& model, double rho, double sd, std::uint64_t seed) {
  const Moments q = quadrature(model.signed_features(), rho, sd, model.radius());
  const gpdp::ops::TemperedPosterior target(model, rho, sd);
  gpdp::ops::HmcOptions o;
  o.chains = 4;
  o.warmup = 300;
  o.samples = 2500;
  gpdp::SeededRng rng(seed);
  const auto run = gpdp::ops::hmc_sample(target, o, rng);
  EXPECT_LT(run.diagnostics.max_rhat, 1.02);
  const double ess = run.diagnostics.min_ess;
  ASSERT_GT(ess, 500.0);
  const int d = static_cast<int>(model.dim());
  Eigen::VectorXd mean = Eigen::VectorXd::Zero(d);
  Eigen::MatrixXd second = Eigen::MatrixXd::Zero(d, d);
  double outer = 0.0, count = 0.0;
  for (const auto& c : run.draws) {
    for (Eigen::Index t = 0; t < c.rows(); ++t) {
      const Eigen::VectorXd th = c.row(t).transpose();
      ASSERT_LE(th.norm(), model.radius() * (1 + 1e-12));  // never leaves the ball
      mean += th;
      second += th * th.transpose();
      outer += th.norm() > 0.9 * model.radius() ? 1.0 : 0.0;
      count += 1.0;
    }
  }
  mean /= count;
  const Eigen::MatrixXd cov = second / count - mean * mean.transpose();
  outer /= count;
  // 5 Monte-Carlo standard errors with the chains' ESS (false alarm < 1e-5 per quantity if the
  // sampler is exact and the ESS estimate is right).
  for (int j = 0; j < d; ++j) {
    const double sdj = std::sqrt(q.cov(j, j));
    EXPECT_NEAR(mean(j), q.mean(j), 5.0 * sdj / std::sqrt(ess)) << "mean " << j;
    EXPECT_NEAR(cov(j, j), q.cov(j, j), 5.0 * q.cov(j, j) * std::sqrt(2.0 / ess)) << "var " << j;
  }
  EXPECT_NEAR(outer, q.p_outer, 5.0 * std::sqrt(q.p_outer * (1 - q.p_outer) / ess) + 1e-3);
}

Eigen::MatrixXd features(int n, int d, std::uint64_t seed, double shift) {
  gpdp::SeededRng rng(seed);
  Eigen::MatrixXd x(n, d);
  for (int i = 0; i < n; ++i) {
    Eigen::VectorXd v(d);
    rng.fill_standard_normal(v.data(), static_cast<std::size_t>(d));
    v.array() += shift;
    x.row(i) = (v / std::max(1.0, v.norm())).transpose();
  }
  return x;
}

TEST(OpsMcmc, OneDimensionalMatchesQuadrature) {
  const Eigen::MatrixXd x = features(25, 1, 1, 0.3);
  Eigen::VectorXd y = Eigen::VectorXd::Ones(25);
  y.head(8).setConstant(-1.0);
  compare(LogisticModel(x, y, 3.0), 0.5, 1.0, 100);
}

// Separable data: the unconstrained posterior would sit far outside ‖θ‖ ≤ 1, so most mass lies
// near the boundary; wrong boundary handling (e.g. projection, reflection without correction)
// distorts P(‖θ‖ > 0.9R).
TEST(OpsMcmc, TwoDimensionalWithMassAtTheBoundary) {
  const Eigen::MatrixXd x = features(60, 2, 2, 0.8);
  const Eigen::VectorXd y = Eigen::VectorXd::Ones(60);
  const LogisticModel model(x, y, 1.0);
  const Moments q = quadrature(model.signed_features(), 1.0, 3.0, 1.0);
  ASSERT_GT(q.p_outer, 0.3);  // the case is really about the boundary
  compare(model, 1.0, 3.0, 200);
}

TEST(OpsMcmc, TwoDimensionalInterior) {
  const Eigen::MatrixXd x = features(80, 2, 3, 0.0);
  gpdp::SeededRng rng(4);
  Eigen::VectorXd y(80);
  for (int i = 0; i < 80; ++i)
    y(i) = rng.uniform01() < 1.0 / (1.0 + std::exp(-2.0 * x(i, 0) + x(i, 1))) ? 1.0 : -1.0;
  compare(LogisticModel(x, y, 4.0), 0.7, 1.5, 300);
}

TEST(OpsMcmc, DiagnosticsFlagDisagreeingChains) {
  gpdp::SeededRng rng(5);
  std::vector<Eigen::VectorXd> iid, shifted;
  for (int c = 0; c < 4; ++c) {
    Eigen::VectorXd v(1000);
    rng.fill_standard_normal(v.data(), 1000);
    iid.push_back(v);
    shifted.push_back(v.array() + (c == 0 ? 3.0 : 0.0));
  }
  EXPECT_LT(gpdp::ops::split_rhat(iid), 1.01);
  EXPECT_GT(gpdp::ops::split_rhat(shifted), 1.1);
  const double ess = gpdp::ops::effective_sample_size(iid);
  EXPECT_GT(ess, 3000.0);
  EXPECT_LT(ess, 5000.0);
  // AR(1) with φ = 0.9: integrated autocorrelation time (1+φ)/(1−φ) = 19.
  std::vector<Eigen::VectorXd> ar;
  for (int c = 0; c < 4; ++c) {
    Eigen::VectorXd v(20000);
    double s = 0.0;
    for (Eigen::Index t = 0; t < v.size(); ++t)
      v(t) = s = 0.9 * s + std::sqrt(1 - 0.81) * rng.standard_normal();
    ar.push_back(v);
  }
  EXPECT_NEAR(gpdp::ops::effective_sample_size(ar), 80000.0 / 19.0, 0.2 * 80000.0 / 19.0);
}

// OPS releases the final state of a chain on the ball, with ρ = ε/(4B).
TEST(OpsMcmc, OnePosteriorSampleTemperatureAndRelease) {
  const Eigen::MatrixXd x = features(50, 2, 6, 0.2);
  const LogisticModel model(x, Eigen::VectorXd::Ones(50), 2.0);
  gpdp::ops::OpsOptions o;
  o.hmc.chains = 2;
  o.hmc.samples = 50;
  gpdp::SeededRng rng(1);
  const auto r = gpdp::ops::one_posterior_sample(model, 1.0, o, rng);
  EXPECT_DOUBLE_EQ(r.rho, 1.0 / (4.0 * std::log1p(std::exp(2.0))));
  EXPECT_DOUBLE_EQ(r.guarantee.epsilon, 1.0);
  EXPECT_EQ(r.guarantee.delta, 0.0);
  EXPECT_LE(r.theta.norm(), 2.0);
  EXPECT_NE(r.guarantee.basis.find("nominal"), std::string::npos);
}

}  // namespace
