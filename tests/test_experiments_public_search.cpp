// Privacy-constrained θ selection on public data (gpdp::experiments::search_public_data and the
// `gpdp search` command): the private choice is feasible, the cutoff C is the IoU argmax computed
// independently through the Posterior class, bad input is refused, and the CLI reports the same.
// The θ evaluations as "public_search.ell" tasks: the values of one ExcursionObjective making the
// same calls, and the same search result for any number of threads and on workers that keep
// nothing between tasks.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "gpdp/error.hpp"
#include "gpdp/experiments/fields.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/experiments/public_search.hpp"
#include "gpdp/experiments/public_search_tasks.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/parallel.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/tasks/executor.hpp"
#include "support/forgetful_executor.hpp"
#include "support/paths.hpp"

namespace gx = gpdp::experiments;

namespace {

// One 1-D field observed twice: n = 60 training and 80 validation points (both "public").
struct PublicData {
  gpdp::Points train_X, val_X;
  Eigen::VectorXd train_y, val_y;
};

PublicData make_public_data() {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:200");
  gpdp::SeededRng rng(7);
  const auto fit = gx::generate_field_1d({60, 0.5, 1.0}, grid, rng);
  // Validation: the same latent field read at other points of the grid, with fresh bounded noise.
  PublicData d{fit.X, gpdp::Points(80, 1), fit.y, Eigen::VectorXd(80)};
  const double m_xi = gx::noise_bound_from_nsr(0.5);
  for (int i = 0; i < 80; ++i) {
    const auto g = static_cast<Eigen::Index>(rng.uniform01() * 199.999);
    d.val_X(i, 0) = grid.points()(g, 0);
    d.val_y[i] = fit.field[g] + m_xi * (2.0 * rng.uniform01() - 1.0);
  }
  return d;
}

gx::PublicSearchSpec small_spec(double target_epsilon) {
  gx::PublicSearchSpec s;
  s.target_epsilon = target_epsilon;
  s.privacy.n = 60;
  s.privacy.dim = 1;
  s.privacy.delta = 0.005;
  s.grid = gx::SearchGrid::log_spaced(0.1, 5.0, 3, 0.05, 30.0, 6, 0.01, 5.0, 4);
  s.refinement_rounds = 1;
  return s;
}

std::string csv(const gpdp::Points& X, const Eigen::VectorXd& y) {
  std::string t = "x1,y\n";
  for (Eigen::Index i = 0; i < y.size(); ++i) {
    t += gpdp::io::format_number(X(i, 0)) + "," + gpdp::io::format_number(y[i]) + "\n";
  }
  return t;
}

}  // namespace

TEST(ExperimentsPublicSearch, PrivateChoiceIsFeasibleAndCutoffIsTheIouArgmax) {
  gpdp::tasks::ThreadExecutor threads(2);
  const PublicData d = make_public_data();
  const auto spec = small_spec(10.0);
  const auto truth = gx::indicator_at_least(d.val_y, 0.0);
  const auto res = gx::search_public_data(d.train_X, d.train_y, d.val_X, truth, spec, threads);
  EXPECT_LT(res.constrained.epsilon, 10.0);
  EXPECT_EQ(res.constrained.epsilon, spec.privacy.epsilon(res.constrained.theta));
  EXPECT_GT(res.unconstrained.epsilon, 10.0)
      << "the unconstrained optimum should not be private here";
  EXPECT_LE(res.unconstrained.mean_bce, res.constrained.mean_bce);
  EXPECT_GT(res.candidates, 0);

  // Independent check of C: p_D from the Posterior class, IoU with equal weights, scan of C.
  for (const auto* c : {&res.unconstrained, &res.constrained}) {
    const gpdp::Posterior post(gpdp::Kernel::exponential(c->theta.ell), d.train_X, d.train_y,
                               {c->theta.r, c->theta.sigma});
    const Eigen::VectorXd p = post.excursion_probability(d.val_X, 0.0);
    const Eigen::VectorXd w = Eigen::VectorXd::Constant(80, 1.0 / 80.0);
    double best = -1.0;
    for (int k = 1; k <= 19; ++k) {
      best = std::max(best,
                      gx::intersection_over_union(gx::indicator_at_least(p, 0.05 * k), truth, w));
    }
    EXPECT_NEAR(c->validation_iou, best, 1e-12);
    EXPECT_NEAR(gx::intersection_over_union(gx::indicator_at_least(p, c->cutoff_C), truth, w), best,
                1e-12);
  }
}

TEST(ExperimentsPublicSearch, RefusesMalformedInput) {
  gpdp::tasks::ThreadExecutor threads(2);
  const PublicData d = make_public_data();
  const auto truth = gx::indicator_at_least(d.val_y, 0.0);
  const auto spec = small_spec(10.0);
  Eigen::VectorXd big_y = d.train_y;
  big_y[0] = 1.5;  // |y| > M_Y
  EXPECT_THROW(gx::search_public_data(d.train_X, big_y, d.val_X, truth, spec, threads),
               gpdp::InputError);
  gpdp::Points outside = d.train_X;
  outside(0, 0) = 1.2;  // outside [0,1]
  EXPECT_THROW(gx::search_public_data(outside, d.train_y, d.val_X, truth, spec, threads),
               gpdp::InputError);
  Eigen::VectorXd bad_truth = truth;
  bad_truth[0] = 0.5;
  EXPECT_THROW(gx::search_public_data(d.train_X, d.train_y, d.val_X, bad_truth, spec, threads),
               gpdp::InputError);
  auto two_d = spec;
  two_d.privacy.dim = 2;
  EXPECT_THROW(gx::search_public_data(d.train_X, d.train_y, d.val_X, truth, two_d, threads),
               gpdp::InputError);
  EXPECT_THROW(
      gx::search_public_data(d.train_X, d.train_y, d.val_X, truth, small_spec(-1.0), threads),
      gpdp::InputError);
}

TEST(ExperimentsSearchCli, JsonAgreesWithTheLibraryAndRefusesBadInput) {
  const PublicData d = make_public_data();
  const gpdp::test::TempDir dir;
  gpdp::test::write_text(dir.file("train.csv"), csv(d.train_X, d.train_y));
  gpdp::test::write_text(dir.file("val.csv"), csv(d.val_X, d.val_y));
  auto command = [&](const std::string& train, const std::string& target,
                     const std::string& r_range) {
    return "search --data " + dir.file(train) + " --validation " + dir.file("val.csv") +
           " --target-epsilon " + target + " --delta 0.005 --ell-range 0.1:5:3 --r-range " +
           r_range + " --sigma-range 0.01:5:4 --refine 1 --threads 2";
  };
  const std::string base = command("train.csv", "10", "0.05:30:6");
  const auto r = gpdp::test::run_cli(base + " --json --out " + dir.file("res.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j, nlohmann::json::parse(gpdp::test::read_text(dir.file("res.json"))));
  gpdp::tasks::ThreadExecutor threads(1);
  const auto lib =
      gx::search_public_data(d.train_X, d.train_y, d.val_X, gx::indicator_at_least(d.val_y, 0.0),
                             small_spec(10.0), threads);
  EXPECT_NEAR(j["private"]["ell"].get<double>(), lib.constrained.theta.ell, 1e-12);
  EXPECT_NEAR(j["private"]["r"].get<double>(), lib.constrained.theta.r, 1e-12);
  EXPECT_NEAR(j["private"]["sigma"].get<double>(), lib.constrained.theta.sigma, 1e-12);
  EXPECT_LT(j["private"]["epsilon"].get<double>(), 10.0);
  EXPECT_EQ(j["n_private"].get<long>(), 60);

  gpdp::test::write_text(dir.file("big.csv"), "x1,y\n0.5,3\n0.7,0.1\n");
  for (const std::string& bad :
       {command("big.csv", "10", "0.05:30:6"), command("train.csv", "-1", "0.05:30:6"),
        command("train.csv", "10", "1:0.5:3"), command("missing.csv", "10", "0.05:30:6")}) {
    const auto e = gpdp::test::run_cli(bad + " --json");
    EXPECT_NE(e.exit_code, 0) << bad;
    EXPECT_TRUE(e.out.empty()) << bad;
    EXPECT_FALSE(e.err.empty()) << bad;
  }
}

namespace {

// 2-D public data (the hybrid route, whose objective keeps z₁ between rounds and speculates):
// n = 40 training points of a plume, validated on its 9 x 9 grid.
struct PublicData2d {
  gpdp::Points train_X, val_X;
  Eigen::VectorXd train_y, val_truth;
};
PublicData2d make_public_data_2d() {
  const gpdp::Grid grid = gpdp::Grid::parse("0:1:9,0:1:9");
  gpdp::SeededRng rng(11);
  gx::Plume2dSpec plume;
  plume.n = 40;
  const auto pair = gx::generate_plume_2d(plume, grid, rng);
  return {pair.X, grid.points(), pair.y, pair.truth};
}

gx::PublicSearchSpec small_spec_2d() {
  gx::PublicSearchSpec s;
  s.target_epsilon = 10.0;
  s.privacy.n = 40;
  s.privacy.dim = 2;
  s.privacy.delta = 0.001;
  s.grid = gx::SearchGrid::log_spaced(0.1, 3.0, 3, 0.05, 20.0, 5, 0.05, 5.0, 3);
  s.refinement_rounds = 2;
  return s;
}

gx::PublicSearchResult search_2d(gpdp::tasks::Executor& executor) {
  const auto d = make_public_data_2d();
  return gx::search_public_data(d.train_X, d.train_y, d.val_X, d.val_truth, small_spec_2d(),
                                executor);
}

void expect_same(const gx::ThetaChoice& a, const gx::ThetaChoice& b) {
  EXPECT_EQ(a.theta.ell, b.theta.ell);
  EXPECT_EQ(a.theta.r, b.theta.r);
  EXPECT_EQ(a.theta.sigma, b.theta.sigma);
  EXPECT_EQ(a.mean_bce, b.mean_bce);
  EXPECT_EQ(a.epsilon, b.epsilon);
  EXPECT_EQ(a.cutoff_C, b.cutoff_C);
  EXPECT_EQ(a.validation_iou, b.validation_iou);
}

void expect_same(const gx::PublicSearchResult& a, const gx::PublicSearchResult& b) {
  expect_same(a.unconstrained, b.unconstrained);
  expect_same(a.constrained, b.constrained);
  EXPECT_EQ(a.candidates, b.candidates);
  EXPECT_EQ(a.reductions, b.reductions);
  EXPECT_EQ(a.single_ridge_fits, b.single_ridge_fits);
  EXPECT_EQ(a.tasks, b.tasks);
}

}  // namespace

TEST(ExperimentsPublicSearchTasks, EllTasksGiveTheValuesOfOneObjective) {
  // Three calls as a search makes them (keep, speculation, a kept ℓ asked again at new r), on the
  // tasks and on one ExcursionObjective: the same numbers, bit for bit.
  const auto d = make_public_data_2d();
  const gx::ExcursionTask task{
      d.train_X, d.train_y, std::make_shared<const gpdp::Points>(d.val_X),
      std::make_shared<const Eigen::VectorXd>(Eigen::VectorXd::Constant(81, 1.0 / 81)),
      d.val_truth};
  gpdp::tasks::ThreadExecutor threads(3);
  const gx::EllTaskObjective tasked(task, 0.0, threads);
  const gx::ExcursionObjective direct({task}, 0.0, 1);
  const std::vector<std::vector<gx::Theta>> calls{
      {{0.3, 0.1, 1.0}, {0.3, 1.0, 1.0}, {0.3, 3.0, 0.5}, {1.0, 0.1, 1.0}, {0.3, 1.0, 2.0}},
      {{0.3, 2.0, 1.0}, {1.0, 0.2, 1.0}, {2.0, 0.1, 0.5}},
      {{0.3, 2.0, 0.7}, {1.0, 0.2, 0.7}, {2.0, 0.4, 0.5}, {1.0, 0.1 * 1.5, 1.0}}};
  const std::vector<std::pair<double, double>> speculative{{0.3, 2.0}, {1.0, 0.2}, {2.0, 0.4}};
  for (std::size_t c = 0; c < calls.size(); ++c) {
    const bool keep = c + 1 < calls.size();
    const Eigen::MatrixXd a = tasked.evaluate(calls[c], speculative, keep);
    Eigen::MatrixXd b;
    {
      const gpdp::SingleThreadedBlas one_blas_thread;
      b = direct.evaluate(calls[c], speculative, keep);
    }
    ASSERT_EQ(a.rows(), 1);
    ASSERT_EQ(a.cols(), b.cols());
    for (Eigen::Index k = 0; k < a.cols(); ++k) EXPECT_EQ(a(0, k), b(0, k)) << c << " " << k;
  }
  EXPECT_EQ(tasked.reductions(), direct.reductions());
  EXPECT_EQ(tasked.single_ridge_fits(), direct.single_ridge_fits());
  EXPECT_GT(direct.reductions(), 0) << "no tridiagonal reduction: speculation not exercised";
  EXPECT_EQ(tasked.tasks_run(), 2 + 3 + 3);  // one task per ℓ of each call
}

TEST(ExperimentsPublicSearchTasks, SameResultForAnyThreadCount) {
  gpdp::tasks::ThreadExecutor one(1);
  gpdp::tasks::ThreadExecutor four(4);
  const auto a = search_2d(one);
  const auto b = search_2d(four);
  EXPECT_GT(a.reductions, 0) << "the hybrid route's reductions were not exercised";
  EXPECT_LT(a.constrained.epsilon, 10.0);
  expect_same(a, b);
}

TEST(ExperimentsPublicSearchTasks, SameResultWhenWorkersKeepNothing) {
  gpdp::tasks::ThreadExecutor two(2);
  const auto kept = search_2d(two);
  gpdp::test::ForgetfulExecutor forgetful(&gx::forget_public_search_task_state);
  const auto replayed = search_2d(forgetful);
  expect_same(kept, replayed);
}
