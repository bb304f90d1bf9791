// The logistic model's fast evaluation (fused pass; sparse row storage for one-hot data, dense
// column storage otherwise) agrees with the definition ℓ = −log(1 + e^{−θᵀz}) evaluated record by
// record here, for the value, the gradient (with and without the value), minibatch gradients and
// the Hessian; and the gradient matches finite differences of the value.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gpdp/ops/logistic.hpp"
#include "gpdp/ops/tempered_posterior.hpp"
#include "gpdp/rng.hpp"

namespace {

using gpdp::ops::LogisticModel;

// One-hot style rows: a bias, one continuous value and one level out of `levels` per block,
// scaled to norm ≤ 1 — mostly zeros, like UCI Adult.
void one_hot_rows(int n, int blocks, int levels, gpdp::Rng& rng, Eigen::MatrixXd& x,
                  Eigen::VectorXd& y) {
  const int d = 2 + blocks * levels;
  x = Eigen::MatrixXd::Zero(n, d);
  y.resize(n);
  for (int i = 0; i < n; ++i) {
    x(i, 0) = 1.0;
    x(i, 1) = 2.0 * rng.uniform01() - 1.0;
    for (int b = 0; b < blocks; ++b) {
      const int level = static_cast<int>(rng.uniform01() * levels) % levels;
      x(i, 2 + b * levels + level) = 1.0;
    }
    x.row(i) /= std::max(1.0, x.row(i).norm());
    y(i) = rng.uniform01() < 0.5 ? 1.0 : -1.0;
  }
}

struct Reference {
  double value = 0.0;
  Eigen::VectorXd grad;
  Eigen::MatrixXd hess;
};

// Written from the formulas, record by record, in long double.
Reference reference(const Eigen::MatrixXd& x, const Eigen::VectorXd& y, const Eigen::VectorXd& th) {
  Reference r{0.0, Eigen::VectorXd::Zero(x.cols()), Eigen::MatrixXd::Zero(x.cols(), x.cols())};
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    const Eigen::VectorXd z = y(i) * x.row(i).transpose();
    const long double m = z.dot(th);
    r.value -= static_cast<double>(std::log1p(std::exp(-m)));
    const double s = static_cast<double>(1.0L / (1.0L + std::exp(m)));  // σ(−m)
    r.grad += s * z;
    r.hess -= s * (1.0 - s) * z * z.transpose();
  }
  return r;
}

void check_against_reference(const LogisticModel& model, const Eigen::MatrixXd& x,
                             const Eigen::VectorXd& y, gpdp::Rng& rng) {
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd th(model.dim());
    rng.fill_standard_normal(th.data(), static_cast<std::size_t>(th.size()));
    th *= (0.5 + trial) / th.norm();  // norms 0.5 .. 4.5, also beyond the ball (smooth extension)
    const Reference ref = reference(x, y, th);
    Eigen::VectorXd g;
    const double v = model.log_likelihood(th, &g);
    const double scale = static_cast<double>(x.rows());
    EXPECT_NEAR(v, ref.value, 1e-12 * scale);
    EXPECT_LT((g - ref.grad).cwiseAbs().maxCoeff(), 1e-12 * scale);
    EXPECT_LT((model.log_likelihood_gradient(th) - g).cwiseAbs().maxCoeff(), 1e-12 * scale);
    EXPECT_LT((model.log_likelihood_hessian(th) - ref.hess).cwiseAbs().maxCoeff(), 1e-12 * scale);
    // Minibatch gradient over records {0, 3, 3, 7} (repeats allowed by the interface).
    const std::vector<Eigen::Index> batch = {0, 3, 3, 7};
    Eigen::VectorXd gb = Eigen::VectorXd::Zero(model.dim());
    for (const Eigen::Index i : batch) {
      const Eigen::VectorXd z = y(i) * x.row(i).transpose();
      gb += z / (1.0 + std::exp(z.dot(th)));
    }
    EXPECT_LT((model.batch_gradient(th, batch) - gb).cwiseAbs().maxCoeff(), 1e-13);
    // Central finite differences of the value (h = 1e-5: error O(h²·N) ≪ 1e-4).
    for (Eigen::Index j = 0; j < model.dim(); j += 3) {
      Eigen::VectorXd tp = th, tm = th;
      tp(j) += 1e-5;
      tm(j) -= 1e-5;
      EXPECT_NEAR((model.log_likelihood(tp, nullptr) - model.log_likelihood(tm, nullptr)) / 2e-5,
                  g(j), 1e-4);
    }
  }
}

TEST(OpsModel, SparseStorageMatchesDefinition) {
  gpdp::SeededRng rng(11);
  Eigen::MatrixXd x;
  Eigen::VectorXd y;
  one_hot_rows(500, 4, 6, rng, x, y);  // d = 26, 6 non-zeros per row: 23 % dense
  const LogisticModel model(x, y, 2.0);
  ASSERT_TRUE(model.uses_sparse_storage());
  check_against_reference(model, x, y, rng);
}

TEST(OpsModel, DenseStorageMatchesDefinition) {
  gpdp::SeededRng rng(12);
  Eigen::MatrixXd x(400, 7);
  rng.fill_standard_normal(x.data(), static_cast<std::size_t>(x.size()));
  for (Eigen::Index i = 0; i < x.rows(); ++i) x.row(i) /= std::max(1.0, x.row(i).norm());
  Eigen::VectorXd y(400);
  for (Eigen::Index i = 0; i < y.size(); ++i) y(i) = rng.uniform01() < 0.3 ? 1.0 : -1.0;
  const LogisticModel model(x, y, 3.0);
  ASSERT_FALSE(model.uses_sparse_storage());
  check_against_reference(model, x, y, rng);
}

TEST(OpsModel, TemperedGradientMatchesLogDensityGradient) {
  gpdp::SeededRng rng(13);
  Eigen::MatrixXd x;
  Eigen::VectorXd y;
  one_hot_rows(300, 3, 5, rng, x, y);
  const LogisticModel model(x, y, 2.0);
  const gpdp::ops::TemperedPosterior target(model, 0.3, 1.5);
  Eigen::VectorXd th = Eigen::VectorXd::LinSpaced(model.dim(), -0.2, 0.3);
  Eigen::VectorXd g;
  target.log_density(th, &g);
  EXPECT_LT((target.gradient(th) - g).cwiseAbs().maxCoeff(), 1e-12);
}

}  // namespace

namespace {

// The restricted mode used for the HMC metric satisfies the KKT conditions of max log p on the
// ball: on the sphere with ∇log p(θ*) = μθ* (μ > 0) when the unconstrained mode is outside, and
// unchanged (μ = 0) when it is inside.
TEST(OpsModel, ConstrainedModeSatisfiesKkt) {
  gpdp::SeededRng rng(14);
  Eigen::MatrixXd x;
  Eigen::VectorXd y;
  one_hot_rows(400, 3, 4, rng, x, y);
  for (Eigen::Index i = 0; i < y.size(); ++i) y(i) = x(i, 1) > 0 ? 1.0 : -1.0;  // separable by θ_1
  const LogisticModel model(x, y, 1.0);
  const gpdp::ops::TemperedPosterior hot(model, 1.0, 10.0);  // unconstrained mode far outside
  const auto m = hot.constrained_mode();
  EXPECT_NEAR(m.theta.norm(), 1.0, 1e-9);
  EXPECT_GT(m.multiplier, 0.0);
  Eigen::VectorXd g;
  hot.log_density(m.theta, &g);
  EXPECT_LT((g - m.multiplier * m.theta).norm(), 1e-4 * g.norm());
  EXPECT_NEAR(m.boundary_slope, g.norm(), 1e-4 * g.norm());
  const gpdp::ops::TemperedPosterior cold(model, 0.001, 0.1);  // mode well inside
  const auto c = cold.constrained_mode();
  EXPECT_LT(c.theta.norm(), 1.0);
  EXPECT_EQ(c.multiplier, 0.0);
  cold.log_density(c.theta, &g);
  EXPECT_LT(g.norm(), 1e-6);
}

}  // namespace
