// The privacy-constrained hyperparameter search of the excursion experiments (paper eqs. 6–7).
#include <gtest/gtest.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/experiments/fields.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/experiments/privacy_constraint.hpp"
#include "gpdp/experiments/search.hpp"
#include "gpdp/posterior.hpp"

namespace gx = gpdp::experiments;

namespace {
// A small population: 6 pairs, n = 30, 120-point grid (fast; the full experiments are in slow/).
std::vector<gx::ExcursionTask> small_population(std::uint64_t seed, double nsr = 1.0) {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:120");
  auto points = std::make_shared<const gpdp::Points>(grid.points());
  auto weights = std::make_shared<const Eigen::VectorXd>(gx::trapezoid_weights(grid));
  std::vector<gx::ExcursionTask> tasks;
  const gpdp::SeededRng base(seed);
  for (std::uint64_t j = 0; j < 6; ++j) {
    gpdp::SeededRng rng = base.split(j);
    const auto p = gx::generate_field_1d({30, nsr, 1.0}, grid, rng);
    tasks.push_back({p.X, p.y, points, weights, p.truth});
  }
  return tasks;
}

gx::SearchSpec small_spec(int rounds) {
  gx::SearchSpec s;
  s.coarse = gx::SearchGrid::log_spaced(0.1, 5.0, 3, 0.05, 20.0, 5, 0.1, 5.0, 3);
  s.refinement_rounds = rounds;
  return s;
}

bool same(const gx::Theta& a, const gx::Theta& b) {
  return a.ell == b.ell && a.r == b.r && a.sigma == b.sigma;
}
}  // namespace

TEST(ExperimentsExcursionObjective, MatchesADirectComputationPerTheta) {
  const auto tasks = small_population(1);
  const gx::ExcursionObjective objective(tasks, 0.0, 2);
  const std::vector<gx::Theta> thetas{{0.5, 0.3, 1.0}, {0.5, 0.3, 2.0}, {2.0, 1.0, 0.5}};
  const Eigen::MatrixXd v = objective.evaluate(thetas);
  for (std::size_t j = 0; j < tasks.size(); ++j) {
    for (std::size_t k = 0; k < thetas.size(); ++k) {
      // Direct: posterior at θ with its own σ, p_D by Posterior::excursion_probability.
      const gpdp::Posterior post(gpdp::Kernel::exponential(thetas[k].ell), tasks[j].X, tasks[j].y,
                                 {thetas[k].r, thetas[k].sigma});
      const Eigen::VectorXd p = post.excursion_probability(*tasks[j].eval_points, 0.0);
      const double direct = gx::integrated_bce(p, tasks[j].truth, *tasks[j].weights);
      EXPECT_NEAR(v(static_cast<Eigen::Index>(j), static_cast<Eigen::Index>(k)), direct,
                  1e-9 * (1 + direct));
    }
  }
}

TEST(ExperimentsHyperparameterSearch, WithoutRefinementReturnsTheGridArgmin) {
  const gx::ExcursionObjective objective(small_population(2), 0.0, 2);
  const auto spec = small_spec(0);
  gx::HyperparameterSearch search(objective, spec);
  const auto result = search.run();
  std::vector<gx::Theta> all;
  for (double l : spec.coarse.ell)
    for (double r : spec.coarse.r)
      for (double s : spec.coarse.sigma) all.push_back({l, r, s});
  const Eigen::VectorXd means = objective.evaluate(all).colwise().mean();
  Eigen::Index k = 0;
  means.minCoeff(&k);
  EXPECT_TRUE(same(result.best, all[static_cast<std::size_t>(k)]));
  EXPECT_NEAR(result.objective, means[k], 1e-12);
}

TEST(ExperimentsHyperparameterSearch, RefinementNeverWorsensTheObjective) {
  const gx::ExcursionObjective objective(small_population(3), 0.0, 2);
  gx::HyperparameterSearch coarse(objective, small_spec(0));
  gx::HyperparameterSearch refined(objective, small_spec(2));
  EXPECT_LE(refined.run().objective, coarse.run().objective);
}

TEST(ExperimentsHyperparameterSearch, DeterministicUnderASeedAndAnyThreadCount) {
  const gx::ExcursionObjective one(small_population(4), 0.0, 1);
  const gx::ExcursionObjective two(small_population(4), 0.0, 2);
  gx::HyperparameterSearch a(one, small_spec(2));
  gx::HyperparameterSearch b(two, small_spec(2));
  const auto ra = a.run();
  const auto rb = b.run();
  EXPECT_TRUE(same(ra.best, rb.best));
  EXPECT_EQ(ra.per_task, rb.per_task);
  EXPECT_EQ(ra.candidates_evaluated, rb.candidates_evaluated);
}

TEST(ExperimentsHyperparameterSearch, ConstrainedSearchNeverReturnsAnInfeasibleTheta) {
  const gx::ExcursionObjective objective(small_population(5, 0.11), 0.0, 2);
  gx::HyperparameterSearch search(objective, small_spec(2));
  const auto free = search.run();
  gx::ExcursionPrivacy privacy;
  privacy.n = 30;
  privacy.dim = 1;
  privacy.delta = 0.005;
  for (const double eps0 : {10.0, 3.0, 1.0}) {
    const auto constraint = privacy.constraint(eps0);
    // Low noise: the unconstrained optimum is far from feasible (the paper's NSR = 0.11 regime).
    ASSERT_GE(privacy.epsilon(free.best), 10.0);
    try {
      const auto priv = search.run(&constraint);
      EXPECT_LT(privacy.epsilon(priv.best), eps0) << "ε₀ = " << eps0;
      EXPECT_GE(priv.objective, free.objective);
    } catch (const gpdp::PrivacyError&) {
      // Acceptable only when no coarse θ is feasible; then none may be returned.
      SUCCEED();
    }
  }
}

TEST(ExperimentsHyperparameterSearch, ConstraintIsStrictAndRefinementStaysFeasible) {
  // A synthetic constraint with a sharp boundary at r = 2: ε(θ) = 20 / r, ε₀ = 10, so r = 2 itself
  // (ε = 10) is infeasible (ε < ε₀ is strict) and refinement proposals below r = 2 must be dropped.
  const gx::ExcursionObjective objective(small_population(6, 0.11), 0.0, 2);
  gx::SearchSpec spec = small_spec(2);
  spec.coarse.r = {0.05, 0.5, 2.0, 4.0, 8.0};
  gx::HyperparameterSearch search(objective, spec);
  const gx::PrivacyConstraint constraint{[](const gx::Theta& t) { return 20.0 / t.r; }, 10.0};
  const auto priv = search.run(&constraint);
  EXPECT_GT(priv.best.r, 2.0);
  const gx::PrivacyConstraint none{[](const gx::Theta&) { return 11.0; }, 10.0};
  EXPECT_THROW(search.run(&none), gpdp::PrivacyError);
}

TEST(ExperimentsHyperparameterSearch, LockstepHybridSearchesChooseAsSeparateDirectSearches) {
  // 2-D plumes: the hybrid route with kept and speculative z₁ and both searches in lockstep must
  // pick what two separate searches on the plain Cholesky posterior (Direct) pick.
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:10,0:1:10");
  auto points = std::make_shared<const gpdp::Points>(grid.points());
  auto weights = std::make_shared<const Eigen::VectorXd>(gx::trapezoid_weights(grid));
  std::vector<gx::ExcursionTask> tasks;
  const gpdp::SeededRng base(17);
  for (std::uint64_t j = 0; j < 4; ++j) {
    gpdp::SeededRng rng = base.split(j);
    gx::Plume2dSpec spec;
    spec.n = 40;
    const auto p = gx::generate_plume_2d(spec, grid, rng);
    tasks.push_back({p.X, p.y, points, weights, p.truth});
  }
  gx::SearchSpec spec;
  spec.coarse = gx::SearchGrid::log_spaced(0.05, 5.0, 3, 0.03, 30.0, 4, 0.05, 20.0, 3);
  spec.refinement_rounds = 2;
  const gx::PrivacyConstraint constraint{[](const gx::Theta& t) { return 2.0 / t.r; }, 10.0};
  const gx::ExcursionObjective hybrid(tasks, 0.0, 2);  // Auto = Hybrid in 2-D
  const gx::ExcursionObjective direct(tasks, 0.0, 2, gx::PosteriorRoute::Direct);
  gx::HyperparameterSearch together(hybrid, spec);
  const auto both = together.run_together({nullptr, &constraint});
  EXPECT_EQ(hybrid.kept(), 0);  // released after the call
  gx::HyperparameterSearch separate(direct, spec);
  const auto free = separate.run();
  const auto priv = separate.run(&constraint);
  ASSERT_EQ(both.size(), 2U);
  for (const auto& [a, b] : {std::pair{both[0], free}, std::pair{both[1], priv}}) {
    EXPECT_NEAR(std::log(a.best.ell), std::log(b.best.ell), 1e-9);
    EXPECT_NEAR(std::log(a.best.r), std::log(b.best.r), 1e-9);
    EXPECT_NEAR(std::log(a.best.sigma), std::log(b.best.sigma), 1e-9);
    EXPECT_NEAR(a.objective, b.objective, 1e-9 * b.objective);
    EXPECT_EQ(a.candidates_evaluated, b.candidates_evaluated);
  }
  EXPECT_LT(2.0 / both[1].best.r, 10.0);
  // The hybrid objective reduced fewer times than the direct one fitted posteriors.
  EXPECT_LT(hybrid.reductions() + hybrid.single_ridge_fits(), direct.single_ridge_fits());
}
