// The fast routes of the excursion search against the Posterior class (Cholesky in 2-D, Markov
// engine in 1-D) and a hand-computed n = 1 case: the spectral route (one eigendecomposition per ℓ
// serving every r), the tridiagonal reduction (same, cheaper per ℓ) and the single-ridge Cholesky
// on shared distances, and the hybrid objective that picks between the last two.
#include <gtest/gtest.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/experiments/fields.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/experiments/ridge_cholesky.hpp"
#include "gpdp/experiments/search.hpp"
#include "gpdp/experiments/spectral_posterior.hpp"
#include "gpdp/experiments/tridiagonal_posterior.hpp"
#include "gpdp/posterior.hpp"

namespace gx = gpdp::experiments;

namespace {
gx::ExcursionPair plume_pair(std::uint64_t seed, long n, const gpdp::Grid& grid) {
  gpdp::SeededRng rng(seed);
  gx::Plume2dSpec spec;
  spec.n = n;
  return gx::generate_plume_2d(spec, grid, rng);
}
}  // namespace

TEST(ExperimentsSpectralPosterior, OnePointByHand) {
  // n = 1, K = [1]: μ(x) = k(x, x₁) y / (1 + r²), k_D(x, x) = 1 − k(x, x₁)² / (1 + r²).
  gpdp::Points X(1, 2);
  X << 0.2, 0.3;
  const Eigen::VectorXd y = Eigen::VectorXd::Constant(1, 0.8);
  gpdp::Points xs(2, 2);
  xs << 0.2, 0.3, 0.5, 0.7;  // distances 0 and 0.5
  const gx::SpectralPosterior post(gpdp::Kernel::exponential(0.5), X, y, xs);
  const double r = 0.5;
  const double k1 = std::exp(-0.5 / 0.5);
  const Eigen::VectorXd mu = post.mean(r);
  const Eigen::VectorXd var = post.variance(r);
  EXPECT_NEAR(mu[0], 0.8 / 1.25, 1e-15);
  EXPECT_NEAR(mu[1], k1 * 0.8 / 1.25, 1e-15);
  EXPECT_NEAR(var[0], 1.0 - 1.0 / 1.25, 1e-15);
  EXPECT_NEAR(var[1], 1.0 - k1 * k1 / 1.25, 1e-15);
  EXPECT_NEAR(post.effective_dimension(r), 1.0 / 1.25, 1e-15);
  EXPECT_NEAR(post.excursion_z(r, 0.1)[0], (0.64 - 0.1) / std::sqrt(0.2), 1e-14);
}

TEST(ExperimentsSpectralPosterior, MatchesTheCholeskyPosteriorIn2d) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:12,0:1:10");
  const auto pair = plume_pair(7, 60, grid);
  const gpdp::Points xs = grid.points();
  for (const double ell : {0.05, 0.5, 5.0}) {
    const gpdp::Kernel k = gpdp::Kernel::exponential(ell);
    const gx::SpectralPosterior fast(k, pair.X, pair.y, xs);
    const gx::SpectralPosterior shared(k, gx::PairwiseDistances(pair.X, xs), pair.y);
    for (const double r : {0.01, 0.1, 1.0, 30.0}) {
      EXPECT_LT((shared.mean(r) - fast.mean(r)).cwiseAbs().maxCoeff(), 1e-11);
      EXPECT_LT((shared.variance(r) - fast.variance(r)).cwiseAbs().maxCoeff(), 1e-11);
      const gpdp::Posterior dense(k, pair.X, pair.y, {r, 1.0});
      EXPECT_LT((fast.mean(r) - dense.mean(xs)).cwiseAbs().maxCoeff(), 1e-10)
          << "ℓ " << ell << " r " << r;
      EXPECT_LT((fast.variance(r) - dense.variance(xs)).cwiseAbs().maxCoeff(), 1e-10)
          << "ℓ " << ell << " r " << r;
      EXPECT_NEAR(fast.effective_dimension(r), dense.effective_dimension(),
                  1e-9 * static_cast<double>(pair.X.rows()));
    }
  }
}

TEST(ExperimentsTridiagonalPosterior, OnePointByHand) {
  // n = 1 (T = K = [1], no off-diagonal): the same closed form as above.
  gpdp::Points X(1, 2);
  X << 0.2, 0.3;
  const Eigen::VectorXd y = Eigen::VectorXd::Constant(1, 0.8);
  gpdp::Points xs(2, 2);
  xs << 0.2, 0.3, 0.5, 0.7;
  gx::TridiagonalPosterior post;
  post.refit(gpdp::Kernel::exponential(0.5), gx::PairwiseDistances(X, xs), y);
  gx::RidgeCholesky ridge;
  ridge.refit(gpdp::Kernel::exponential(0.5), gx::PairwiseDistances(X, xs));
  const double k1 = std::exp(-1.0);
  Eigen::VectorXd mu;
  Eigen::VectorXd var;
  ridge.posterior(0.5, y, mu, var);
  for (const auto& [m, v] : {std::pair{post.mean(0.5), post.variance(0.5)}, std::pair{mu, var}}) {
    EXPECT_NEAR(m[0], 0.8 / 1.25, 1e-15);
    EXPECT_NEAR(m[1], k1 * 0.8 / 1.25, 1e-15);
    EXPECT_NEAR(v[0], 1.0 - 1.0 / 1.25, 1e-15);
    EXPECT_NEAR(v[1], 1.0 - k1 * k1 / 1.25, 1e-15);
  }
  EXPECT_NEAR(post.excursion_z(0.5, 0.1)[0], (0.64 - 0.1) / std::sqrt(0.2), 1e-14);
  EXPECT_NEAR(ridge.excursion_z(0.5, y, 0.1)[0], (0.64 - 0.1) / std::sqrt(0.2), 1e-14);
}

TEST(ExperimentsTridiagonalPosterior, TridiagonalAndCholeskyMatchThePosteriorIn2d) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:12,0:1:10");
  const auto pair = plume_pair(7, 60, grid);
  const gpdp::Points xs = grid.points();
  const gx::PairwiseDistances d(pair.X, xs);
  gx::TridiagonalPosterior tri;
  gx::RidgeCholesky ridge;
  for (const double ell : {0.05, 0.5, 5.0}) {
    const gpdp::Kernel k = gpdp::Kernel::exponential(ell);
    tri.refit(k, d, pair.y);  // the same objects refitted per ℓ, as in the search
    ridge.refit(k, d);
    for (const double r : {0.01, 0.1, 1.0, 30.0}) {
      const gpdp::Posterior dense(k, pair.X, pair.y, {r, 1.0});
      const Eigen::VectorXd mu = dense.mean(xs);
      const Eigen::VectorXd var = dense.variance(xs);
      EXPECT_LT((tri.mean(r) - mu).cwiseAbs().maxCoeff(), 1e-10) << "ℓ " << ell << " r " << r;
      EXPECT_LT((tri.variance(r) - var).cwiseAbs().maxCoeff(), 1e-10) << "ℓ " << ell << " r " << r;
      Eigen::VectorXd mu_c;
      Eigen::VectorXd var_c;
      ridge.posterior(r, pair.y, mu_c, var_c);
      EXPECT_LT((mu_c - mu).cwiseAbs().maxCoeff(), 1e-10) << "ℓ " << ell << " r " << r;
      EXPECT_LT((var_c - var).cwiseAbs().maxCoeff(), 1e-10) << "ℓ " << ell << " r " << r;
    }
  }
  EXPECT_THROW(tri.mean(0.0), gpdp::Error);
  EXPECT_THROW(tri.variance(-1.0), gpdp::Error);
  EXPECT_THROW(ridge.excursion_z(0.0, pair.y, 0.0), gpdp::Error);
  EXPECT_THROW(ridge.excursion_z(0.5, Eigen::VectorXd::Zero(3), 0.0), gpdp::Error);  // wrong n
}

TEST(ExperimentsSpectralPosterior, SharedDistancesServeOtherKernels) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:9,0:1:9");
  const auto pair = plume_pair(11, 30, grid);
  const gpdp::Points xs = grid.points();
  const gx::PairwiseDistances d(pair.X, xs);
  for (const auto& k : {gpdp::Kernel::matern32(0.3), gpdp::Kernel::squared_exponential(0.2)}) {
    const gpdp::Posterior dense(k, pair.X, pair.y, {0.5, 1.0});
    const gx::SpectralPosterior fast(k, d, pair.y);
    EXPECT_LT((fast.mean(0.5) - dense.mean(xs)).cwiseAbs().maxCoeff(), 1e-10);
    EXPECT_LT((fast.variance(0.5) - dense.variance(xs)).cwiseAbs().maxCoeff(), 1e-10);
  }
}

TEST(ExperimentsSpectralPosterior, MatchesTheMarkovPosteriorIn1d) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:150");
  gpdp::SeededRng rng(3);
  const auto pair = gx::generate_field_1d({40, 0.43, 1.0}, grid, rng);
  const gpdp::Points xs = grid.points();
  const gpdp::Kernel k = gpdp::Kernel::exponential(0.3);
  const gx::SpectralPosterior fast(k, pair.X, pair.y, xs);
  for (const double r : {0.05, 0.7, 10.0}) {
    const gpdp::Posterior markov(k, pair.X, pair.y, {r, 1.0});
    ASSERT_NE(markov.markov(), nullptr);
    EXPECT_LT((fast.mean(r) - markov.mean(xs)).cwiseAbs().maxCoeff(), 1e-10);
    EXPECT_LT((fast.variance(r) - markov.variance(xs)).cwiseAbs().maxCoeff(), 1e-10);
  }
}

TEST(ExperimentsSpectralPosterior, RejectsNonPositiveRidge) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:5,0:1:5");
  const auto pair = plume_pair(1, 10, grid);
  const gx::SpectralPosterior post(gpdp::Kernel::exponential(0.5), pair.X, pair.y, grid.points());
  EXPECT_THROW(post.mean(0.0), gpdp::Error);
  EXPECT_THROW(post.variance(-1.0), gpdp::Error);
}

TEST(ExperimentsExcursionObjective, SpectralAndDirectRoutesAgreeIn2d) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:15,0:1:15");
  auto points = std::make_shared<const gpdp::Points>(grid.points());
  auto weights = std::make_shared<const Eigen::VectorXd>(gx::trapezoid_weights(grid));
  std::vector<gx::ExcursionTask> tasks;
  for (std::uint64_t j = 0; j < 3; ++j) {
    const auto p = plume_pair(100 + j, 50, grid);
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
  EXPECT_EQ(hybrid.cholesky_fits(), 3 * n_tasks);
  EXPECT_EQ(spectral.reductions(), 3 * n_tasks);
  EXPECT_EQ(spectral.cholesky_fits(), 0);
}

TEST(ExperimentsExcursionObjective, KeptAndSpeculativeRidgesNeedNoNewReduction) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:12,0:1:12");
  auto points = std::make_shared<const gpdp::Points>(grid.points());
  auto weights = std::make_shared<const Eigen::VectorXd>(gx::trapezoid_weights(grid));
  std::vector<gx::ExcursionTask> tasks;
  for (std::uint64_t j = 0; j < 2; ++j) {
    const auto p = plume_pair(200 + j, 40, grid);
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
  EXPECT_EQ(keeping.cholesky_fits(), 0);
  const Eigen::MatrixXd b_fresh = fresh.evaluate(round_b);
  EXPECT_EQ(fresh.reductions(), 2);  // the fresh objective had to reduce ℓ = 0.3
  for (Eigen::Index j = 0; j < b.rows(); ++j) {
    for (Eigen::Index k = 0; k < b.cols(); ++k)
      EXPECT_NEAR(b(j, k), b_fresh(j, k), 1e-10 * (1.0 + b_fresh(j, k)));
  }
  // An r neither kept nor speculated: a new fit (one Cholesky per task for a single r).
  keeping.evaluate({{0.3, 0.7, 1.0}});
  EXPECT_EQ(keeping.cholesky_fits(), 2);
  keeping.forget();
  EXPECT_EQ(keeping.kept(), 0);
  keeping.evaluate(round_b);  // nothing kept any more: ℓ = 0.3 is reduced again
  EXPECT_EQ(keeping.reductions(), 4);
}
