// gpdp account / calibrate / curves: JSON keys, agreement with the library, errors.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <set>

#include "gpdp/privacy/calibrate.hpp"
#include "support/paths.hpp"

using gpdp::test::run_cli;
using gpdp::test::run_lab_cli;
using namespace gpdp::privacy;

TEST(CliAccount, JsonKeysAndValues) {
  const auto r = run_cli(
      "account --kernel exp1d --ell 1 --n 100 --r 0.5 --sigma 1 --sensitivity b7 --draws 1 "
      "--delta 0.005 --conversion mironov --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  std::set<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.insert(k);
  const std::set<std::string> expected = {
      "epsilon", "delta",     "alpha", "rdp",        "Vn",
      "Delta_n", "kappa",     "tau",   "conversion", "sensitivity_lemma",
      "draws",   "mechanism", "risk"};
  EXPECT_EQ(keys, expected);
  // Golden row: exp1d, b7, n = 100, ℓ = 1, r = 0.5, σ = 1, L = 1, δ = 0.005 → ε =
  // 114.96155002299261.
  EXPECT_NEAR(j["epsilon"].get<double>(), 114.96155002299261, 1e-9 * 114.96);
  EXPECT_NEAR(j["Delta_n"].get<double>(), 4.0, 1e-12);
  EXPECT_EQ(j["conversion"], "mironov");
  EXPECT_EQ(j["sensitivity_lemma"], "b7");
  EXPECT_EQ(j["draws"], 1);
  EXPECT_NEAR(j["kappa"].get<double>(), std::exp(-1.0), 1e-15);
  // ε ≈ 115: no test is ruled out at FPR 0.1 by (ε, δ); the RDP region still bounds the TPR.
  for (const char* fpr : {"0.001", "0.01", "0.1"}) {
    const double tpr = j["risk"]["tpr_at_fpr"][fpr].get<double>();
    EXPECT_GE(tpr, std::stod(fpr));
    EXPECT_LE(tpr, 1.0);
    EXPECT_DOUBLE_EQ(tpr, std::min(j["risk"]["tpr_rdp_region"][fpr].get<double>(),
                                   j["risk"]["tpr_epsilon_delta"][fpr].get<double>()));
  }
  EXPECT_NE(j["risk"]["summary"].get<std::string>().find("an attacker at 1 % false positives"),
            std::string::npos);
  // σ = inf and --kappa override, CKS.
  const auto inf = run_cli(
      "account --kernel se --ell 0.3 --n 10 --r 1 --sigma inf --kappa 0 --draws 3 --delta 1e-5 "
      "--conversion cks --json");
  ASSERT_EQ(inf.exit_code, 0) << inf.err;
  const auto ji = nlohmann::json::parse(inf.out);
  EXPECT_EQ(ji["kappa"].get<double>(), 0.0);
  EXPECT_EQ(ji["Vn"].get<double>(), 1.0);
  EXPECT_EQ(ji["conversion"], "cks");
  // Human-readable output names the lemma, the theorem and the conversion.
  const auto h =
      run_cli("account --kernel exp --dim 2 --ell 0.2 --n 400 --r 4 --sigma 0.3 --delta 1e-3");
  ASSERT_EQ(h.exit_code, 0) << h.err;
  EXPECT_NE(h.out.find("Lemma S.1"), std::string::npos);  // the default since issue #27
  EXPECT_NE(h.out.find("Theorem 3.1"), std::string::npos);
  EXPECT_NE(h.out.find("conversion cks: Canonne"), std::string::npos);  // the one default
  EXPECT_NE(h.out.find("risk     an attacker at 1 % false positives"), std::string::npos);
}

TEST(CliAccount, BadParametersFailWithOneLine) {
  const std::string base = "account --kernel exp1d ";
  for (const std::string bad :
       {"--n 10 --delta 0.01 --r 0 --sigma 1", "--n 10 --delta 0.01 --r -1 --sigma 1",
        "--n 10 --delta 0.01 --sigma 0", "--n 10 --delta 0 --sigma 1", "--n 10 --delta 1 --sigma 1",
        "--n 10 --delta 0.01 --draws 0 --sigma 1", "--n 0 --delta 0.01 --sigma 1",
        "--n 10 --delta 0.01 --sensitivity b2 --sigma 1",
        "--n 10 --delta 0.01 --sensitivity b4 --sigma 1",
        "--n 10 --delta 0.01 --sensitivity b8 --sigma 1",
        "--n 10 --delta 0.01 --conversion renyi --sigma 1",
        "--n 10 --delta 0.01 --eta -1 --sigma 1", "--n 10 --delta 0.01 --M-Y 0 --sigma 1",
        "--n 10 --delta 0.01 --kappa 1.5 --sigma 1", "--n 10 --delta 0.01 --dim 2 --sigma 1",
        "--delta 0.01 --sigma 1"}) {
    const auto r = run_cli(base + bad);
    EXPECT_NE(r.exit_code, 0) << bad;
    EXPECT_TRUE(r.out.empty()) << bad << ": " << r.out;
    EXPECT_FALSE(r.err.empty()) << bad;
  }
  // B.7 outside 1-D, B.5 for a non-diagonal kernel: the lemma is refused by name.
  const auto b7 =
      run_cli("account --kernel exp --dim 2 --n 10 --r 1 --sigma 1 --sensitivity b7 --delta 0.01");
  EXPECT_NE(b7.exit_code, 0);
  EXPECT_NE(b7.err.find("b7"), std::string::npos);
}

TEST(CliCalibrate, RoundTripThroughAccount) {
  const auto c = run_cli(
      "calibrate --target-epsilon 10 --delta 0.005 --solve r --kernel exp1d --ell 0.5 --n 100 "
      "--sigma 1 --sensitivity b7 --json");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  const auto j = nlohmann::json::parse(c.out);
  const double r = j["value"].get<double>();
  EXPECT_LE(j["epsilon"].get<double>(), 10.0);
  EXPECT_NEAR(j["epsilon"].get<double>(), 10.0, 1e-6);
  const auto a =
      run_cli(fmt::format("account --kernel exp1d --ell 0.5 --n 100 --r {:.17g} --sigma 1 "
                          "--sensitivity b7 --delta 0.005 "
                          "--json",
                          r));
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_LE(nlohmann::json::parse(a.out)["epsilon"].get<double>(), 10.0);
  // Draws and an infeasible σ target.
  const auto d = run_cli(
      "calibrate --target-epsilon 5 --delta 1e-5 --solve draws --kernel exp1d --n 50 --r 3 --sigma "
      "2 "
      "--sensitivity b7");
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_NE(d.out.find("draws"), std::string::npos);
  const auto inf = run_cli(
      "calibrate --target-epsilon 0.01 --delta 1e-5 --solve sigma --kernel exp1d --n 50 --r 0.5");
  EXPECT_NE(inf.exit_code, 0);
  EXPECT_NE(inf.err.find("infeasible"), std::string::npos);
  EXPECT_TRUE(inf.out.empty());
  const auto bad = run_cli("calibrate --target-epsilon 1 --delta 1e-5 --solve ell --n 5");
  EXPECT_NE(bad.exit_code, 0);
}

TEST(CliCurves, WritesCsvAndFigureForBothConversions) {
  gpdp::test::TempDir dir;
  const auto r = run_lab_cli("curves --out " + dir.path().string() + " --points 6 --format svg");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = gpdp::test::read_text(dir.file("curves.csv"));
  EXPECT_EQ(
      csv.rfind("setting,sweep,conversion,lemma,n,kappa2,delta,r,sigma,eta,draws,epsilon,alpha", 0),
      0u);
  for (const std::string needle :
       {"generic,r,mironov,b1", "rkhs,sigma,cks,b8", "noise,draws,mironov,b1"}) {
    EXPECT_NE(csv.find(needle), std::string::npos) << needle;
  }
  EXPECT_NE(gpdp::test::read_text(dir.file("curves.svg")).find("<svg"), std::string::npos);
  // A row of the generic panel agrees with the library (n = 1000, κ² = 0.1, δ = 5e-4, r = 1000).
  GpMechanism m;
  m.lemma = SensitivityLemma::B1;  // the figure's generic panel (the paper's Figure 1)
  m.kappa = std::sqrt(0.1);
  m.n = 1000;
  m.r = 1000.0;
  m.sigma = 0.1;
  const auto g = account(m, 1, 5e-4, Conversion::Mironov);
  EXPECT_NE(
      csv.find(fmt::format(
          "generic,r,mironov,b1,1000,0.1,0.0005,1000,0.10000000000000001,0,1,{:.17g}", g.epsilon)),
      std::string::npos);
  EXPECT_NE(run_lab_cli("curves").exit_code, 0);
}
