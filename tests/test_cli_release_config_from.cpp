// gpdp release --config-from: a release with exactly the public parameters a preview chose for
// the target ε (no calibration), its certificate naming the preview file's SHA-256 and the
// predicted IoU; refusals before anything is drawn when the preview does not fit the release.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "gpdp/release/sha256.hpp"
#include "support/paths.hpp"
#include "support/smooth_field_csv.hpp"

namespace gpdp {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* kShared = "--domain 0:1,0:1 --grid2d 0:1:12,0:1:10 --threshold 0 --delta 1e-3";

struct Fixture {
  test::TempDir dir;
  std::string preview_file = dir.file("prev/preview.json");
  Fixture() {
    test::write_text(dir.file("data.csv"), test::smooth_field_csv(30));
    const auto r = test::run_cli(
        fmt::format("preview {} --n 30 --ell 0.3 --sigma 1 --r 0.3 --epsilons 1,10 --simulations 3 "
                    "--draws-grid 1,3 --bandwidths 1 --no-functional --quiet --out {}",
                    kShared, dir.file("prev")));
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
  test::CommandResult release(const std::string& extra, const std::string& out) const {
    return test::run_cli(
        fmt::format("release --data {} {} --dataset d --ledger {} --insecure-seed 3 {} --out {}",
                    dir.file("data.csv"), kShared, dir.file("ledger.sqlite"), extra, out));
  }
};

json read_json(const std::string& file) { return json::parse(test::read_text(file)); }

TEST(CliReleaseConfigFrom, ReleasesExactlyTheChosenConfiguration) {
  Fixture f;
  const json preview = read_json(f.preview_file);
  for (const double eps : {1.0, 10.0}) {
    const std::string out = f.dir.file(fmt::format("rel{}", eps));
    const auto r =
        f.release(fmt::format("--config-from {} --target-epsilon {}", f.preview_file, eps), out);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    json chosen;
    for (const auto& e : preview["results"])
      if (e["epsilon"].get<double>() == eps) chosen = e["best"];
    const json& c = chosen["config"];
    const json cert = read_json(out + "/certificate.json");
    EXPECT_EQ(cert["theta"]["r"], c["r"]);
    EXPECT_EQ(cert["theta"]["sigma"], c["sigma"]);
    EXPECT_EQ(cert["theta"]["ell"], c["ell"]);
    EXPECT_EQ(cert["eta"], c["eta"]);
    EXPECT_EQ(cert["draws"], c["draws"]);
    EXPECT_EQ(cert["threshold"]["vote_cutoff"], c["vote_cutoff"]);
    EXPECT_EQ(cert["threshold"]["smoothing_bandwidth"], c["smooth"]);
    if (c["mechanism"] == "grid-mean") {  // no lemma: its cells and noise scales instead
      EXPECT_EQ(cert["mechanism"]["cells"], c["cells"]);
      EXPECT_EQ(cert["mechanism"]["noise_scale"], c["noise_scale"]);
      EXPECT_EQ(cert["mechanism"]["count_noise"], c["count_noise"]);
    } else {
      EXPECT_EQ(cert["sensitivity"]["lemma"], c["lemma"]);
    }
    if (c.contains("prior_mean")) {
      EXPECT_EQ(cert["prior_mean"]["noise_scale"], c["prior_mean"]["noise_scale"]);
    }
    EXPECT_EQ(cert["guarantee"]["conversion"], c["conversion"]);
    EXPECT_FALSE(cert.contains("calibration"));
    // The release's own accounting gives the preview's ε, within the target.
    EXPECT_NEAR(cert["guarantee"]["epsilon"].get<double>(), c["epsilon"].get<double>(), 1e-9 * eps);
    EXPECT_LE(cert["guarantee"]["epsilon"].get<double>(), eps * (1 + 1e-9));
    EXPECT_EQ(cert["preview"]["sha256"], release::sha256_hex(test::read_text(f.preview_file)));
    EXPECT_EQ(cert["preview"]["target_epsilon"], eps);
    EXPECT_EQ(cert["preview"]["predicted_iou"], chosen["iou"]);
  }
}

TEST(CliReleaseConfigFrom, RefusesWhatThePreviewDoesNotFit) {
  Fixture f;
  const std::string cfg = "--config-from " + f.preview_file;
  // A parameter the preview sets, given as well.
  auto r = f.release(cfg + " --target-epsilon 1 --r 2", f.dir.file("a"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--config-from"), std::string::npos) << r.err;
  // A target the preview has no result for.
  r = f.release(cfg + " --target-epsilon 3", f.dir.file("b"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("no result for ε = 3"), std::string::npos) << r.err;
  // Another δ.
  r = test::run_cli(fmt::format(
      "release --data {} --domain 0:1,0:1 --grid2d 0:1:12,0:1:10 --threshold 0 --delta 1e-4 "
      "--dataset d --ledger {} {} --target-epsilon 1 --out {}",
      f.dir.file("data.csv"), f.dir.file("ledger.sqlite"), cfg, f.dir.file("c")));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("δ"), std::string::npos) << r.err;
  // Private data of another size: refused once the data are read, before any draw.
  test::write_text(f.dir.file("data.csv"), test::smooth_field_csv(29));
  r = f.release(cfg + " --target-epsilon 1", f.dir.file("d"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("n = 30"), std::string::npos) << r.err;
  for (const char* out : {"a", "b", "c", "d"}) EXPECT_FALSE(fs::exists(f.dir.file(out))) << out;
}

}  // namespace
}  // namespace gpdp
