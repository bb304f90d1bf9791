// The routes of the excursion objective (search.hpp) on shared tasks: spectral, direct and hybrid
// agree up to rounding, each ℓ is served by the engine the route picks (counted as reductions or
// single-ridge fits), and kept or speculative ridges need no new reduction. The engines themselves
// are tested in test_posteriors_multi_ridge.cpp.
#include <gtest/gtest.h>

#include <cmath>

#include "gpdp/experiments/fields.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/experiments/search.hpp"
#include "support/plume_pair.hpp"

namespace gx = gpdp::experiments;

TEST(ExperimentsExcursionObjective, SpectralAndDirectRoutesAgreeIn2d) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:15,0:1:15");
  auto points = std::make_shared<const gpdp::Points>(grid.points());
  auto weights = std::make_shared<const Eigen::VectorXd>(gx::trapezoid_weights(grid));
  std::vector<gx::ExcursionTask> tasks;
  for (std::uint64_t j = 0; j < 3; ++j) {
    const auto p = gpdp::test::plume_pair(100 + j, 50, grid);
    tasks.push_back({p.X, p.y, points, weights, p.truth});
  }
  // ℓ = 0.1 has three r (the hybrid route reduces K once), ℓ = 1 two and ℓ = 4 one (one Cholesky
  // per r); the last θ is ℓ = 1 computed another way, equal up to rounding (one group with ℓ = 1).
  const std::vector<gx::Theta> thetas{
      {0.1, 0.03, 0.05}, {0.1, 0.03, 2.0},
      {0.1, 3.0, 0.5},   {0.1, 0.3, 1.0},
      {1.0, 0.3, 1.0},   {1.0, 10.0, 0.1},
      {4.0, 0.3, 20.0},  {std::pow(std::sqrt(10.0), 2) / 10.0, 0.3, 1.0}};
  ASSERT_NE(thetas[7].ell, 1.0);  // (√10)²/10 is one ulp off 1 in double arithmetic
  const gx::ExcursionObjective spectral(tasks, 0.0, 2, gx::PosteriorRoute::Spectral);
  const gx::ExcursionObjective direct(tasks, 0.0, 2, gx::PosteriorRoute::Direct);
  const gx::ExcursionObjective hybrid(tasks, 0.0, 2, gx::PosteriorRoute::Hybrid);
  const gx::ExcursionObjective automatic(tasks, 0.0, 2);
  const Eigen::MatrixXd a = spectral.evaluate(thetas);
  const Eigen::MatrixXd b = direct.evaluate(thetas);
  const Eigen::MatrixXd c = hybrid.evaluate(thetas);
  EXPECT_EQ(automatic.evaluate(thetas), c);  // Auto = Hybrid in 2-D
  for (Eigen::Index j = 0; j < a.rows(); ++j) {
    for (Eigen::Index k = 0; k < a.cols(); ++k) {
      EXPECT_NEAR(a(j, k), b(j, k), 1e-9 * (1.0 + b(j, k)));
      EXPECT_NEAR(c(j, k), b(j, k), 1e-9 * (1.0 + b(j, k)));
    }
    EXPECT_EQ(c(j, 7), c(j, 4));  // the same group: the same posterior
  }
  // Route choice per task: one reduction (ℓ = 0.1), three single-ridge Cholesky (ℓ = 1: two r,
  // ℓ = 4: one r); the spectral route decomposes each of the three ℓ once.
  const auto n_tasks = static_cast<long>(tasks.size());
  EXPECT_EQ(hybrid.reductions(), n_tasks);
  EXPECT_EQ(hybrid.single_ridge_fits(), 3 * n_tasks);
  EXPECT_EQ(spectral.reductions(), 3 * n_tasks);
  EXPECT_EQ(spectral.single_ridge_fits(), 0);
}

TEST(ExperimentsExcursionObjective, KeptAndSpeculativeRidgesNeedNoNewReduction) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:12,0:1:12");
  auto points = std::make_shared<const gpdp::Points>(grid.points());
  auto weights = std::make_shared<const Eigen::VectorXd>(gx::trapezoid_weights(grid));
  std::vector<gx::ExcursionTask> tasks;
  for (std::uint64_t j = 0; j < 2; ++j) {
    const auto p = gpdp::test::plume_pair(200 + j, 40, grid);
    tasks.push_back({p.X, p.y, points, weights, p.truth});
  }
  const gx::ExcursionObjective keeping(tasks, 0.0, 2, gx::PosteriorRoute::Hybrid);
  const gx::ExcursionObjective fresh(tasks, 0.0, 2, gx::PosteriorRoute::Hybrid);
  // Round A asks for three r at ℓ = 0.3 (one reduction per task) and speculates two more r there,
  // plus one at an ℓ that is not reduced (ignored: speculation only rides along).
  const std::vector<gx::Theta> round_a{{0.3, 0.1, 1.0}, {0.3, 1.0, 1.0}, {0.3, 10.0, 0.5}};
  const std::vector<std::pair<double, double>> speculative{{0.3, 0.2}, {0.3, 3.0}, {2.0, 0.5}};
  keeping.evaluate(round_a, speculative, true);
  EXPECT_EQ(keeping.reductions(), 2);
  EXPECT_EQ(keeping.kept(), 2 * 5);
  // Round B: kept (ℓ, r) at new σ, and the speculated r: no new reduction, the values of a fresh
  // computation (up to rounding: another exact route may serve them there).
  const std::vector<gx::Theta> round_b{{0.3, 0.2, 2.0}, {0.3, 3.0, 0.1}, {0.3, 0.1, 0.25}};
  const Eigen::MatrixXd b = keeping.evaluate(round_b);
  EXPECT_EQ(keeping.reductions(), 2);
  EXPECT_EQ(keeping.single_ridge_fits(), 0);
  const Eigen::MatrixXd b_fresh = fresh.evaluate(round_b);
  EXPECT_EQ(fresh.reductions(), 2);  // the fresh objective had to reduce ℓ = 0.3
  for (Eigen::Index j = 0; j < b.rows(); ++j) {
    for (Eigen::Index k = 0; k < b.cols(); ++k)
      EXPECT_NEAR(b(j, k), b_fresh(j, k), 1e-10 * (1.0 + b_fresh(j, k)));
  }
  // An r neither kept nor speculated: a new fit (one Cholesky per task for a single r).
  keeping.evaluate({{0.3, 0.7, 1.0}});
  EXPECT_EQ(keeping.single_ridge_fits(), 2);
  keeping.forget();
  EXPECT_EQ(keeping.kept(), 0);
  keeping.evaluate(round_b);  // nothing kept any more: ℓ = 0.3 is reduced again
  EXPECT_EQ(keeping.reductions(), 4);
}
