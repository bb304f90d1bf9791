// gpdp-lab reproduce table4 / fig7 from the command line (quick sizes): files, JSON, and the
// privacy claim of the JSON checked against the library's accountant at the reported θ_priv.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "gpdp/experiments/privacy_constraint.hpp"
#include "gpdp/experiments/search.hpp"
#include "support/paths.hpp"

namespace gpdp::test {
namespace {

TEST(ExperimentsReproduceCli, Table4QuickReportsFeasibleThetasAndItsSearchWork) {
  TempDir dir;
  const auto r = run_lab_cli("reproduce table4 --quick --pairs 3 --conversion cks --out " +
                             dir.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"table4.md", "table4.csv", "table4.json"}) {
    EXPECT_TRUE(std::filesystem::exists(dir.path() / f)) << f;
  }
  const auto j = nlohmann::json::parse(read_text(dir.file("table4.json")));
  EXPECT_EQ(j["conversion"], "cks");
  ASSERT_EQ(j["runs"].size(), 3U);  // NSR = 0.11, 0.43, 1.00
  experiments::ExcursionPrivacy account;
  account.n = 400;
  account.dim = 2;
  account.delta = 0.001;
  account.conversion = privacy::Conversion::CKS;
  for (const auto& run : j["runs"]) {
    const auto t = run["theta_private"];
    const experiments::Theta theta{t[0].get<double>(), t[1].get<double>(), t[2].get<double>()};
    const double eps = account.epsilon(theta);
    EXPECT_LT(eps, 10.0) << run["setting"];
    EXPECT_NEAR(run["epsilon_private"].get<double>(), eps, 1e-9 * eps) << run["setting"];
    EXPECT_GE(run["search_work_per_pair"]["reductions"].get<double>(),
              6.0);  // ≥ the coarse grid's ℓ
    EXPECT_EQ(run["sampler"], "dense");
  }
  const auto md = read_text(dir.file("table4.md"));
  EXPECT_NE(md.find("QUICK"), std::string::npos);
  EXPECT_NE(md.find("NOT a private release"), std::string::npos);
}

TEST(ExperimentsReproduceCli, Fig7QuickWritesTheFigureAndItsCaption) {
  TempDir dir;
  const auto r = run_lab_cli("reproduce fig7 --quick --pairs 4 --out " + dir.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(std::filesystem::file_size(dir.path() / "fig7.png"), 10000U);
  const auto md = read_text(dir.file("fig7.md"));
  EXPECT_NE(md.find("θ_priv = ("), std::string::npos);
  EXPECT_NE(md.find("![fig7](fig7.png)"), std::string::npos);
}

}  // namespace
}  // namespace gpdp::test
