// gpdp-lab attack / gpdp-lab reproduce fig* from the command line: JSON keys, errors, outputs.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "support/paths.hpp"

namespace gpdp::test {
namespace {

TEST(AttackCli, JsonHasTheDocumentedKeys) {
  const auto r = run_lab_cli(
      "attack --r 3 --sigma 1 --draws 2 --shadow 300 --eval 300 --seeds 2 --json --quiet");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  for (const char* key : {"epsilon", "delta", "auc", "auc_sd", "tpr_at_fpr", "tpr_at_fpr_sd",
                          "excess_tpr_at_fpr", "excess_tpr_at_fpr_sd"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  for (const char* level : {"0.1", "0.01", "0.001"}) {
    EXPECT_TRUE(j["tpr_at_fpr"].contains(level)) << level;
    EXPECT_NEAR(j["excess_tpr_at_fpr"][level].get<double>(),
                j["tpr_at_fpr"][level].get<double>() - std::stod(level), 1e-12);
  }
  EXPECT_DOUBLE_EQ(j["delta"].get<double>(), 0.05);
  // r = 3, σ = 1, L = 2, n = 10, Lemma B.7: the accountant's ε is single-digit and positive.
  EXPECT_GT(j["epsilon"].get<double>(), 0.0);
  EXPECT_LT(j["epsilon"].get<double>(), 10.0);
  EXPECT_EQ(j["seeds"].get<int>(), 2);
}

// The attack-risk numbers of `gpdp account` (and of every certificate) bound every membership
// test: the empirical TPR of the LiRA attack of `gpdp-lab attack` on the same release never exceeds
// them. Same settings: the attack's release is n = 10 points in [0, 1], exponential kernel ℓ = 1,
// M_Y = 1, Lemma B.7, δ = 0.05, Mironov conversion (its defaults), and its JSON carries the same
// risk numbers as `gpdp account`.
TEST(AttackCli, EmpiricalLiraTprNeverExceedsTheRiskBound) {
  for (const std::string release : {"--r 3 --sigma 1 --draws 2", "--r 1 --sigma 2 --draws 1"}) {
    const auto attack = run_lab_cli("attack " + release +
                                    " --n 10 --shadow 2000 --eval 4000 --seeds 2 --json --quiet");
    ASSERT_EQ(attack.exit_code, 0) << attack.err;
    const auto account = run_cli(
        "account --kernel exp --ell 1 --n 10 --sensitivity b7 "
        "--delta 0.05 --conversion mironov --json " +
        release);
    ASSERT_EQ(account.exit_code, 0) << account.err;
    const auto a = nlohmann::json::parse(attack.out);
    const auto bound = nlohmann::json::parse(account.out)["risk"]["tpr_at_fpr"];
    EXPECT_EQ(a["risk"]["tpr_at_fpr"], bound) << release;
    for (const char* level : {"0.1", "0.01", "0.001"}) {
      EXPECT_LE(a["tpr_at_fpr"][level].get<double>(), bound[level].get<double>())
          << release << " at FPR " << level;
      RecordProperty(release + " FPR " + level,
                     fmt::format("attack {:.4f} <= bound {:.4f}",
                                 a["tpr_at_fpr"][level].get<double>(), bound[level].get<double>()));
    }
  }
}

TEST(AttackCli, SameSeedSameOutput) {
  const std::string args =
      "attack --r 0.5 --sigma 2 --shadow 200 --eval 200 --seeds 1 --seed 9 --json --quiet";
  const auto a = run_lab_cli(args), b = run_lab_cli(args);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
}

TEST(AttackCli, RejectsBadFlagsWithOneLine) {
  for (const std::string bad : {"--r -1", "--r 1 --draws 0", "--r 1 --noise 1", "--r 1 --seeds 0",
                                "--r 1 --roc /nonexistent-dir/x.png", "--r 1 --roc out.txt"}) {
    const auto r = run_lab_cli("attack --shadow 50 --eval 50 --quiet " + bad);
    EXPECT_NE(r.exit_code, 0) << bad;
    EXPECT_TRUE(r.out.empty()) << bad;
    EXPECT_FALSE(r.err.empty()) << bad;
  }
}

TEST(AttackCli, WritesRocFigureAndCsv) {
  TempDir dir;
  const auto r =
      run_lab_cli("attack --r 1 --sigma 1 --shadow 200 --eval 200 --seeds 2 --quiet --roc " +
                  dir.file("roc.png") + " --roc-csv " + dir.file("roc.csv"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(std::filesystem::file_size(dir.file("roc.png")), 1000U);
  const auto csv = read_text(dir.file("roc.csv"));
  EXPECT_EQ(csv.rfind("seed,fpr,tpr\n", 0), 0U);
}

TEST(ReproduceAttackCli, Fig6QuickWritesItsFiles) {
  TempDir dir;
  const auto r = run_lab_cli("reproduce fig6 --quick --pairs 300 --out " + dir.path().string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"fig6.png", "fig6.csv", "fig6.md"}) {
    EXPECT_TRUE(std::filesystem::exists(dir.path() / f)) << f;
  }
  const auto md = read_text(dir.file("fig6.md"));
  EXPECT_NE(md.find("QUICK"), std::string::npos);
}

}  // namespace
}  // namespace gpdp::test
