// Privacy-constrained θ selection on public data (gpdp::experiments::search_public_data and the
// `gpdp search` command): the private choice is feasible, the cutoff C is the IoU argmax computed
// independently through the Posterior class, bad input is refused, and the CLI reports the same.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "gpdp/error.hpp"
#include "gpdp/experiments/fields.hpp"
#include "gpdp/experiments/metrics.hpp"
#include "gpdp/experiments/public_search.hpp"
#include "gpdp/io/csv.hpp"
#include "gpdp/posterior.hpp"
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
  s.threads = 2;
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
  const PublicData d = make_public_data();
  const auto spec = small_spec(10.0);
  const auto truth = gx::indicator_at_least(d.val_y, 0.0);
  const auto res = gx::search_public_data(d.train_X, d.train_y, d.val_X, truth, spec);
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
  const PublicData d = make_public_data();
  const auto truth = gx::indicator_at_least(d.val_y, 0.0);
  const auto spec = small_spec(10.0);
  Eigen::VectorXd big_y = d.train_y;
  big_y[0] = 1.5;  // |y| > M_Y
  EXPECT_THROW(gx::search_public_data(d.train_X, big_y, d.val_X, truth, spec), gpdp::InputError);
  gpdp::Points outside = d.train_X;
  outside(0, 0) = 1.2;  // outside [0,1]
  EXPECT_THROW(gx::search_public_data(outside, d.train_y, d.val_X, truth, spec), gpdp::InputError);
  Eigen::VectorXd bad_truth = truth;
  bad_truth[0] = 0.5;
  EXPECT_THROW(gx::search_public_data(d.train_X, d.train_y, d.val_X, bad_truth, spec),
               gpdp::InputError);
  auto two_d = spec;
  two_d.privacy.dim = 2;
  EXPECT_THROW(gx::search_public_data(d.train_X, d.train_y, d.val_X, truth, two_d),
               gpdp::InputError);
  EXPECT_THROW(gx::search_public_data(d.train_X, d.train_y, d.val_X, truth, small_spec(-1.0)),
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
  const auto lib = gx::search_public_data(d.train_X, d.train_y, d.val_X,
                                          gx::indicator_at_least(d.val_y, 0.0), small_spec(10.0));
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
