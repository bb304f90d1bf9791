// Snapping the training covariates to a fine lattice (`gpdp release --snap-covariates F`,
// covariate_snap.hpp): the public plan (the smallest q per axis, worked out by hand below), the
// snapped covariates on the refined lattice within the bound (against a nearest-node rounding
// written here), the pathwise sampler then drawing on lattice nodes, the release equal to the one
// of the records snapped beforehand, the certificate's fields, ε and the dataset identity
// unchanged, and every refusal.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "gpdp/io/csv.hpp"
#include "gpdp/posterior.hpp"
#include "gpdp/release/covariate_snap.hpp"
#include "gpdp/release/evaluation.hpp"
#include "gpdp/release/manifest.hpp"
#include "gpdp/release/prepared_release.hpp"
#include "gpdp/release/release.hpp"
#include "gpdp/samplers/pathwise.hpp"
#include "support/paths.hpp"

namespace gpdp::release {
namespace {

// n records uniform on [0, 1]², off every small refinement of the 1/32 grid.
std::string data_csv(int n) {
  SeededRng rng(21);
  std::string s = "x1,x2,y\n";
  for (int i = 0; i < n; ++i) {
    const double a = rng.uniform01(), b = rng.uniform01();
    s += fmt::format("{},{},{}\n", io::format_number(a), io::format_number(b),
                     io::format_number(std::sin(5 * a) * std::cos(3 * b)));
  }
  return s;
}

const Grid kGrid({GridAxis{0.0, 1.0, 33}, GridAxis{0.0, 1.0, 33}});  // step 1/32, 1089 points

ReleaseRequest request(const test::TempDir& dir, const std::string& out) {
  test::write_text(dir.file("d.csv"), data_csv(40));
  ReleaseRequest q;
  q.data_path = dir.file("d.csv");
  q.input.domain = Box::parse("0:1,0:1");
  q.mechanism.kernel = Kernel::exponential(0.3);
  q.mechanism.r = 1.0;
  q.mechanism.sigma = 1.0;
  q.delta = 1e-4;
  q.threshold = 0.0;
  q.evaluation = GridPoints{kGrid, ""};
  q.ledger_path = dir.file("l.sqlite");
  q.dataset = "snap";
  q.out_dir = dir.file(out);
  q.insecure_seed = 4;
  q.snap_covariates = 0.05;
  return q;
}

// F = 0.05, ℓ = 0.3, d = 2: every record moves ≤ 0.05·0.3/√2 = 0.010607 per axis. The grid step
// 1/32 moves a point up to 1/64 = 0.0156 (too far); refined by 2 up to 1/128 = 0.0078: q = 2, and
// the nearest node is round(64 x)/64 (the domain's edges are nodes: nothing is clamped).
Eigen::MatrixXd snapped_by_hand(const Eigen::MatrixXd& X) {
  return X.unaryExpr([](double x) { return std::round(64.0 * x) / 64.0; });
}

Eigen::MatrixXd records(const test::TempDir& dir) {
  return io::read_csv(dir.file("d.csv")).numeric({"x1", "x2"});
}

TEST(CovariateSnap, PlanTakesTheSmallestRefinementWithinTheBound) {
  const CovariateSnapPlan p = plan_covariate_snap(0.05, 0.3, kGrid, Box::parse("0:1,0:1"), 8, {});
  EXPECT_EQ(p.refinement, (std::vector<long>{2, 2}));
  EXPECT_DOUBLE_EQ(p.bound, 0.05 * 0.3 / std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(p.lattice_step(0), 1.0 / 64);
  EXPECT_DOUBLE_EQ(p.worst[0], 1.0 / 128);
  EXPECT_EQ(p.first[1], 0);
  EXPECT_EQ(p.last[1], 64);
  // Axes of different steps (0.1 and 0.2), ℓ = 1: the bound 0.0354 needs a lattice step ≤ 0.0707,
  // q = 2 (0.05) on the first axis and q = 3 (0.0667) on the second.
  const Grid uneven({GridAxis{0.0, 1.0, 11}, GridAxis{0.0, 1.0, 6}});
  const CovariateSnapPlan u = plan_covariate_snap(0.05, 1.0, uneven, Box::parse("0:1,0:1"), 8, {});
  EXPECT_EQ(u.refinement, (std::vector<long>{2, 3}));
  EXPECT_NEAR(u.worst[1], 0.2 / 6, 1e-15);
  EXPECT_LE(u.worst_displacement(), 0.05 * 1.0);
}

// A domain edge that is not a node: grid 0.25:0.65:3 (step 0.2) in the domain [0, 1] has the
// in-domain nodes 0.05 … 0.85 (1.05 lies outside), so a point near 1 moves up to 0.15 (> half a
// step): q = 1 needs F ≥ 0.15 (ℓ = 1, d = 1), and F = 0.12 takes q = 2 (nodes 0.05 … 0.95, 0.05).
TEST(CovariateSnap, ClampsToTheNearestNodeInsideTheDomain) {
  const Grid grid({GridAxis{0.25, 0.65, 3}});
  const Box domain = Box::parse("0:1");
  const CovariateSnapPlan wide = plan_covariate_snap(1.0, 1.0, grid, domain, 8, {});
  EXPECT_EQ(wide.refinement, (std::vector<long>{1}));
  EXPECT_NEAR(wide.worst[0], 0.15, 1e-12);
  Eigen::MatrixXd x(3, 1);
  x << 0.99, 0.0, 0.5;
  const SnappedCovariates s = snap_covariates(wide, x);
  EXPECT_NEAR(s.X(0, 0), 0.85, 1e-12);  // 1.05 is nearer, but outside the domain
  EXPECT_NEAR(s.X(1, 0), 0.05, 1e-12);
  EXPECT_NEAR(s.X(2, 0), 0.45, 1e-12);
  EXPECT_NEAR(s.max_displacement, 0.14, 1e-12);
  EXPECT_NEAR(s.mean_displacement, (0.14 + 0.05 + 0.05) / 3, 1e-12);
  const CovariateSnapPlan tight = plan_covariate_snap(0.12, 1.0, grid, domain, 8, {});
  EXPECT_EQ(tight.refinement, (std::vector<long>{2}));
  EXPECT_NEAR(tight.worst[0], 0.05, 1e-12);
}

TEST(CovariateSnap, SnappedCovariatesLieOnTheRefinedLatticeWithinTheBound) {
  test::TempDir dir;
  test::write_text(dir.file("d.csv"), data_csv(200));
  const Eigen::MatrixXd X = records(dir);
  const CovariateSnapPlan p = plan_covariate_snap(0.05, 0.3, kGrid, Box::parse("0:1,0:1"), 8, {});
  const SnappedCovariates s = snap_covariates(p, X);
  const Eigen::MatrixXd expected = snapped_by_hand(X);
  EXPECT_LE((s.X - expected).cwiseAbs().maxCoeff(), 1e-15);
  double max = 0.0, sum = 0.0;
  for (Eigen::Index i = 0; i < X.rows(); ++i) {
    for (int a = 0; a < 2; ++a) {
      const double k = 64.0 * s.X(i, a);
      EXPECT_LT(std::abs(k - std::round(k)), 1e-9);  // a node of the lattice refined by 2
      EXPECT_GE(s.X(i, a), 0.0);
      EXPECT_LE(s.X(i, a), 1.0);
      EXPECT_LE(std::abs(s.X(i, a) - X(i, a)), p.bound);
    }
    const double d = (s.X.row(i) - X.row(i)).norm();
    max = std::max(max, d);
    sum += d;
  }
  EXPECT_LE(max, 0.05 * 0.3);
  EXPECT_DOUBLE_EQ(s.max_displacement, max);
  EXPECT_NEAR(s.mean_displacement, sum / 200, 1e-15);
  // The dispatcher's pathwise plan: the records as parsed are off the lattice, the snapped ones on
  // its nodes (no off-lattice conditioning), and Auto draws them with the pathwise sampler.
  const Eigen::VectorXd y = Eigen::VectorXd::Zero(X.rows());
  const Posterior raw(Kernel::exponential(0.3), X, y, {1.0, 1.0});
  const Posterior snapped(Kernel::exponential(0.3), s.X, y, {1.0, 1.0});
  EXPECT_GT(plan_pathwise(raw, kGrid, 0.0).off_lattice, 0);
  const PathwisePlan on = plan_pathwise(snapped, kGrid, 0.0);
  EXPECT_EQ(on.reason, "");
  EXPECT_EQ(on.off_lattice, 0);
  SeededRng rng(3);
  const Draws d = sample(snapped, kGrid, 1, rng, {SamplerMethod::Auto, 0.0});
  EXPECT_EQ(d.method, "pathwise");
  EXPECT_NE(d.detail.find("covariates on lattice nodes"), std::string::npos) << d.detail;
}

// The release with snapping is the release of the records snapped beforehand (same seed, same
// values): the map is the exact posterior of the snapped records, drawn by the exact sampler; its
// ε is the one without snapping.
TEST(CovariateSnap, ReleaseIsTheReleaseOfTheSnappedRecords) {
  test::TempDir dir;
  ReleaseRequest q = request(dir, "out");
  const Eigen::MatrixXd X = records(dir);
  const Eigen::VectorXd y = io::read_csv(dir.file("d.csv")).numeric({"y"}).col(0);
  const auto eval = [&] { return load_evaluation(q.evaluation, {"x1", "x2"}, *q.input.domain); };
  PreparedRelease with(q, X, y, eval());
  ReleaseRequest plain = q;
  plain.snap_covariates.reset();
  PreparedRelease beforehand(plain, snapped_by_hand(X), y, eval());
  PreparedRelease unsnapped(plain, X, y, eval());
  EXPECT_EQ(with.draw(9).fields, beforehand.draw(9).fields);
  EXPECT_NE(with.draw(9).fields, unsnapped.draw(9).fields);
  EXPECT_EQ(with.guarantee().epsilon, unsnapped.guarantee().epsilon);
  EXPECT_EQ(with.guarantee().alpha, unsnapped.guarantee().alpha);
}

TEST(CovariateSnap, CertificateRecordsTheSnapAndTheLedgerTheRecordsAsParsed) {
  test::TempDir dir;
  ReleaseRequest q = request(dir, "snapped");
  ReleaseRequest plain = request(dir, "plain");
  plain.snap_covariates.reset();
  const ReleaseOutcome a = run_release(plain);
  const ReleaseOutcome b = run_release(q);
  const auto& c = b.certificate;
  ASSERT_TRUE(c.contains("covariate_snapping"));
  EXPECT_FALSE(a.certificate.contains("covariate_snapping"));
  const auto& s = c["covariate_snapping"];
  EXPECT_EQ(s["snap_covariates"], 0.05);
  EXPECT_EQ(s["refinement"], nlohmann::json({2, 2}));
  EXPECT_EQ(s["lattice_step"], nlohmann::json({1.0 / 64, 1.0 / 64}));
  // The measured displacements are statistics of the private covariates (not covered by ε): the
  // certificate carries only the public worst case.
  EXPECT_FALSE(s.contains("measured"));
  EXPECT_EQ(s.dump().find("max_displacement"), std::string::npos) << s.dump();
  EXPECT_EQ(s.dump().find("mean_displacement"), std::string::npos) << s.dump();
  const Eigen::MatrixXd X = records(dir);
  const Eigen::MatrixXd moved = snapped_by_hand(X) - X;
  EXPECT_LE(moved.rowwise().norm().maxCoeff(), s["worst_case"].get<double>());
  EXPECT_NEAR(s["worst_case"].get<double>(), std::sqrt(2.0) / 128, 1e-15);
  EXPECT_NE(s["released"].get<std::string>().find("exact posterior of the SNAPPED records"),
            std::string::npos);
  // One sampler line says so, and the pathwise sampler drew on lattice nodes.
  const std::string sampler = c["sampler"].get<std::string>();
  EXPECT_EQ(sampler.rfind("covariates snapped to lattice nodes (grid step refined by 2x2", 0), 0u)
      << sampler;
  EXPECT_NE(sampler.find("pathwise: "), std::string::npos) << sampler;
  EXPECT_NE(sampler.find("covariates on lattice nodes"), std::string::npos) << sampler;
  EXPECT_EQ(a.certificate["sampler"].get<std::string>().find("snapped to lattice"),
            std::string::npos);
  // ε identical; the input and the identity are the records as parsed: the same dataset's second
  // release, the same records, and under another name the overlap with all 40 records is refused.
  EXPECT_EQ(c["guarantee"]["epsilon"], a.certificate["guarantee"]["epsilon"]);
  EXPECT_EQ(c["input"]["sha256"], a.certificate["input"]["sha256"]);
  EXPECT_EQ(c["dataset"]["earlier_releases"], 1);
  EXPECT_EQ(c["dataset"]["distinct_records"], a.certificate["dataset"]["distinct_records"]);
  ReleaseRequest other = request(dir, "other");
  other.dataset = "another-name";
  try {
    run_release(other);
    ADD_FAILURE() << "an overlapping release under another name was not refused";
  } catch (const PrivacyError& e) {
    EXPECT_NE(std::string(e.what()).find("40 shared records"), std::string::npos) << e.what();
  }
}

// Each refusal names the parameter and says why, before anything is drawn or recorded.
TEST(CovariateSnap, RefusesWhatItCannotDoClearly) {
  test::TempDir dir;
  const auto refused = [&](ReleaseRequest q, const std::string& says) {
    try {
      run_release(q);
      ADD_FAILURE() << "not refused: " << says;
    } catch (const ParameterError& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
      EXPECT_EQ(e.parameters().front(), "snap_covariates") << e.what();
    }
  };
  ReleaseRequest q = request(dir, "out");
  // 0.001·0.3/√2 = 2.12e-4 per axis: a lattice step ≤ 4.24e-4, (1/32)/74 = 4.22e-4: q = 74 > 8
  q.snap_covariates = 0.001;
  refused(q, "needs the grid step refined by q = 74 (a lattice step of 0.0004223)");
  q.snap_covariates = 0.0;
  refused(q, "in (0, 1]");
  q.snap_covariates = 0.05;
  test::write_text(dir.file("p.csv"), "x1,x2\n0.5,0.5\n");
  ReleaseRequest points = q;
  points.evaluation = FilePoints{dir.file("p.csv")};
  refused(points, "needs a grid");
  ReleaseRequest masked = q;
  masked.evaluation = GridPoints{kGrid, dir.file("p.csv")};
  refused(masked, "needs the whole grid");
  ReleaseRequest grid_mean = q;
  grid_mean.mechanism.kind = privacy::MechanismKind::GridMean;
  grid_mean.mechanism.noise_scale = 1.0;
  refused(grid_mean, "not to mechanism grid-mean");
  ReleaseRequest functional = q;
  functional.mechanism.kind = privacy::MechanismKind::Functional;
  functional.mechanism.noise_scale = 1.0;
  refused(functional, "not to mechanism functional");
  ReleaseRequest dense = q;
  dense.sampler = SamplerMethod::Dense;
  refused(dense, "sampler dense does not need it");
  ReleaseRequest b8 = q;
  b8.mechanism.lemma = privacy::SensitivityLemma::B8;
  refused(b8, "sensitivity b8");
  ReleaseRequest kept = q;
  kept.keep_path = KeepPath{dir.file("p.gpdp"), {}};
  refused(kept, "keep_path");
  EXPECT_FALSE(std::filesystem::exists(dir.file("l.sqlite")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("out")));
}

// The option reaches a release from a batch manifest and from Python's prepare (option values).
TEST(CovariateSnap, ManifestAndPreparedOptionsCarryIt) {
  const nlohmann::json manifest = {{"ledger", "l.sqlite"},
                                   {"releases",
                                    {{{"dataset", "a"},
                                      {"data", "d.csv"},
                                      {"out", "o"},
                                      {"domain", "0:1,0:1"},
                                      {"grid2d", "0:1:33,0:1:33"},
                                      {"delta", 1e-4},
                                      {"threshold", 0},
                                      {"snap-covariates", 0.05}}}}};
  const Manifest m = parse_manifest(manifest, "batch.json", "/tmp");
  ASSERT_EQ(m.releases.size(), 1u);
  EXPECT_EQ(m.releases[0].snap_covariates, 0.05);
  const ReleaseRequest q =
      prepared_request({{"domain", "0:1,0:1"}},
                       {{"delta", 1e-4}, {"threshold", 0}, {"snap-covariates", 0.1}}, "prepare");
  EXPECT_EQ(q.snap_covariates, 0.1);
}

// The CLI flag: the sampling line says so, and errors name --snap-covariates.
TEST(CovariateSnap, CliFlagSaysItAndNamesItselfInErrors) {
  test::TempDir dir;
  test::write_text(dir.file("d.csv"), data_csv(40));
  test::write_text(dir.file("p.csv"), "x1,x2\n0.5,0.5\n");
  const std::string common = fmt::format(
      "release --data {} --domain 0:1,0:1 --kernel exp --ell 0.3 --threshold 0 --delta 1e-4 "
      "--dataset d --ledger {} --insecure-seed 1 --snap-covariates 0.05",
      dir.file("d.csv"), dir.file("l.sqlite"));
  const auto ok = test::run_cli(common + " --grid2d 0:1:33,0:1:33 --out " + dir.file("o1"));
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(ok.out.find("sampling    covariates snapped to lattice nodes (grid step refined by "
                        "2x2"),
            std::string::npos)
      << ok.out;
  const auto bad =
      test::run_cli(common + " --points " + dir.file("p.csv") + " --out " + dir.file("o2"));
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_NE(bad.err.find("gpdp: error: --snap-covariates needs a grid"), std::string::npos)
      << bad.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("o2")));
}

}  // namespace
}  // namespace gpdp::release
