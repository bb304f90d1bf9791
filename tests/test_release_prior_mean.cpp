// A prior mean for the GP mechanisms (request.hpp PriorMeanSpec, docs/privacy.md "A private prior
// mean"): the private one's spend in the certificate and the ledger's record (two events, the
// composed total within the target, its own part the closed form of the Gaussian mechanism); the
// drawn mean's law; the released values' law about a public mean (re-centred, re-clipped data);
// the kept path answers on the same posterior.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "gpdp/io/csv.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/privacy/accountant.hpp"
#include "gpdp/release/evaluation.hpp"
#include "gpdp/release/prepared_release.hpp"
#include "gpdp/release/release.hpp"
#include "support/gof.hpp"
#include "support/paths.hpp"

namespace gpdp::release {
namespace {

// 1-D records whose responses (model units, centre 0) sit mostly above 0: mean about 0.45.
std::string data_csv(int n) {
  SeededRng rng(8);
  std::string s = "x1,y\n";
  for (int i = 0; i < n; ++i) {
    const double x = rng.uniform01();
    s += fmt::format("{},{}\n", io::format_number(x),
                     io::format_number(0.5 + 0.4 * std::sin(6 * x) + 0.5 * rng.standard_normal()));
  }
  return s;
}

ReleaseRequest request(const test::TempDir& dir, int n) {
  test::write_text(dir.file("d.csv"), data_csv(n));
  test::write_text(dir.file("pts.csv"), "x1\n0.1\n0.45\n0.8\n");
  ReleaseRequest q;
  q.data_path = dir.file("d.csv");
  q.input.domain = Box::parse("0:1");
  q.mechanism.kernel = Kernel::matern32(0.3);
  q.mechanism.r = 2.0;
  q.mechanism.sigma = 0.5;
  q.delta = 1e-4;
  q.conversion = privacy::Conversion::Mironov;
  q.threshold = 0.0;
  q.evaluation = FilePoints{dir.file("pts.csv")};
  q.ledger_path = dir.file("l.sqlite");
  q.dataset = "prior";
  return q;
}

TEST(ReleasePriorMean, ParsesItsSpecification) {
  EXPECT_TRUE(parse_prior_mean("dp").private_estimate);
  EXPECT_FALSE(parse_prior_mean("dp").fraction.has_value());  // the public rule's share
  EXPECT_EQ(parse_prior_mean("dp:0.25").fraction, 0.25);
  EXPECT_FALSE(parse_prior_mean("6.5").private_estimate);
  EXPECT_EQ(parse_prior_mean("-1.5").value, -1.5);
  for (const char* bad : {"dp:1", "dp:0", "dp:x", "x", "", "dp:0.1x", "nan"})
    EXPECT_THROW(parse_prior_mean(bad), InputError) << bad;
}

// The spend: the prior mean alone is its fraction of the target (the Gaussian mechanism's closed
// form with the Mironov conversion: ε = ρ + 2√(ρ log(1/δ)), ρ = (2M_Y/n)²/(2s²)), the composition
// of both events never exceeds the target, and the certificate and the ledger record both.
TEST(ReleasePriorMean, SpendInCertificateAndLedgerAndTotalWithinTheTarget) {
  test::TempDir dir;
  const int n = 200;
  int k = 0;
  for (const double target : {0.5, 2.0, 10.0}) {
    for (const double fraction : {0.05, 0.1, 0.5}) {
      ReleaseRequest q = request(dir, n);
      q.prior_mean = PriorMeanSpec{true, fraction, 0.0, std::nullopt};
      q.calibration = CalibrationGoal{privacy::CalibrationParameter::R, target};
      q.out_dir = dir.file(fmt::format("out{}", k++));
      q.insecure_seed = 3;
      const ReleaseOutcome o = run_release(q);
      const auto& c = o.certificate;
      SCOPED_TRACE(fmt::format("target {}, fraction {}", target, fraction));
      EXPECT_LE(c["guarantee"]["epsilon"].get<double>(), target);
      EXPECT_GT(c["guarantee"]["epsilon"].get<double>(), 0.99 * target);
      const auto& events = c["privacy_record"]["events"];
      ASSERT_EQ(events.size(), 2u);
      EXPECT_EQ(events[0]["kind"], "prior-mean");
      EXPECT_EQ(events[1]["kind"], "gp-posterior-sample");
      const double s = c["prior_mean"]["noise_scale"].get<double>();
      EXPECT_EQ(events[0]["noise_scale"].get<double>(), s);
      const double rho = std::pow(2.0 / n, 2) / (2 * s * s);
      const double alone = rho + 2 * std::sqrt(rho * std::log(1 / q.delta));
      EXPECT_NEAR(alone, fraction * target, 1e-6 * target);
      EXPECT_NEAR(c["parts"][0]["epsilon"].get<double>(), alone, 1e-9 * target);
      EXPECT_NEAR(c["prior_mean"]["epsilon"].get<double>(), alone, 1e-9 * target);
      // The parts compose below their sum (RDP), and the record replays to the total.
      EXPECT_LE(c["guarantee"]["epsilon"].get<double>(),
                c["parts"][0]["epsilon"].get<double>() + c["parts"][1]["epsilon"].get<double>());
      const auto replay = privacy::Accountant::replay(c["privacy_record"], "certificate");
      EXPECT_DOUBLE_EQ(replay.epsilon(q.delta, q.conversion).epsilon,
                       c["guarantee"]["epsilon"].get<double>());
      EXPECT_EQ(c["prior_mean"]["mode"], "dp");
      EXPECT_LE(std::abs(c["prior_mean"]["model_units"].get<double>()), 1.0);
    }
  }
  // The ledger holds the same two events for the dataset.
  const auto summary = Ledger::open_existing(dir.file("l.sqlite")).dataset("prior");
  ASSERT_TRUE(summary.has_value());
  ASSERT_EQ(summary->releases.size(), 9u);
  for (const auto& entry : summary->releases) {
    ASSERT_EQ(entry.record["events"].size(), 2u);
    EXPECT_EQ(entry.record["events"][0]["kind"], "prior-mean");
  }
}

// `dp` without a fraction: the public rule's share, clamp(ε(δ) at s = 0.1·M_Y, 0.1·E, 0.5·E),
// checked against the closed form (Mironov: ε = ρ + 2√(ρ log(1/δ)), ρ = (2M_Y/n)²/(2s²)) on both
// clamps and inside: n = 30 needs ε = 3.08 (E = 1: capped at 0.5; E = 10: 0.308), n = 200 needs
// 0.434 (E = 1: 0.434; E = 10: floored at 0.1). Inside, the mean's noise is 0.1·M_Y.
TEST(ReleasePriorMean, PublicRuleSpendsWhatResolvesTheMeanWithinItsBounds) {
  test::TempDir dir;
  int k = 0;
  for (const int n : {30, 200}) {
    for (const double target : {1.0, 10.0}) {
      ReleaseRequest q = request(dir, n);
      q.prior_mean = parse_prior_mean("dp");
      q.calibration = CalibrationGoal{privacy::CalibrationParameter::R, target};
      q.out_dir = dir.file(fmt::format("rule{}", k++));
      q.insecure_seed = 5;
      const ReleaseOutcome o = run_release(q);
      const auto& c = o.certificate;
      SCOPED_TRACE(fmt::format("n {}, target {}", n, target));
      const double M = q.input.M_Y;
      const double rho = std::pow(2.0 * M / n, 2) / (2 * std::pow(0.1 * M, 2));
      const double needed = (rho + 2 * std::sqrt(rho * std::log(1 / q.delta))) / target;
      const double fraction = std::clamp(needed, 0.1, 0.5);
      EXPECT_NEAR(c["prior_mean"]["fraction"].get<double>(), fraction, 1e-9);
      EXPECT_NEAR(c["prior_mean"]["epsilon"].get<double>(), fraction * target, 1e-6 * target);
      EXPECT_NE(c["prior_mean"]["fraction_rule"].get<std::string>().find("public rule"),
                std::string::npos);
      const double s = c["prior_mean"]["noise_scale"].get<double>();
      if (needed > 0.5) {
        EXPECT_GT(s, 0.1 * M);
      } else if (needed < 0.1) {
        EXPECT_LT(s, 0.1 * M);
      } else {
        EXPECT_NEAR(s, 0.1 * M, 1e-4 * M);
      }
      EXPECT_LE(c["guarantee"]["epsilon"].get<double>(), target);
    }
  }
  ReleaseRequest q = request(dir, 200);
  q.prior_mean = parse_prior_mean("dp:0.25");
  q.calibration = CalibrationGoal{privacy::CalibrationParameter::R, 1.0};
  q.out_dir = dir.file("given");
  q.insecure_seed = 5;
  const ReleaseOutcome o = run_release(q);
  const auto& c = o.certificate;
  EXPECT_EQ(c["prior_mean"]["fraction"].get<double>(), 0.25);
  EXPECT_EQ(c["prior_mean"]["fraction_rule"], "given (dp:FRACTION)");
}

// The drawn mean: clamp(mean(y) + s z, ±M_Y) over 4000 seeded releases, KS against N(ȳ, s²) (no
// clamping bites here: |ȳ| + 6s < 1). Power: the same draws against N(ȳ, (1.25 s)²) are rejected
// (the two CDFs differ by 0.054 at most: √4000 · 0.054 = 3.4, p ≈ 2e-10).
// The released values about it: m̂ + a path of the posterior of clip(y − m̂) (checked at one seed
// against that posterior's mean, to the lattice).
TEST(ReleasePriorMean, DrawnMeanHasTheGaussianMechanismsLaw) {
  test::TempDir dir;
  ReleaseRequest q = request(dir, 200);
  q.prior_mean = PriorMeanSpec{true, 0.3, 0.0, std::nullopt};
  q.calibration = CalibrationGoal{privacy::CalibrationParameter::R, 5.0};
  const auto csv = io::read_csv(dir.file("d.csv"));
  const Eigen::MatrixXd X = csv.numeric({"x1"});
  const Eigen::VectorXd raw = csv.numeric({"y"}).col(0);
  PreparedRelease prepared(q, X, raw, load_evaluation(q.evaluation, {"x1"}, *q.input.domain));
  const double s = prepared.accounting().prior_mean->noise_scale;
  const double ybar = raw.unaryExpr([](double y) { return std::clamp(y, -1.0, 1.0); }).mean();
  ASSERT_LT(std::abs(ybar) + 6 * s, 1.0);
  std::vector<double> means;
  for (int k = 0; k < 4000; ++k) means.push_back(*prepared.draw(100 + k).prior_mean);
  EXPECT_GT(test::ks_normal_pvalue(means, ybar, s), 1e-3);
  EXPECT_LT(test::ks_normal_pvalue(means, ybar, 1.25 * s), 1e-6);
}

// A public prior mean m₀ (response units, centre 0, scale 1): the released values have the law of
// m₀ + GP posterior of the responses re-clipped about it, clip(y − m₀, ±1) — 2000 seeded paths
// against that posterior computed here; power: against the posterior of the data NOT re-centred
// (m₀ + posterior of clip(y)), rejected.
TEST(ReleasePriorMean, PublicMeanReleasesTheRecentredPosterior) {
  test::TempDir dir;
  ReleaseRequest q = request(dir, 60);
  q.prior_mean = PriorMeanSpec{false, 0.1, 0.6, std::nullopt};
  q.mechanism.r = 0.5;
  q.draws = 2;
  const auto csv = io::read_csv(dir.file("d.csv"));
  const Eigen::MatrixXd X = csv.numeric({"x1"});
  const Eigen::VectorXd raw = csv.numeric({"y"}).col(0);
  Points pts(3, 1);
  pts << 0.1, 0.45, 0.8;
  PreparedRelease prepared(q, X, raw, evaluation_at(pts, {"x1"}, *q.input.domain));
  const auto law = [&](const Eigen::VectorXd& y, double m0) {
    const Posterior p(Kernel::matern32(0.3), X, y, {0.5, 0.5});
    return std::make_pair(Eigen::VectorXd((p.mean(pts).array() + m0).matrix()),
                          Eigen::MatrixXd(p.covariance(pts)));
  };
  const auto [mu, cov] =
      law(raw.unaryExpr([](double y) { return std::clamp(y - 0.6, -1.0, 1.0); }), 0.6);
  const auto [mu_wrong, cov_wrong] =
      law(raw.unaryExpr([](double y) { return std::clamp(y, -1.0, 1.0); }), 0.6);
  Eigen::MatrixXd values(3, 4000);
  for (int k = 0; k < 2000; ++k) {
    const MapRelease r = prepared.draw(7000 + k);
    EXPECT_EQ(*r.prior_mean, 0.6);
    values.middleCols(2 * k, 2) = r.fields;
  }
  const test::GaussianFit fit = test::check_gaussian(values, mu, cov);
  EXPECT_GT(fit.chi2_p, 1e-4);
  EXPECT_GT(fit.ks_min_p, 1e-4);
  EXPECT_LT(test::check_gaussian(values, mu_wrong, cov_wrong).chi2_p, 1e-6);
}

// The kept path of a prior-mean release answers its released points with the released values and
// new points from the same posterior (re-clipped about the recorded mean).
TEST(ReleasePriorMean, KeptPathAnswersAboutTheRecordedMean) {
  test::TempDir dir;
  ReleaseRequest q = request(dir, 80);
  q.prior_mean = PriorMeanSpec{true, 0.2, 0.0, std::nullopt};
  q.calibration = CalibrationGoal{privacy::CalibrationParameter::R, 20.0};
  q.out_dir = dir.file("out");
  q.keep_path = KeepPath{dir.file("p.gpdp"), {}};
  q.insecure_seed = 12;
  const ReleaseOutcome o = run_release(q);
  QueryRequest qq;
  qq.path_file = q.keep_path->file;
  qq.data_path = q.data_path;
  qq.evaluation = FilePoints{dir.file("pts.csv")};
  qq.out_csv = dir.file("again.csv");
  qq.insecure_seed = 5;
  run_query(qq);
  const Eigen::MatrixXd released = io::read_csv(q.out_dir + "/draws.csv").numeric({"draw_1"});
  const Eigen::MatrixXd again = io::read_csv(qq.out_csv).numeric({"draw_1"});
  EXPECT_EQ(again, released);
  const KeptPath kept = load_kept_path(q.keep_path->file, {});
  EXPECT_EQ(kept.offset, o.certificate["prior_mean"]["model_units"].get<double>());
}

}  // namespace
}  // namespace gpdp::release
