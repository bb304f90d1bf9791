// The posterior formulas of docs/mathematics.md §1 against direct dense linear algebra.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/rng.hpp"

namespace gpdp {
namespace {

TEST(Posterior, MatchesDirectFormulasWithDuplicateCovariates) {
  SeededRng rng(1);
  Points x(6, 2);
  for (int i = 0; i < 6; ++i) x.row(i) << rng.uniform01(), rng.uniform01();
  x.row(5) = x.row(2);  // duplicate covariate
  Eigen::VectorXd y(6);
  for (int i = 0; i < 6; ++i) y[i] = rng.standard_normal();
  const auto kern = Kernel::matern52(0.4);
  const double r = 0.3, sigma = 1.7;
  const Posterior post(kern, x, y, {r, sigma});

  Points xs(4, 2);
  xs << 0.1, 0.2, 0.9, 0.9, 0.5, 0.5, 0, 0;
  xs.row(3) = x.row(0);
  const Eigen::MatrixXd kreg = kern.gram(x) + r * r * Eigen::MatrixXd::Identity(6, 6);
  const Eigen::MatrixXd inv = kreg.inverse();
  const Eigen::MatrixXd ks = kern.cross(xs, x);
  const Eigen::VectorXd mu = ks * inv * y;
  const Eigen::MatrixXd cov = sigma * sigma * (kern.gram(xs) - ks * inv * ks.transpose());
  EXPECT_TRUE(post.mean(xs).isApprox(mu, 1e-12));
  EXPECT_TRUE(post.covariance(xs).isApprox(cov, 1e-12));
  EXPECT_TRUE(post.variance(xs).isApprox(cov.diagonal(), 1e-12));
  EXPECT_TRUE(post.cross_covariance(xs, xs).isApprox(cov, 1e-12));
  EXPECT_NEAR(post.effective_dimension(), (kern.gram(x) * inv).trace(), 1e-12);

  const auto p = post.excursion_probability(xs, 0.25);
  for (int i = 0; i < 4; ++i) {
    EXPECT_NEAR(p[i], 0.5 * std::erfc(-(mu[i] - 0.25) / std::sqrt(2 * cov(i, i))), 1e-12);
  }
}

TEST(Posterior, RejectsBadHyperparameters) {
  Points x(1, 1);
  x << 0.5;
  Eigen::VectorXd y(1);
  y << 1.0;
  EXPECT_THROW(Posterior(Kernel::exponential(1), x, y, {0.0, 1.0}), InputError);
  EXPECT_THROW(Posterior(Kernel::exponential(1), x, y, {1.0, -1.0}), InputError);
  EXPECT_THROW(Posterior(Kernel::exponential(1), x, Eigen::VectorXd(2), {1.0, 1.0}), InputError);
}

}  // namespace
}  // namespace gpdp
