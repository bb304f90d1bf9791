// gpdp release --mechanism functional: the classical functional Gaussian mechanism μ_D + s·g
// (docs/privacy.md) as a release. The released values have the law N(μ_D, s² k) pointwise
// (μ_D the kernel ridge mean at ridge r, checked against the internal evaluation), s solved by
// --solve noise meets the target, and what does not apply to it is refused with nothing written.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>

#include "support/paths.hpp"
#include "support/smooth_field_csv.hpp"

namespace gpdp {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Rows of numbers of a CSV with a header (the header's names in `names`).
std::vector<std::vector<double>> read_rows(const std::string& file,
                                           std::vector<std::string>* names) {
  std::istringstream in(test::read_text(file));
  std::string line;
  std::getline(in, line);
  std::istringstream h(line);
  for (std::string cell; std::getline(h, cell, ',');) names->push_back(cell);
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::istringstream l(line);
    for (std::string cell; std::getline(l, cell, ',');) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  return rows;
}

struct Fixture : test::SmoothFieldRelease {
  Fixture() : SmoothFieldRelease("--mechanism functional") {}
};

// 400 draws at s = 0.5: per point, the mean of the draws is μ_D(x) within 5 standard errors
// (false alarm over 120 points < 10⁻⁴) and the pooled variance is s² within 5 % (its standard
// error is √(2/48000) ≈ 0.65 % when the noise is right; a wrong s by 10 % fails).
TEST(CliReleaseFunctional, ValuesAreTheRidgeMeanPlusScaledPriorNoise) {
  Fixture f;
  const double s = 0.5;
  const int draws = 400;
  const auto r = f.release(fmt::format("--r 0.5 --noise-scale {} --draws {} --insecure-seed 7 "
                                       "--internal-eval {}",
                                       s, draws, f.dir.file("eval")),
                           f.dir.file("out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> names, eval_names;
  const auto rows = read_rows(f.dir.file("out/draws.csv"), &names);
  const auto mean = read_rows(f.dir.file("eval/NOT_FOR_RELEASE_posterior.csv"), &eval_names);
  ASSERT_EQ(rows.size(), 120u);
  ASSERT_EQ(mean.size(), rows.size());
  double pooled = 0.0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    double sum = 0.0, sum2 = 0.0;
    for (int l = 0; l < draws; ++l) {
      const double v = rows[i][2 + 2 * l];  // draw_l (model units = response units here)
      sum += v;
      sum2 += (v - mean[i][1]) * (v - mean[i][1]);
    }
    EXPECT_NEAR(sum / draws, mean[i][1], 5 * s / std::sqrt(draws)) << "point " << i;
    pooled += sum2 / draws;
  }
  EXPECT_NEAR(pooled / static_cast<double>(rows.size()) / (s * s), 1.0, 0.05);
  const json cert = json::parse(test::read_text(f.dir.file("out/certificate.json")));
  EXPECT_EQ(cert["mechanism"]["kind"], "functional");
  EXPECT_EQ(cert["mechanism"]["noise_scale"], s);
  EXPECT_NE(cert["sampler"].get<std::string>().find("functional"), std::string::npos);
}

TEST(CliReleaseFunctional, SolvedNoiseMeetsTheTarget) {
  Fixture f;
  const auto r = f.release("--r 2 --target-epsilon 2 --solve noise --json", f.dir.file("out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json cert = json::parse(test::read_text(f.dir.file("out/certificate.json")));
  const double eps = cert["guarantee"]["epsilon"].get<double>();
  EXPECT_LE(eps, 2.0 * (1 + 1e-9));
  EXPECT_GT(eps, 1.99);
  EXPECT_EQ(cert["calibration"]["solved"], "noise");
  EXPECT_EQ(cert["calibration"]["value"], cert["mechanism"]["noise_scale"]);
}

TEST(CliReleaseFunctional, RefusesWhatDoesNotApplyWithNothingWritten) {
  Fixture f;
  auto r = f.release("--noise-scale 0.1 --keep-path " + f.dir.file("p.gpdp"), f.dir.file("a"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("no sample path to keep"), std::string::npos) << r.err;
  r = f.release("--noise-scale 0.1 --target-epsilon 1 --solve r", f.dir.file("b"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("must be noise"), std::string::npos) << r.err;
  r = f.release("--noise-scale 0.1 --eta 0.5", f.dir.file("c"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("eta"), std::string::npos) << r.err;
  for (const char* out : {"a", "b", "c"}) EXPECT_FALSE(fs::exists(f.dir.file(out))) << out;
  EXPECT_FALSE(fs::exists(f.dir.file("p.gpdp")));
}

}  // namespace
}  // namespace gpdp
