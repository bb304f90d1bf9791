// The multi-ridge engines (posteriors/): every engine against the Posterior class (Cholesky in 2-D,
// Markov engine in 1-D) through the one interface, a hand-computed n = 1 case, other kernel
// families on shared distances, the tridiagonal one-pass z₁, and refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>

#include "gpdp/error.hpp"
#include "gpdp/experiments/fields.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/posteriors/direct.hpp"
#include "gpdp/posteriors/distances.hpp"
#include "gpdp/posteriors/ridge_cholesky.hpp"
#include "gpdp/posteriors/spectral.hpp"
#include "gpdp/posteriors/tridiagonal.hpp"
#include "support/plume_pair.hpp"

namespace gx = gpdp::experiments;
using Eigen::VectorXd;

namespace {

// One data set (X, y) on points xs, with every engine built on it (the engines reference the
// data, so it lives here).
struct Engines {
  Engines(gpdp::Points X_, VectorXd y_, gpdp::Points xs_)
      : X(std::move(X_)), y(std::move(y_)), xs(std::move(xs_)), distances(X, xs) {}
  gpdp::Points X;
  VectorXd y;
  gpdp::Points xs;
  gpdp::PairwiseDistances distances;
  std::vector<std::pair<std::string, std::unique_ptr<gpdp::MultiRidgePosterior>>> all() const {
    std::vector<std::pair<std::string, std::unique_ptr<gpdp::MultiRidgePosterior>>> out;
    out.emplace_back("direct", std::make_unique<gpdp::DirectPosterior>(X, y, xs));
    out.emplace_back("ridge-Cholesky", std::make_unique<gpdp::RidgeCholesky>(distances, y));
    out.emplace_back("spectral", std::make_unique<gpdp::SpectralPosterior>(distances, y));
    out.emplace_back("tridiagonal", std::make_unique<gpdp::TridiagonalPosterior>(distances, y));
    return out;
  }
};
}  // namespace

TEST(MultiRidgePosterior, OnePointByHandForEveryEngine) {
  // n = 1, K = [1]: μ(x) = k(x, x₁) y / (1 + r²), k_D(x, x) = 1 − k(x, x₁)² / (1 + r²).
  gpdp::Points X(1, 2);
  X << 0.2, 0.3;
  gpdp::Points xs(2, 2);
  xs << 0.2, 0.3, 0.5, 0.7;  // distances 0 and 0.5
  const Engines data(X, VectorXd::Constant(1, 0.8), xs);
  const double k1 = std::exp(-0.5 / 0.5);
  for (auto& [name, engine] : data.all()) {
    engine->refit(gpdp::Kernel::exponential(0.5));
    VectorXd mu, var;
    engine->moments(0.5, mu, var);
    EXPECT_NEAR(mu[0], 0.8 / 1.25, 1e-15) << name;
    EXPECT_NEAR(mu[1], k1 * 0.8 / 1.25, 1e-15) << name;
    EXPECT_NEAR(var[0], 1.0 - 1.0 / 1.25, 1e-15) << name;
    EXPECT_NEAR(var[1], 1.0 - k1 * k1 / 1.25, 1e-15) << name;
    EXPECT_NEAR(engine->excursion_z({0.5}, 0.1)(0, 0), (0.64 - 0.1) / std::sqrt(0.2), 1e-14)
        << name;
    EXPECT_EQ(engine->reduces(), name == "spectral" || name == "tridiagonal") << name;
  }
  gpdp::SpectralPosterior spectral(data.distances, data.y);
  spectral.refit(gpdp::Kernel::exponential(0.5));
  EXPECT_NEAR(spectral.effective_dimension(0.5), 1.0 / 1.25, 1e-15);
}

TEST(MultiRidgePosterior, EveryEngineMatchesTheCholeskyPosteriorIn2d) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:12,0:1:10");
  const auto pair = gpdp::test::plume_pair(7, 60, grid);
  const Engines data(pair.X, pair.y, grid.points());
  auto engines = data.all();
  for (const double ell : {0.05, 0.5, 5.0}) {
    const gpdp::Kernel k = gpdp::Kernel::exponential(ell);
    for (auto& [name, engine] : engines) {
      engine->refit(k);  // the same objects refitted per ℓ, as in the search
      for (const double r : {0.01, 0.1, 1.0, 30.0}) {
        const gpdp::Posterior dense(k, pair.X, pair.y, {r, 1.0});
        VectorXd mu, var;
        engine->moments(r, mu, var);
        EXPECT_LT((mu - dense.mean(data.xs)).cwiseAbs().maxCoeff(), 1e-10)
            << name << " ℓ " << ell << " r " << r;
        EXPECT_LT((var - dense.variance(data.xs)).cwiseAbs().maxCoeff(), 1e-10)
            << name << " ℓ " << ell << " r " << r;
      }
    }
    gpdp::SpectralPosterior spectral(data.distances, data.y);
    spectral.refit(k);
    for (const double r : {0.01, 1.0}) {
      const gpdp::Posterior dense(k, pair.X, pair.y, {r, 1.0});
      EXPECT_NEAR(spectral.effective_dimension(r), dense.effective_dimension(),
                  1e-9 * static_cast<double>(pair.X.rows()));
    }
  }
}

TEST(MultiRidgePosterior, SeveralRidgesAtOnceEqualOneAtATime) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:9,0:1:9");
  const auto pair = gpdp::test::plume_pair(5, 40, grid);
  const Engines data(pair.X, pair.y, grid.points());
  const std::vector<double> ridges{0.05, 0.3, 2.0, 7.0};
  for (auto& [name, engine] : data.all()) {
    engine->refit(gpdp::Kernel::exponential(0.4));
    const Eigen::MatrixXd together = engine->excursion_z(ridges, 0.1);
    ASSERT_EQ(together.cols(), 4) << name;
    for (std::size_t k = 0; k < ridges.size(); ++k) {
      const VectorXd alone = engine->excursion_z({ridges[k]}, 0.1).col(0);
      const auto col = together.col(static_cast<Eigen::Index>(k));
      // The tridiagonal engine forms the means of several ridges as one matrix product: equal up
      // to rounding; the others compute each ridge the same way either way.
      if (name == "tridiagonal") {
        EXPECT_LT((col - alone).cwiseAbs().maxCoeff(), 1e-11) << name;
      } else {
        EXPECT_EQ(VectorXd(col), alone) << name;
      }
    }
  }
}

TEST(MultiRidgePosterior, SharedDistancesServeOtherKernels) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:9,0:1:9");
  const auto pair = gpdp::test::plume_pair(11, 30, grid);
  const Engines data(pair.X, pair.y, grid.points());
  for (const auto& k : {gpdp::Kernel::matern32(0.3), gpdp::Kernel::squared_exponential(0.2)}) {
    const gpdp::Posterior dense(k, pair.X, pair.y, {0.5, 1.0});
    for (auto& [name, engine] : data.all()) {
      engine->refit(k);
      VectorXd mu, var;
      engine->moments(0.5, mu, var);
      EXPECT_LT((mu - dense.mean(data.xs)).cwiseAbs().maxCoeff(), 1e-10) << name << k.name();
      EXPECT_LT((var - dense.variance(data.xs)).cwiseAbs().maxCoeff(), 1e-10) << name << k.name();
    }
  }
}

TEST(MultiRidgePosterior, EveryEngineMatchesTheMarkovPosteriorIn1d) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:150");
  gpdp::SeededRng rng(3);
  const auto pair = gx::generate_field_1d({40, 0.43, 1.0}, grid, rng);
  const Engines data(pair.X, pair.y, grid.points());
  const gpdp::Kernel k = gpdp::Kernel::exponential(0.3);
  for (auto& [name, engine] : data.all()) {
    engine->refit(k);
    for (const double r : {0.05, 0.7, 10.0}) {
      const gpdp::Posterior markov(k, pair.X, pair.y, {r, 1.0});
      ASSERT_NE(markov.markov(), nullptr);
      VectorXd mu, var;
      engine->moments(r, mu, var);
      EXPECT_LT((mu - markov.mean(data.xs)).cwiseAbs().maxCoeff(), 1e-10) << name;
      EXPECT_LT((var - markov.variance(data.xs)).cwiseAbs().maxCoeff(), 1e-10) << name;
    }
  }
}

TEST(MultiRidgePosterior, RefusesNonPositiveRidgesMissingFitsAndMismatchedData) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:5,0:1:5");
  const auto pair = gpdp::test::plume_pair(1, 10, grid);
  const Engines data(pair.X, pair.y, grid.points());
  for (auto& [name, engine] : data.all()) {
    VectorXd mu, var;
    EXPECT_THROW(engine->moments(0.5, mu, var), gpdp::Error) << name << ": before refit";
    engine->refit(gpdp::Kernel::exponential(0.5));
    EXPECT_THROW(engine->moments(0.0, mu, var), gpdp::Error) << name;
    EXPECT_THROW(engine->moments(-1.0, mu, var), gpdp::Error) << name;
    EXPECT_THROW(engine->excursion_z({0.5, 0.0}, 0.0), gpdp::Error) << name;
  }
  const VectorXd wrong = VectorXd::Zero(3);
  EXPECT_THROW(gpdp::RidgeCholesky(data.distances, wrong), gpdp::InputError);
  EXPECT_THROW(gpdp::SpectralPosterior(data.distances, wrong), gpdp::InputError);
  EXPECT_THROW(gpdp::TridiagonalPosterior(data.distances, wrong), gpdp::InputError);
  EXPECT_THROW(gpdp::PairwiseDistances(pair.X, gpdp::Points::Zero(4, 3)), gpdp::InputError);
}

TEST(MultiRidgePosterior, KernelOfDistancesIsTheKernel) {
  // The one kernel evaluator: matrices from distances agree with Kernel::cross (exponential to a
  // few ulp through the vectorised exp, the others exactly).
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:7,0:1:6");
  const auto pair = gpdp::test::plume_pair(2, 20, grid);
  const gpdp::PairwiseDistances d(pair.X, grid.points());
  for (const auto& k : {gpdp::Kernel::exponential(0.3), gpdp::Kernel::matern52(0.4),
                        gpdp::Kernel::squared_exponential(0.2)}) {
    Eigen::MatrixXd gram, cross;
    d.kernel_matrices(k, gram, cross);
    EXPECT_LT((gram - k.gram(pair.X)).cwiseAbs().maxCoeff(), 1e-14) << k.name();
    EXPECT_LT((cross - k.cross(grid.points(), pair.X)).cwiseAbs().maxCoeff(), 1e-14) << k.name();
  }
}

TEST(MultiRidgePosterior, RidgeCholeskyApplyIsThePosteriorMeanOfEachColumn) {
  // apply(r, [y, b]) = K(xs, X)(K + r² I)⁻¹ [y, b]: its first column is moments()'s mean.
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:8,0:1:7");
  gpdp::Points X(3, 2);
  X << 0.1, 0.2, 0.5, 0.5, 0.9, 0.4;
  const Engines data(X, VectorXd{{0.3, -0.7, 0.9}}, grid.points());
  gpdp::RidgeCholesky ridge(data.distances, data.y);
  const gpdp::Kernel k = gpdp::Kernel::exponential(0.3);
  ridge.refit(k);
  Eigen::MatrixXd rhs(3, 2);
  rhs.col(0) = data.y;
  rhs.col(1) << 1.0, 2.0, -1.0;
  const Eigen::MatrixXd out = ridge.apply(0.4, rhs);
  VectorXd mu, var;
  ridge.moments(0.4, mu, var);
  EXPECT_LT((out.col(0) - mu).cwiseAbs().maxCoeff(), 1e-14);
  const gpdp::Posterior other(k, X, rhs.col(1), {0.4, 1.0});
  EXPECT_LT((out.col(1) - other.mean(data.xs)).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_THROW(ridge.apply(0.4, Eigen::MatrixXd::Ones(2, 1)), gpdp::InputError);
}
