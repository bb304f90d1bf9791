// The preview engine (gpdp/preview): simulated release paths have the posterior's law (Matheron's
// rule on shared draws), every candidate's ε is within its target and re-accounts identically, the
// same seed gives the same preview whatever the thread count, and the levels and the selection are
// what preview.hpp says.
#include <gtest/gtest.h>

#include <cmath>

#include "gpdp/error.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/preview/preview.hpp"
#include "gpdp/preview/report.hpp"
#include "gpdp/preview/simulate_release.hpp"
#include "gpdp/privacy/calibrate.hpp"
#include "gpdp/samplers/prior.hpp"

using namespace gpdp;
using namespace gpdp::preview;

namespace {

EvaluationPoints grid_points(const std::string& spec) {
  EvaluationPoints e;
  e.grid = Grid::parse(spec);
  e.points = e.grid->points();
  return e;
}

// A small prior-field preview on the unit square.
PreviewRequest small_request() {
  PreviewRequest q;
  q.evaluation = grid_points("0:1:14,0:1:12");
  q.domain = Box::unit(2);
  q.level = 0.0;
  q.n = 40;
  q.epsilons = {1.0, 30.0};
  q.delta = 1e-3;
  q.ell = 0.3;
  q.sigma = 0.8;
  q.r_reference = 0.3;
  q.draws = {1, 3};
  q.eta_ridge_factors = {0.5};
  q.functional_ridge_factors = {0.5, 8.0};
  q.bandwidth_factors = {0.5};
  q.simulations = 4;
  q.seed = 11;
  return q;
}

}  // namespace

TEST(Preview, SimulatedPathsHaveThePosteriorLaw) {
  // One simulated set; 4000 fresh shared draws give paths whose mean and variance at three points
  // match Posterior (σ² k_D) within 5 standard errors (seeded; a wrong sign or a missing r e term
  // shifts the variance by far more).
  const EvaluationPoints e = grid_points("0:1:9,0:1:7");
  const Kernel k = Kernel::exponential(0.4);
  SimulatedSet set;
  set.rows = {0, 5, 17, 30, 44, 62};
  set.y.resize(6);
  set.y << 0.5, -0.2, 0.9, -0.7, 0.1, 0.3;
  Points X(6, 2);
  for (int i = 0; i < 6; ++i) X.row(i) = e.points.row(set.rows[static_cast<std::size_t>(i)]);
  const double r = 0.7, sigma = 1.3;
  const Posterior post(k, X, set.y, {r, sigma});
  const std::vector<Eigen::Index> at{3, 30, 50};
  Points pts(3, 2);
  for (int i = 0; i < 3; ++i) pts.row(i) = e.points.row(at[static_cast<std::size_t>(i)]);
  const Eigen::VectorXd mean = post.mean(pts), var = post.variance(pts);

  PriorSampler prior(k, e.points, e.grid, e.cells);
  SeededRng rng(5);
  const int B = 4000;
  Eigen::MatrixXd values(3, B);
  for (int b = 0; b < B; ++b) {
    SimulationDraws d;
    d.prior = prior.draw(rng, 2);
    d.noise.resize(6, 1);
    rng.fill_standard_normal(d.noise.data(), 6);
    SimulatedPosterior sp(k, e, set, d);
    const Eigen::MatrixXd p = sp.paths(r, sigma, 0.0, 1);
    for (int i = 0; i < 3; ++i) values(i, b) = p(at[static_cast<std::size_t>(i)], 0);
  }
  for (int i = 0; i < 3; ++i) {
    const double m = values.row(i).mean();
    const double v = (values.row(i).array() - m).square().sum() / (B - 1);
    EXPECT_NEAR(m, mean(i), 5 * std::sqrt(var(i) / B)) << "point " << i;
    EXPECT_NEAR(v, var(i), 5 * var(i) * std::sqrt(2.0 / (B - 1))) << "point " << i;
  }
}

TEST(Preview, EveryCandidateIsWithinItsTargetAndReaccountsTheSame) {
  const PreviewRequest q = small_request();
  const PreviewResult r = run_preview(q);
  ASSERT_EQ(r.results.size(), 2u);
  for (const auto& e : r.results) {
    ASSERT_FALSE(e.candidates.empty());
    bool functional = false, eta = false, vote = false, grid = false, prior = false, small = false;
    for (const auto& c : e.candidates) {
      EXPECT_LE(c.config.epsilon, e.epsilon);
      privacy::Accountant acc;  // a private prior mean's part first, as a release composes it
      if (c.config.prior_mean_noise > 0) {
        privacy::GpMechanism pm;
        pm.kind = privacy::MechanismKind::PriorMean;
        pm.n = q.n;
        pm.M_Y = q.M_Y;
        pm.noise_scale = c.config.prior_mean_noise;
        acc.add(pm, 1);
      }
      acc.add(c.config.mechanism, c.config.draws);
      EXPECT_DOUBLE_EQ(acc.epsilon(q.delta, q.conversion).epsilon, c.config.epsilon);
      EXPECT_GE(c.iou.hi, c.iou.mean);
      EXPECT_LE(c.iou.lo, c.iou.mean);
      functional |= c.config.family == Family::Functional;
      eta |= c.config.family == Family::Eta;
      vote |= c.config.family == Family::Vote;
      grid |= c.config.family == Family::GridMean;
      prior |= c.config.family == Family::PriorMean;
      small |= c.config.family == Family::SmallSigma;
    }
    EXPECT_TRUE(functional && eta && vote && grid && prior && small);
    // The chosen one has the highest tuning IoU; the default is the unsmoothed single path.
    for (const auto& c : e.candidates) EXPECT_LE(c.tuning_iou, e.chosen().tuning_iou);
    const auto* d = e.family_best(Family::Default);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->config.draws, 1);
    EXPECT_EQ(d->config.smooth, 0.0);
    EXPECT_EQ(d->config.solved, privacy::CalibrationParameter::R);
  }
  EXPECT_GT(r.random_set_iou.mean, 0.0);
  EXPECT_LT(r.random_set_iou.mean, 1.0);
  // Utility grows with ε for the default release (4 + 4 simulations, seeded): at ε = 30 the
  // calibrated r is far smaller than at ε = 1.
  EXPECT_GT(r.results[1].family_best(Family::Default)->iou.mean,
            r.results[0].family_best(Family::Default)->iou.mean);
}

TEST(Preview, SameSeedSamePreviewAnyThreadCount) {
  PreviewRequest q = small_request();
  q.threads = 1;
  const PreviewResult a = run_preview(q);
  q.threads = 2;
  const PreviewResult b = run_preview(q);
  nlohmann::json ja = preview_json(q, a, {}), jb = preview_json(q, b, {});
  ja.erase("seconds");
  jb.erase("seconds");
  EXPECT_EQ(ja, jb);
  q.seed = 12;
  nlohmann::json jc = preview_json(q, run_preview(q), {});
  EXPECT_NE(ja.at("results"), jc.at("results"));
}

TEST(Preview, ProxyDataChooseThetaAndFeedTheSimulations) {
  // A public proxy: 120 records of a smooth field on [0,1]², half of them above the threshold.
  PreviewRequest q = small_request();
  q.ell.reset();
  q.sigma.reset();
  q.r_reference.reset();
  SeededRng rng(3);
  ProxyData proxy;
  proxy.X.resize(120, 2);
  proxy.y.resize(120);
  for (int i = 0; i < 120; ++i) {
    proxy.X(i, 0) = rng.uniform01();
    proxy.X(i, 1) = rng.uniform01();
    proxy.y(i) = std::clamp(std::sin(6 * proxy.X(i, 0)) + 0.3 * rng.standard_normal(), -1.0, 1.0);
  }
  q.proxy = proxy;
  q.epsilons = {10.0};
  const PreviewResult r = run_preview(q);
  EXPECT_NE(r.theta_source.find("public search"), std::string::npos);
  EXPECT_GT(r.ell, 0.0);
  // sin(6x) ≥ 0 on about half of the square: the non-private set is not trivial.
  EXPECT_GT(r.random_set_iou.mean, 0.2);
  EXPECT_LT(r.random_set_iou.mean, 0.8);
  // A non-private path recovers far more of the set than chance.
  EXPECT_GT(r.nonprivate_iou.mean, r.random_set_iou.mean + 0.2);
}

TEST(Preview, RefusesIncompleteInputs) {
  PreviewRequest q = small_request();
  q.ell.reset();
  EXPECT_THROW(run_preview(q), InputError);  // no proxy and no ℓ
  q = small_request();
  q.epsilons = {};
  EXPECT_THROW(run_preview(q), InputError);
  q = small_request();
  q.draws = {3, 5};
  EXPECT_THROW(run_preview(q), InputError);  // the default single path must be a candidate
  q = small_request();
  q.delta = 1.5;
  EXPECT_THROW(run_preview(q), InputError);
}

TEST(Preview, ChosenConfigReadsBackThePreviewFile) {
  const PreviewRequest q = small_request();
  const PreviewResult r = run_preview(q);
  const nlohmann::json j = preview_json(q, r, {});
  const ChosenConfig c = chosen_config(j, 30.0, "preview.json");
  EXPECT_EQ(c.config, config_json(r.results[1].chosen().config, q.delta, q.conversion));
  EXPECT_DOUBLE_EQ(c.iou.at("mean").get<double>(), r.results[1].chosen().iou.mean);
  EXPECT_THROW(chosen_config(j, 3.0, "preview.json"), InputError);
  EXPECT_THROW(chosen_config(nlohmann::json::object(), 1.0, "x.json"), InputError);
}
