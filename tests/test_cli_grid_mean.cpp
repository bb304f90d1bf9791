// The new mechanisms and options through the CLI (issue #27): gpdp account / calibrate / release
// --mechanism grid-mean (cells.csv, the probability column, a query of its lazy path, the
// refusals), release --prior-mean and --sign in the certificate, preview --help listing b1-sharp
// (the default sensitivity), and gpdp posterior applying a release's response transform.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "gpdp/io/csv.hpp"
#include "support/paths.hpp"
#include "support/smooth_field_csv.hpp"

namespace gpdp {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

json run_json(const std::string& args) {
  const auto r = test::run_cli(args + " --json");
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
  return r.exit_code == 0 ? json::parse(r.out) : json();
}

TEST(CliGridMean, AccountAndCalibrateGiveTheClosedForm) {
  // s_S = 2, M_Y = 1 (s_N = 2): ε_α = 2α/4 = α/2; with Mironov ε(δ) = ρ + 2√(ρ log(1/δ)), ρ = 1/2.
  const json a = run_json(
      "account --mechanism grid-mean --noise-scale 2 --n 100 --delta 1e-5 --conversion mironov");
  EXPECT_NEAR(a["epsilon"].get<double>(), 0.5 + 2 * std::sqrt(0.5 * std::log(1e5)), 1e-8);
  EXPECT_EQ(a["mechanism"], "grid-mean");
  const json c = run_json(
      "calibrate --mechanism grid-mean --solve noise --target-epsilon 1 --n 100 --delta 1e-5");
  EXPECT_LE(c["epsilon"].get<double>(), 1.0);
  EXPECT_GT(c["epsilon"].get<double>(), 1.0 - 1e-6);
  EXPECT_EQ(c["count_noise"], c["noise_scale"]);
}

struct Fixture : test::SmoothFieldRelease {
  Fixture() : SmoothFieldRelease("--sigma 0.5") {}
};

TEST(CliGridMean, ReleaseWritesTheTableAndItsMapAndAnswersQueries) {
  Fixture f;
  const std::string out = f.dir.file("out");
  const auto r = f.release(fmt::format("--mechanism grid-mean --target-epsilon 3 --cells 5,4 "
                                       "--keep-path {} --insecure-seed 3 --json",
                                       f.dir.file("p.gpdp")),
                           out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json s = json::parse(r.out);
  EXPECT_EQ(s["mechanism"]["kind"], "grid-mean");
  EXPECT_EQ(s["grid_mean"]["cells"], 20);
  EXPECT_LE(s["epsilon"].get<double>(), 3.0);
  for (const char* file : {"cells.csv", "draws.csv", "map.tif", "certificate.json"})
    EXPECT_TRUE(fs::exists(fs::path(out) / file)) << file;
  const auto cells = io::read_csv(out + "/cells.csv");
  EXPECT_EQ(cells.numeric({"noisy_count"}).rows(), 20);
  const auto draws = io::read_csv(out + "/draws.csv");
  const Eigen::VectorXd p = draws.numeric({"probability"}).col(0);
  EXPECT_TRUE((p.array() >= 0).all() && (p.array() <= 1).all());
  test::write_text(f.dir.file("q.csv"), "x1,x2\n0.5,0.5\n0.25,0.75\n");
  const auto q = test::run_cli(
      fmt::format("query {} --data {} --points {} --out {} --insecure-seed 1", f.dir.file("p.gpdp"),
                  f.dir.file("data.csv"), f.dir.file("q.csv"), f.dir.file("answers.csv")));
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(io::read_csv(f.dir.file("answers.csv")).numeric({"draw_1"}).rows(), 2);
  // What does not apply to the grid mean is refused, nothing written.
  for (const char* bad : {"--mechanism grid-mean --target-epsilon 3 --draws 3",
                          "--mechanism grid-mean --target-epsilon 3 --solve r",
                          "--mechanism grid-mean --target-epsilon 3 --cells 5",
                          "--mechanism grid-mean --target-epsilon 3 --prior-mean dp",
                          "--target-epsilon 3 --cells 5,4", "--r 2 --prior-mean dp"}) {
    const std::string o = f.dir.file("refused");
    const auto b = f.release(bad, o);
    EXPECT_EQ(b.exit_code, 2) << bad;
    EXPECT_FALSE(fs::exists(o)) << bad;
  }
}

TEST(CliGridMean, PriorMeanAndSignAreCertified) {
  Fixture f;
  const std::string out = f.dir.file("out");
  const auto r = f.release("--target-epsilon 4 --prior-mean dp:0.2 --sign --insecure-seed 2", out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("prior mean"), std::string::npos) << r.out;
  const json c = json::parse(test::read_text(out + "/certificate.json"));
  EXPECT_EQ(c["prior_mean"]["mode"], "dp");
  EXPECT_EQ(c["prior_mean"]["fraction"], 0.2);
  EXPECT_EQ(c["privacy_record"]["events"].size(), 2u);
  EXPECT_LE(c["guarantee"]["epsilon"].get<double>(), 4.0);
  EXPECT_EQ(c["sensitivity"]["lemma"], "b1-sharp");  // the default
  const auto pub = f.release("--r 3 --prior-mean 0.25 --insecure-seed 2", f.dir.file("pub"));
  ASSERT_EQ(pub.exit_code, 0) << pub.err;
  const json p = json::parse(test::read_text(f.dir.file("pub") + "/certificate.json"));
  EXPECT_EQ(p["prior_mean"]["mode"], "public");
  EXPECT_EQ(p["prior_mean"]["response_units"], 0.25);
  EXPECT_EQ(p["privacy_record"]["events"].size(), 1u);
}

TEST(CliGridMean, PreviewHelpListsTheDefaultSensitivity) {
  const auto h = test::run_cli("preview --help");
  EXPECT_NE(h.out.find("b1-sharp"), std::string::npos) << h.out;
  const auto r = test::run_cli("release --help");
  for (const char* flag : {"--prior-mean", "--cells", "--sign", "grid-mean"})
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
}

// gpdp posterior with a release's transform: y ← clip((y − C)/B, ±M_Y), t in response units. The
// same data transformed by hand give the same mean (model units) and p_exceed.
TEST(CliGridMean, PosteriorAppliesTheReleasesTransform) {
  test::TempDir dir;
  test::write_text(dir.file("raw.csv"), "x1,y\n0.1,5\n0.4,9\n0.6,1\n0.9,14\n");
  // C = 7, B = 2, M_Y = 1.5: (5−7)/2 = −1, 1, −3 → −1.5, 3.5 → 1.5.
  test::write_text(dir.file("prepared.csv"), "x1,y\n0.1,-1\n0.4,1\n0.6,-1.5\n0.9,1.5\n");
  const std::string common = "--kernel exp --ell 0.3 --r 0.5 --sigma 1 --grid 0:1:7";
  ASSERT_EQ(test::run_cli(fmt::format("posterior --data {} {} --center 7 --scale 2 --M-Y 1.5 "
                                      "--threshold 8 --out {}",
                                      dir.file("raw.csv"), common, dir.file("a.csv")))
                .exit_code,
            0);
  ASSERT_EQ(test::run_cli(fmt::format("posterior --data {} {} --threshold 0.5 --out {}",
                                      dir.file("prepared.csv"), common, dir.file("b.csv")))
                .exit_code,
            0);
  EXPECT_EQ(test::read_text(dir.file("a.csv")), test::read_text(dir.file("b.csv")));
}

}  // namespace
}  // namespace gpdp
