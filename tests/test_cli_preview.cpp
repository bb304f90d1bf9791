// gpdp preview through the CLI: it reads no --data without --calibrate-epsilon, runs to completion
// while the private file cannot be read (a FIFO with mode 000: opening it would block, and the run
// is bounded), writes preview.json in the documented schema and preview.png, and refuses incomplete
// public inputs.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/paths.hpp"

namespace gpdp {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// A public proxy: 60 records of a smooth field on [0,1]² (responses beyond ±1 get clipped).
std::string proxy_csv() {
  std::string csv = "lon,lat,value\n";
  for (int i = 0; i < 60; ++i) {
    const double x = (i % 10 + 0.5) / 10.0, y = (i / 10 + 0.5) / 6.0;
    csv += fmt::format("{},{},{}\n", x, y, 1.5 * std::sin(5 * x) * std::cos(3 * y));
  }
  return csv;
}

const char* kPublicFlags =
    "--domain 0:1,0:1 --grid2d 0:1:16,0:1:12 --threshold 0 --delta 1e-3 --n 30 "
    "--epsilons 1,10 --simulations 3 --draws-grid 1,3 --bandwidths 0.5 --quiet";

// Runs `gpdp preview ...` under `timeout` (a blocked open would otherwise hang the suite).
int run_preview_bounded(const std::string& args, const std::string& log) {
  const std::string cmd =
      fmt::format("timeout 300 {} preview {} >{} 2>&1", test::cli_path(), args, log);
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(CliPreview, ReadsDataOnlyWithCalibrateEpsilon) {
  test::TempDir dir;
  test::write_text(dir.file("private.csv"), proxy_csv());
  const auto r =
      test::run_cli(fmt::format("preview {} --ell 0.3 --sigma 1 --r 0.3 --data {} --out {}",
                                kPublicFlags, dir.file("private.csv"), dir.file("out")));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--data belongs to --calibrate-epsilon"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(dir.file("out")));
}

TEST(CliPreview, RunsWithThePrivateFileUnreadableAndWritesTheSchema) {
  test::TempDir dir;
  // The private file of a later release, beside the public one: a FIFO with mode 000. Any open()
  // for reading would block until `timeout` kills the run (exit 124).
  const std::string priv = dir.file("private.csv");
  ASSERT_EQ(mkfifo(priv.c_str(), 0), 0);
  test::write_text(dir.file("public.csv"), proxy_csv());
  const std::string out = dir.file("prev");
  const int code =
      run_preview_bounded(fmt::format("{} --public-data {} --x lon,lat --y value --out {}",
                                      kPublicFlags, dir.file("public.csv"), out),
                          dir.file("log"));
  ASSERT_EQ(code, 0) << test::read_text(dir.file("log"));
  EXPECT_TRUE(fs::is_fifo(priv));
  ASSERT_TRUE(fs::exists(out + "/preview.png"));
  EXPECT_GT(fs::file_size(out + "/preview.png"), 1000u);
  const json j = json::parse(test::read_text(out + "/preview.json"));
  EXPECT_EQ(j.at("epsilons"), json::array({1.0, 10.0}));
  ASSERT_EQ(j.at("results").size(), 2u);
  for (const auto& e : j.at("results")) {
    const auto& best = e.at("best");
    EXPECT_LE(best.at("config").at("epsilon").get<double>(), e.at("epsilon").get<double>());
    for (const char* k : {"mean", "lo", "hi"}) EXPECT_TRUE(best.at("iou").contains(k));
    EXPECT_GT(e.at("candidates").size(), 5u);
  }
  EXPECT_TRUE(j.at("random_set_iou").is_number());
  EXPECT_TRUE(j.at("nonprivate_iou").is_number());
  EXPECT_EQ(j.at("inputs").at("public_data").at("file"), "public.csv");
  EXPECT_EQ(j.dump().find("private.csv"), std::string::npos);
}

TEST(CliPreview, AcceptsTheReleasesCrs) {
  // A projected CRS is modelled as declared; a geographic one is projected to the UTM zone of the
  // domain's centre (ℓ in metres there), exactly as gpdp release does.
  test::TempDir dir;
  const auto projected = test::run_cli(fmt::format(
      "preview --crs EPSG:28992 --domain 178440:181560,329600:333760 --grid2d "
      "178460:181540:12,329620:333740:10 --threshold 0 --delta 1e-3 --n 20 --epsilons 1,10 "
      "--simulations 2 --draws-grid 1,3 --ell 300 --sigma 1 --r 0.3 --quiet --json --out {}",
      dir.file("a")));
  ASSERT_EQ(projected.exit_code, 0) << projected.err;
  EXPECT_EQ(json::parse(projected.out).at("inputs").at("crs"), "EPSG:28992");
  const auto geographic = test::run_cli(fmt::format(
      "preview --crs EPSG:4326 --domain 5.70:5.78,50.95:51.00 --grid2d 5.71:5.77:12,50.96:50.99:10 "
      "--threshold 0 --delta 1e-3 --n 20 --epsilons 1,10 --simulations 2 --draws-grid 1,3 --ell "
      "300 --sigma 1 --r 0.3 --quiet --json --out {}",
      dir.file("b")));
  ASSERT_EQ(geographic.exit_code, 0) << geographic.err;
  const json g = json::parse(geographic.out);
  EXPECT_EQ(g.at("inputs").at("crs"), "EPSG:4326");
  // The candidates were smoothed on the declared grid: bandwidths in degrees, below the grid's
  // side.
  double largest = 0;
  for (const auto& c : g.at("results")[0].at("candidates"))
    largest = std::max(largest, c.at("config").at("smooth").get<double>());
  EXPECT_GT(largest, 0.0);
  EXPECT_LT(largest, 0.03);
}

TEST(CliPreview, RefusesMissingTheta) {
  test::TempDir dir;
  const auto r =
      test::run_cli(fmt::format("preview {} --ell 0.3 --out {}", kPublicFlags, dir.file("out")));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("θ"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace gpdp
