// gpdp sample / gpdp posterior through the real executable: output format, seeded vs secure RNG,
// JSON summaries, and bad input (one stderr line naming the file/line/field, exit ≠ 0, no output).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gpdp/kernel.hpp"
#include "support/gof.hpp"
#include "support/paths.hpp"

namespace gpdp {
namespace {

using test::read_text;
using test::run_cli;
using test::TempDir;
using test::write_text;

const char* kTrain1d = "x1,y\n0.1,0.5\n0.3,-0.2\n0.3,0.1\n0.6,0.8\n0.9,-0.4\n";
const std::string kModel = " --kernel exp --ell 0.3 --r 0.4 --sigma 1.2";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

int count_lines(const std::string& text) { return static_cast<int>(lines_of(text).size()); }

TEST(CliSample, SeededGridDrawWithJsonSummary) {
  TempDir dir;
  write_text(dir.file("train.csv"), kTrain1d);
  const std::string args = "sample --data " + dir.file("train.csv") + kModel +
                           " --grid 0:1:11 --draws 3 --seed 5 --json --out ";
  const auto res = run_cli(args + dir.file("a.csv"));
  ASSERT_EQ(res.exit_code, 0) << res.err;
  EXPECT_NE(res.err.find("NOT private"), std::string::npos) << res.err;
  const auto j = nlohmann::json::parse(res.out);
  EXPECT_EQ(j["n"], 5);
  EXPECT_EQ(j["m"], 11);
  EXPECT_EQ(j["draws"], 3);
  EXPECT_EQ(j["method"], "markov");
  EXPECT_FALSE(j["private_rng"].get<bool>());
  EXPECT_NE(j["rng"].get<std::string>().find("seed"), std::string::npos);
  const std::string csv = read_text(dir.file("a.csv"));
  const auto lines = lines_of(csv);
  ASSERT_EQ(lines.size(), 12u);
  EXPECT_EQ(lines[0], "x1,draw1,draw2,draw3");
  EXPECT_EQ(lines[1].rfind("0,", 0), 0u);
  // Same seed, same draws; no seed: the secure generator, a different draw.
  ASSERT_EQ(run_cli(args + dir.file("b.csv")).exit_code, 0);
  EXPECT_EQ(read_text(dir.file("b.csv")), csv);
  const auto secure = run_cli("sample --data " + dir.file("train.csv") + kModel +
                              " --grid 0:1:11 --draws 3 --json --out " + dir.file("c.csv"));
  ASSERT_EQ(secure.exit_code, 0) << secure.err;
  EXPECT_TRUE(nlohmann::json::parse(secure.out)["private_rng"].get<bool>());
  EXPECT_EQ(secure.err.find("NOT private"), std::string::npos);
  EXPECT_NE(read_text(dir.file("c.csv")), csv);
}

TEST(CliSample, PointsFileTwoDimensionalDenseAndEta) {
  TempDir dir;
  write_text(dir.file("train.csv"), "x1,x2,y\n0.1,0.2,1\n0.5,0.5,0\n0.9,0.1,-1\n0.5,0.5,0.2\n");
  write_text(dir.file("q.csv"), "x1,x2\n0,0\n0.5,0.5\n0.5,0.5\n1,1\n");
  const auto res = run_cli("sample --data " + dir.file("train.csv") + kModel +
                           " --eta 0.3 --points " + dir.file("q.csv") +
                           " --draws 2 --seed 1 --method dense --json --out " + dir.file("d.csv"));
  ASSERT_EQ(res.exit_code, 0) << res.err;
  EXPECT_EQ(nlohmann::json::parse(res.out)["method"], "dense");
  const auto lines = lines_of(read_text(dir.file("d.csv")));
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_EQ(lines[0], "x1,x2,draw1,draw2");
  EXPECT_EQ(lines[2], lines[3]);  // the same point twice: the same values
}

TEST(CliPosterior, MeanVarianceAndExceedanceMatchTheFormulas) {
  TempDir dir;
  write_text(dir.file("train.csv"), kTrain1d);
  const auto res = run_cli("posterior --data " + dir.file("train.csv") + kModel +
                           " --grid 0:1:5 --threshold 0.1 --out " + dir.file("p.csv"));
  ASSERT_EQ(res.exit_code, 0) << res.err;
  const auto lines = lines_of(read_text(dir.file("p.csv")));
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines[0], "x1,mean,variance,p_exceed");
  Points X(5, 1), xs(5, 1);
  X << 0.1, 0.3, 0.3, 0.6, 0.9;
  xs << 0, 0.25, 0.5, 0.75, 1;
  Eigen::VectorXd y(5);
  y << 0.5, -0.2, 0.1, 0.8, -0.4;
  const auto law = test::analytic_law(Kernel::exponential(0.3), X, y, 0.4, 1.2, 0.0, xs);
  for (int i = 0; i < 5; ++i) {
    double x, mean, var, p;
    char c;
    std::istringstream row(lines[static_cast<std::size_t>(i) + 1]);
    row >> x >> c >> mean >> c >> var >> c >> p;
    EXPECT_NEAR(mean, law.mean[i], 1e-9);
    EXPECT_NEAR(var, law.cov(i, i), 1e-9);
    EXPECT_NEAR(p, 0.5 * std::erfc(-(law.mean[i] - 0.1) / std::sqrt(2 * law.cov(i, i))), 1e-9);
  }
}

struct BadCase {
  std::string name;
  std::string train;        // contents of train.csv ("" = do not create it)
  std::string extra;        // flags replacing the model flags
  std::string expect_text;  // must appear in the stderr line
};

TEST(CliPosterior, PointsFileColumnsAreTheXNamesAsInRelease) {
  // Issue #20: --points files are read like release's (io::read_points_file): columns named like
  // the --x covariates, else x1..xd; sample and posterior agree with each other either way.
  TempDir dir;
  write_text(dir.file("train.csv"), "lon,lat,v\n0.1,0.2,0.5\n0.7,0.4,-0.3\n0.4,0.9,0.2\n");
  write_text(dir.file("named.csv"), "lat,lon\n0.3,0.6\n0.8,0.1\n");
  write_text(dir.file("plain.csv"), "x1,x2\n0.6,0.3\n0.1,0.8\n");
  const std::string base =
      "posterior --data " + dir.file("train.csv") + " --x lon,lat --y v" + kModel + " --points ";
  ASSERT_EQ(run_cli(base + dir.file("named.csv") + " --out " + dir.file("a.csv")).exit_code, 0);
  ASSERT_EQ(run_cli(base + dir.file("plain.csv") + " --out " + dir.file("b.csv")).exit_code, 0);
  const auto a = lines_of(read_text(dir.file("a.csv")));
  const auto b = lines_of(read_text(dir.file("b.csv")));
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0], "lon,lat,mean,variance");  // the columns read, in --x order
  EXPECT_EQ(b[0], "x1,x2,mean,variance");
  EXPECT_EQ(a[1].rfind("0.6,0.3,", 0), 0u);
  EXPECT_EQ(a[1], b[1]);  // the same points, the same answers
  EXPECT_EQ(a[2], b[2]);
  write_text(dir.file("other.csv"), "a,b\n0.6,0.3\n");
  const auto missing = run_cli(base + dir.file("other.csv") + " --out " + dir.file("c.csv"));
  EXPECT_NE(missing.exit_code, 0);  // neither lon,lat nor x1,x2 columns: an error naming x1
  EXPECT_NE(missing.err.find("x1"), std::string::npos) << missing.err;
}

TEST(CliSample, BadInputIsOneLineNoOutput) {
  const std::vector<BadCase> cases = {
      {"missing file", "", kModel, "train.csv: cannot open"},
      {"non-numeric", "x1,y\n0.1,1\n0.2,abc\n", kModel, "train.csv:3: column 'y'"},
      {"nan", "x1,y\n0.1,1\nnan,2\n", kModel, "train.csv:3: column 'x1'"},
      {"inf", "x1,y\n0.1,inf\n", kModel, "train.csv:2: column 'y'"},
      {"columns", "x1,y\n0.1,1\n0.2,1,3\n", kModel, "train.csv:3: expected 2 fields"},
      {"empty", "x1,y\n", kModel, "no data rows"},
      {"ell", kTrain1d, " --kernel exp --ell 0 --r 0.4 --sigma 1", "ℓ"},
      {"r", kTrain1d, " --kernel exp --ell 0.3 --r -1 --sigma 1", "--r"},
      {"sigma", kTrain1d, " --kernel exp --ell 0.3 --r 0.4 --sigma 0", "--sigma"},
      {"method", kTrain1d, kModel + " --method magic", "magic"},
  };
  for (const auto& c : cases) {
    for (const std::string cmd : {"sample", "posterior"}) {
      if (c.name == "method" && cmd == "posterior") continue;
      TempDir dir;
      if (!c.train.empty()) write_text(dir.file("train.csv"), c.train);
      const std::string out = dir.file("out.csv");
      const auto res =
          run_cli(cmd + " --data " + dir.file("train.csv") + c.extra + " --grid 0:1:5" +
                  (cmd == "sample" ? " --seed 1" : "") + " --out " + out);
      const std::string& err = res.err;
      EXPECT_NE(res.exit_code, 0) << c.name << " " << cmd;
      EXPECT_FALSE(std::filesystem::exists(out)) << c.name << " " << cmd;
      // Exactly one line (the seeded-RNG note is printed only after the inputs are validated).
      EXPECT_EQ(count_lines(err), 1) << c.name << " " << cmd << ": " << err;
      EXPECT_NE(err.find(c.expect_text), std::string::npos) << c.name << " " << cmd << ": " << err;
    }
  }
}

TEST(CliSample, BadPointsFileAndHelp) {
  TempDir dir;
  write_text(dir.file("train.csv"), kTrain1d);
  write_text(dir.file("q.csv"), "x1\n0.5\nzz\n");
  const auto res = run_cli("sample --data " + dir.file("train.csv") + kModel + " --points " +
                           dir.file("q.csv") + " --out " + dir.file("o.csv"));
  EXPECT_NE(res.exit_code, 0);
  EXPECT_NE(res.err.find("q.csv:3: column 'x1'"), std::string::npos) << res.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("o.csv")));
  const auto help = run_cli("sample --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--draws"), std::string::npos);
  EXPECT_NE(run_cli("posterior --help").out.find("--threshold"), std::string::npos);
}

}  // namespace
}  // namespace gpdp
