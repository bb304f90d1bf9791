// The map mechanism seam (release/map_mechanism.hpp, prepared_release.hpp): a release prepared
// once and drawn with a seed is, value for value, what `gpdp release --insecure-seed` publishes on
// the same records and points (draws, released set, ε); its draws have the law of the analytic
// posterior; the prepared sampler serves a posterior with other responses exactly as a fresh one.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include "gpdp/io/csv.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/release/evaluation.hpp"
#include "gpdp/release/prepared_release.hpp"
#include "gpdp/release/release.hpp"
#include "gpdp/samplers/sampler.hpp"
#include "support/gof.hpp"
#include "support/paths.hpp"

namespace gpdp::release {
namespace {

// Responses in raw units (log transform, centre 1, scale 2): some are clipped at M_Y = 1.
struct Records {
  Eigen::MatrixXd X;
  Eigen::VectorXd raw;
};
Records records_2d(int n) {
  SeededRng rng(3);
  Records r{Eigen::MatrixXd(n, 2), Eigen::VectorXd(n)};
  for (int i = 0; i < n; ++i) {
    r.X(i, 0) = rng.uniform01();
    r.X(i, 1) = rng.uniform01();
    r.raw(i) =
        std::exp(1.0 + 2.5 * std::sin(4 * r.X(i, 0)) * r.X(i, 1) + 0.3 * rng.standard_normal());
  }
  return r;
}

std::string csv_of(const Records& r) {
  std::string s = "x1,x2,y\n";
  for (Eigen::Index i = 0; i < r.X.rows(); ++i)
    s += fmt::format("{},{},{}\n", io::format_number(r.X(i, 0)), io::format_number(r.X(i, 1)),
                     io::format_number(r.raw(i)));
  return s;
}

// The public parameters: log responses centred at 1 and scaled by 2, M_Y = 1, on the unit square.
ReleaseRequest public_2d(const Kernel& kernel, double r, double sigma) {
  ReleaseRequest q;
  q.input.domain = Box::parse("0:1,0:1");
  q.input.transform = ResponseTransform::Log;
  q.input.center = 1.0;
  q.input.scale = 2.0;
  q.mechanism.kernel = kernel;
  q.mechanism.r = r;
  q.mechanism.sigma = sigma;
  q.delta = 1e-3;
  return q;
}

ReleaseRequest request_2d(const test::TempDir& dir, const Records& r) {
  test::write_text(dir.file("d.csv"), csv_of(r));
  ReleaseRequest q = public_2d(Kernel::exponential(0.4), 1.5, 0.5);
  q.data_path = dir.file("d.csv");
  q.threshold = 1.2;
  q.ledger_path = dir.file("l.sqlite");
  q.dataset = "seam";
  q.insecure_seed = 7;
  return q;
}

// The seam's draw equals the published draws.csv (draw_l, in_set) and its ε the certificate's.
void expect_seam_equals_release(ReleaseRequest q, const Records& r, const test::TempDir& dir,
                                const std::string& name) {
  SCOPED_TRACE(name);
  q.out_dir = dir.file(name);
  const ReleaseOutcome o = run_release(q);
  const auto csv = io::read_csv(q.out_dir + "/draws.csv");
  std::vector<std::string> draw_cols;
  for (int l = 1; l <= q.draws; ++l) draw_cols.push_back(fmt::format("draw_{}", l));
  const Eigen::MatrixXd published = csv.numeric(draw_cols);
  const Eigen::VectorXd in_set = csv.numeric({"in_set"}).col(0);

  Evaluation e = load_evaluation(q.evaluation, {"x1", "x2"}, *q.input.domain);
  PreparedRelease prepared(q, r.X, r.raw, std::move(e));
  EXPECT_EQ(prepared.guarantee().epsilon, o.certificate["guarantee"]["epsilon"].get<double>());
  EXPECT_EQ(prepared.describe()["theta"], o.certificate["theta"]);
  EXPECT_EQ(prepared.describe()["parts"], o.certificate["parts"]);
  const MapRelease seam = prepared.draw(*q.insecure_seed);
  ASSERT_EQ(seam.fields.rows(), published.rows());
  ASSERT_EQ(seam.fields.cols(), q.draws);
  // draws.csv writes shortest round-trip decimals: equality is exact.
  EXPECT_EQ(seam.fields, published);
  EXPECT_EQ(seam.set, in_set);
  EXPECT_FALSE(seam.probability.has_value());
  // A second draw with another seed differs; the same seed again repeats.
  EXPECT_NE(prepared.draw(*q.insecure_seed + 1).fields, published);
  EXPECT_EQ(prepared.draw(*q.insecure_seed).fields, published);
}

TEST(ReleaseMapMechanism, SeededDrawEqualsThePublishedRelease) {
  test::TempDir dir;
  const Records r = records_2d(60);
  test::write_text(dir.file("pts.csv"), "x1,x2\n0.1,0.1\n0.5,0.5\n0.5,0.5\n0.9,0.2\n0.3,0.8\n");
  ReleaseRequest q = request_2d(dir, r);
  q.evaluation = FilePoints{dir.file("pts.csv")};  // a repeated point shares its value
  expect_seam_equals_release(q, r, dir, "one-path");

  q.draws = 3;
  q.vote_cutoff = 2.0 / 3.0;
  q.calibration = CalibrationGoal{privacy::CalibrationParameter::R, 2.0};
  expect_seam_equals_release(q, r, dir, "votes-calibrated");

  q.mechanism.kind = privacy::MechanismKind::Functional;
  q.calibration = CalibrationGoal{privacy::CalibrationParameter::Noise, 2.0};
  q.mechanism.noise_scale = 1.0;
  expect_seam_equals_release(q, r, dir, "functional");

  // A masked-free 2-D grid with smoothing: the released set is read from the smoothed fields.
  ReleaseRequest g = request_2d(dir, r);
  g.evaluation = GridPoints{Grid::parse("0:1:9,0:1:7"), ""};
  g.smooth = 0.15;
  g.draws = 2;
  g.vote_cutoff = 0.5;
  expect_seam_equals_release(g, r, dir, "grid-smoothed");
}

TEST(ReleaseMapMechanism, RefusesWhatARequestRefuses) {
  const Records r = records_2d(20);
  ReleaseRequest q;
  q.input.domain = Box::parse("0:1,0:1");
  q.mechanism.kernel = Kernel::exponential(0.4);
  q.delta = 1e-3;
  const auto at = [&](const Points& p) { return evaluation_at(p, {"x1", "x2"}, *q.input.domain); };
  Points outside(1, 2);
  outside << 0.5, 1.5;
  EXPECT_THROW(at(outside), ParameterError);
  ReleaseRequest bad = q;
  bad.delta = 1.5;
  EXPECT_THROW(PreparedRelease(bad, r.X, r.raw, at(r.X)), ParameterError);
  Eigen::MatrixXd X = r.X;
  X(3, 0) = 2.0;  // a record outside the declared domain
  EXPECT_THROW(PreparedRelease(q, X, r.raw, at(r.X)), InputError);
  q.smooth = 0.1;  // smoothing needs a 2-D grid
  EXPECT_THROW(PreparedRelease(q, r.X, r.raw, at(r.X)), ParameterError);
}

TEST(ReleaseMapMechanism, RequestFromOptionsNamesUnknownKeys) {
  const nlohmann::json input = {{"domain", "0:1"}, {"M_Y", 1}};
  const ReleaseRequest q = prepared_request(input,
                                            {{"kernel", "exp"},
                                             {"ell", 0.3},
                                             {"target-epsilon", 2},
                                             {"delta", 1e-3},
                                             {"threshold", 0},
                                             {"draws", 3},
                                             {"vote-cutoff", 0.5},
                                             {"mechanism", "posterior-sample"}},
                                            "t");
  EXPECT_EQ(q.draws, 3);
  ASSERT_TRUE(q.calibration.has_value());
  EXPECT_EQ(q.calibration->target_epsilon, 2.0);
  EXPECT_EQ(q.mechanism.kernel->lengthscale(), 0.3);
  try {
    prepared_request(input, {{"delta", 1e-3}, {"threshold", 0}, {"ledger", "x.sqlite"}}, "t");
    FAIL() << "a non-public option was accepted";
  } catch (const ParameterError& e) {
    EXPECT_NE(std::string(e.what()).find("'ledger'"), std::string::npos) << e.what();
  }
  EXPECT_THROW(prepared_request(input, {{"delta", "x"}, {"threshold", 0}}, "t"), ParameterError);
}

// The prepared (dense) sampler, drawn many times with fresh seeds, has the law of the analytic
// posterior GP(μ_D, σ² k_D) on the points; a sampler that drew from the prior covariance, or from a
// covariance 20 % too large, is rejected by the same test (its power, checked below).
TEST(ReleaseMapMechanism, DrawsHaveTheAnalyticPosteriorLaw) {
  const Records r = records_2d(40);
  ReleaseRequest q = public_2d(Kernel::matern52(0.3), 0.4, 0.8);
  q.draws = 2;
  Points pts(6, 2);
  pts << 0.1, 0.1, 0.15, 0.12, 0.5, 0.5, 0.9, 0.2, 0.3, 0.8, 0.52, 0.49;
  PreparedRelease prepared(q, r.X, r.raw, evaluation_at(pts, {"x1", "x2"}, *q.input.domain));
  const Posterior post(*q.mechanism.kernel, prepared.validated().prepared.data.X,
                       prepared.validated().prepared.data.y, {0.4, 0.8});
  const Eigen::VectorXd mu = post.mean(pts);
  const Eigen::MatrixXd cov = post.covariance(pts);
  const int N = 1500;  // 3000 draws: two paths per release
  Eigen::MatrixXd values(pts.rows(), 2 * N);
  for (int k = 0; k < N; ++k) values.middleCols(2 * k, 2) = prepared.draw(1000 + k).fields;
  const test::GaussianFit fit = test::check_gaussian(values, mu, cov);
  EXPECT_EQ(fit.rank, 6);
  EXPECT_GT(fit.chi2_p, 1e-4);
  EXPECT_GT(fit.ks_min_p, 1e-4);
  // Power: the same draws against the prior covariance σ² k, or a covariance 20 % too large.
  const Eigen::MatrixXd prior = 0.64 * q.mechanism.kernel->gram(pts);
  EXPECT_LT(test::check_gaussian(values, mu, prior).chi2_p, 1e-6);
  EXPECT_LT(test::check_gaussian(values, mu, 1.2 * cov).chi2_p, 1e-6);
}

// A sampler prepared on one posterior draws for another with the same kernel, covariates and θ
// (other responses) exactly what a fresh sampler of that posterior draws; other θ are refused.
TEST(ReleaseMapMechanism, PreparedSamplerServesOtherResponses) {
  const Records r = records_2d(30);
  const Eigen::VectorXd y1 = r.raw.array().log() - 1.0;
  const Eigen::VectorXd y2 = 0.5 * y1.array() + 0.1;
  const Kernel k = Kernel::squared_exponential(0.3);
  const Posterior p1(k, r.X, y1, {0.7, 1.3});
  const Posterior p2(k, r.X, y2, {0.7, 1.3});
  Points pts(4, 2);
  pts << 0.2, 0.2, 0.4, 0.9, 0.8, 0.1, 0.2, 0.2;
  const PreparedSampler prepared(p1, pts, {SamplerMethod::Auto, 0.1});
  SeededRng a(5), b(5);
  const Draws fresh = sample(p2, pts, 3, a, {SamplerMethod::Auto, 0.1});
  const Draws reused = prepared.draw(p2, 3, b);
  EXPECT_EQ(fresh.values, reused.values);
  EXPECT_EQ(fresh.values.row(0), fresh.values.row(3));
  const Posterior other_theta(k, r.X, y2, {0.8, 1.3});
  EXPECT_THROW(prepared.draw(other_theta, 1, b), InputError);
}

}  // namespace
}  // namespace gpdp::release
