// `gpdp preview --calibrate-epsilon` (issue #28, preview/calibrated_preview.hpp): the summary's ε
// is charged to the ledger once, as a release of the dataset, and a call beyond the budget is
// refused with nothing written; the refusals without data, ledger or a positive ε; without the
// flag nothing is read or charged and the report says the prediction is uncalibrated, with the
// proxy's share beside the simulated one; and on clearly one-sided data the calibrated simulations
// see the majority while the uncalibrated prior fields do not; the label statistic is half the
// summary's spend, and its nugget weights tell coherent labels from labels that alternate between
// neighbours.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "gpdp/privacy/accountant.hpp"
#include "gpdp/release/ledger.hpp"
#include "support/paths.hpp"

namespace gpdp {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// 240 records on a 16 x 15 lattice of the unit square; every 20th response is −0.6, the others
// +0.6: 95 % of the records lie above the threshold 0 (hand-known).
std::string one_sided_csv() {
  std::string csv = "x1,x2,y\n";
  for (int i = 0; i < 240; ++i) {
    const double x = (i % 16 + 0.5) / 16.0, y = (i / 16 + 0.5) / 15.0;
    csv += fmt::format("{},{},{}\n", x, y, i % 20 == 0 ? -0.6 : 0.6);
  }
  return csv;
}

const char* kFlags =
    "--domain 0:1,0:1 --grid2d 0:1:12,0:1:10 --threshold 0 --delta 1e-3 --kernel exp --ell 0.3 "
    "--sigma 0.5 --quiet";

struct Calibrated {
  test::TempDir dir;
  Calibrated() { test::write_text(dir.file("data.csv"), one_sided_csv()); }
  test::CommandResult preview(const std::string& extra, const std::string& out) const {
    return test::run_cli(fmt::format("preview {} --data {} --dataset d --ledger {} {} --out {}",
                                     kFlags, dir.file("data.csv"), dir.file("ledger.sqlite"), extra,
                                     out));
  }
};

TEST(PreviewCalibrated, ChargesTheSummaryOnceAndRefusesBeyondTheBudget) {
  Calibrated f;
  const std::string out = f.dir.file("out");
  const auto r = f.preview(
      "--epsilons 1,10 --calibrate-epsilon 0.6 --budget-epsilon 1 --budget-delta 1e-3 "
      "--insecure-seed 3 --json",
      out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(json::parse(test::read_text(out + "/preview.json")), j);
  const json& c = j.at("calibration");
  EXPECT_TRUE(c.at("calibrated").get<bool>());
  // The spend: the summary calibrated to ε_s = 0.6 at δ = 1e-3, no more.
  const double spent = c.at("spend").at("epsilon").get<double>();
  EXPECT_LE(spent, 0.6 * (1 + 1e-9));
  EXPECT_GT(spent, 0.59);
  EXPECT_NE(c.at("summary").at("rng").get<std::string>().find("NOT PRIVATE"), std::string::npos);
  // The ledger holds that one release, whose record replays to that ε.
  {
    release::Ledger ledger(f.dir.file("ledger.sqlite"));
    const auto d = ledger.dataset("d");
    ASSERT_TRUE(d.has_value());
    ASSERT_EQ(d->releases.size(), 1u);
    EXPECT_EQ(d->releases[0].id, c.at("spend").at("ledger_release").get<long long>());
    EXPECT_EQ(d->releases[0].record, c.at("spend").at("privacy_record"));
    const double replayed = privacy::Accountant::replay(d->releases[0].record, "ledger")
                                .epsilon(1e-3, privacy::Conversion::CKS)
                                .epsilon;
    EXPECT_NEAR(replayed, spent, 1e-9);
    // Two events: the label statistic, alone half of ε_s, then the summary's grid mean.
    const json& events = d->releases[0].record.at("events");
    ASSERT_EQ(events.size(), 2u);
    EXPECT_EQ(events[0].at("kind"), "label-disagreement");
    EXPECT_EQ(events[1].at("kind"), "grid-mean");
    json one = d->releases[0].record;
    one["events"] = json::array({events[0]});
    const double labels_alone =
        privacy::Accountant::replay(one, "ledger").epsilon(1e-3, privacy::Conversion::CKS).epsilon;
    EXPECT_LE(labels_alone, 0.3 * (1 + 1e-9));
    EXPECT_GT(labels_alone, 0.29);
  }
  const json& labels = c.at("summary").at("label_statistic");
  EXPECT_EQ(labels.at("weights").size(), 5u);
  double total_weight = 0;
  for (const auto& w : labels.at("weights")) total_weight += w.get<double>();
  EXPECT_NEAR(total_weight, 1.0, 1e-12);
  // Per target: auto's six candidates after the summary's side, each within its target ε.
  ASSERT_EQ(c.at("targets").size(), 2u);
  for (const auto& t : c.at("targets")) {
    const double e = t.at("epsilon").get<double>();
    ASSERT_EQ(t.at("candidates").size(), 7u);
    for (const auto& k : t.at("candidates")) {
      EXPECT_LE(k.at("epsilon").get<double>(), e * (1 + 1e-9));
      const json& p = k.at("predicted");
      EXPECT_LE(p.at("lo").get<double>(), p.at("accuracy").get<double>());
      EXPECT_LE(p.at("accuracy").get<double>(), p.at("hi").get<double>());
    }
    EXPECT_GT(t.at("candidates")[1].at("epsilon").get<double>(), 0.99 * e);
  }
  // 0.9 more would exceed the budget of 1 (the two Gaussian curves compose to ε ≈ 1.1 at
  // δ = 1e-3; 0.6 twice, ≈ 0.86, would fit): refused, nothing recorded or written.
  const std::string out2 = f.dir.file("out2");
  const auto again = f.preview("--epsilons 1 --calibrate-epsilon 0.9 --insecure-seed 4", out2);
  EXPECT_NE(again.exit_code, 0);
  EXPECT_NE(again.err.find("privacy budget exceeded"), std::string::npos) << again.err;
  EXPECT_FALSE(fs::exists(out2));
  release::Ledger ledger(f.dir.file("ledger.sqlite"));
  EXPECT_EQ(ledger.dataset("d")->releases.size(), 1u);
}

TEST(PreviewCalibrated, SecureGeneratorByDefaultAndSaysSo) {
  Calibrated f;
  const auto r = f.preview("--epsilons 3 --calibrate-epsilon 0.5", f.dir.file("out"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("secure (libsodium randombytes)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ε = 0.5"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("predicted best"), std::string::npos) << r.out;
}

TEST(PreviewCalibrated, RefusesWithoutDataLedgerOrAPositiveEpsilon) {
  Calibrated f;
  const auto no_ledger = test::run_cli(
      fmt::format("preview {} --data {} --dataset d --epsilons 1 --calibrate-epsilon 0.5 --out {}",
                  kFlags, f.dir.file("data.csv"), f.dir.file("a")));
  EXPECT_EQ(no_ledger.exit_code, 2);
  EXPECT_NE(no_ledger.err.find("--ledger is missing"), std::string::npos) << no_ledger.err;
  const auto no_data = test::run_cli(fmt::format(
      "preview {} --dataset d --ledger {} --epsilons 1 --calibrate-epsilon 0.5 --out {}", kFlags,
      f.dir.file("ledger.sqlite"), f.dir.file("b")));
  EXPECT_EQ(no_data.exit_code, 2);
  EXPECT_NE(no_data.err.find("--data is missing"), std::string::npos) << no_data.err;
  for (const char* e : {"0", "-1"}) {
    const auto bad =
        f.preview(fmt::format("--epsilons 1 --calibrate-epsilon {}", e), f.dir.file("c"));
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find("--calibrate-epsilon must be positive"), std::string::npos) << bad.err;
  }
  // One line each, nothing written, nothing charged.
  EXPECT_EQ(no_ledger.err.find('\n'), no_ledger.err.size() - 1) << no_ledger.err;
  for (const char* d : {"a", "b", "c"}) EXPECT_FALSE(fs::exists(f.dir.file(d)));
  EXPECT_FALSE(fs::exists(f.dir.file("ledger.sqlite")));
}

TEST(PreviewCalibrated, WithoutItNothingIsChargedAndTheReportSaysUncalibrated) {
  test::TempDir dir;
  // A public proxy: 60 records of 1.5 sin(5x) cos(3y); its share at or above 0 counted here.
  std::string csv = "x1,x2,y\n";
  int above = 0;
  for (int i = 0; i < 60; ++i) {
    const double x = (i % 10 + 0.5) / 10.0, y = (i / 10 + 0.5) / 6.0;
    const double v = 1.5 * std::sin(5 * x) * std::cos(3 * y);
    above += v >= 0;
    csv += fmt::format("{},{},{}\n", x, y, v);
  }
  test::write_text(dir.file("public.csv"), csv);
  const std::string common = fmt::format(
      "preview {} --n 30 --epsilons 1 --simulations 2 --draws-grid 1 --bandwidths 0.5 --r 0.3",
      kFlags);
  const auto text = test::run_cli(fmt::format("{} --out {}", common, dir.file("a")));
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("prediction uncalibrated"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("no public proxy"), std::string::npos) << text.out;
  const auto proxy = test::run_cli(fmt::format("{} --public-data {} --json --out {}", common,
                                               dir.file("public.csv"), dir.file("b")));
  ASSERT_EQ(proxy.exit_code, 0) << proxy.err;
  const json c = json::parse(proxy.out).at("calibration");
  EXPECT_FALSE(c.at("calibrated").get<bool>());
  EXPECT_DOUBLE_EQ(c.at("proxy_share_above").get<double>(), above / 60.0);
  EXPECT_DOUBLE_EQ(c.at("difference").get<double>(),
                   c.at("simulated_share_above").get<double>() - above / 60.0);
  // The ledger flags belong to --calibrate-epsilon: refused, no ledger created.
  const auto ledger = test::run_cli(
      fmt::format("{} --ledger {} --out {}", common, dir.file("ledger.sqlite"), dir.file("c")));
  EXPECT_EQ(ledger.exit_code, 2);
  EXPECT_NE(ledger.err.find("--ledger belongs to --calibrate-epsilon"), std::string::npos)
      << ledger.err;
  EXPECT_FALSE(fs::exists(dir.file("ledger.sqlite")));
  EXPECT_FALSE(fs::exists(dir.file("c")));
}

TEST(PreviewCalibrated, OneSidedDataThePriorFieldsMissAndTheSummarySees) {
  // 95 % of the records above t (one_sided_csv). An uncalibrated preview on prior fields symmetric
  // about t simulates about half the area above it; the calibrated one reads the summary's share
  // (0.95 up to the summary's noise at ε_s = 2 over 240 records) and predicts the majority side
  // clearly better than the 0.5 a symmetric simulation gives a constant map.
  Calibrated f;
  const auto cal =
      f.preview("--epsilons 10 --calibrate-epsilon 2 --insecure-seed 5 --json", f.dir.file("out"));
  ASSERT_EQ(cal.exit_code, 0) << cal.err;
  const json c = json::parse(cal.out).at("calibration");
  EXPECT_GT(c.at("summary").at("share_above").get<double>(), 0.85);
  const json& majority = c.at("targets")[0].at("candidates")[1];
  ASSERT_EQ(majority.at("name"), "majority side (one-cell grid mean, sign)");
  EXPECT_GT(majority.at("predicted").at("accuracy").get<double>(), 0.65);
  EXPECT_GT(majority.at("predicted").at("iou").get<double>(), 0.65);
  const auto prior = test::run_cli(fmt::format(
      "preview {} --n 240 --epsilons 10 --simulations 8 --draws-grid 1 --bandwidths 0.5 --r 0.3 "
      "--json --out {}",
      kFlags, f.dir.file("prior")));
  ASSERT_EQ(prior.exit_code, 0) << prior.err;
  const double simulated =
      json::parse(prior.out).at("calibration").at("simulated_share_above").get<double>();
  EXPECT_LT(simulated, 0.75);
  EXPECT_GT(simulated, 0.25);
}

// The label statistic reads how often neighbours disagree: 240 records on the lattice of
// one_sided_csv, above t on the left half (coherent: only the cells on the middle line disagree) or
// alternating record by record (every cell of about four records is split, D/P near 1). At
// ε_s = 2 (the statistic's noise about 2 counts against P ≈ 100) the weights put most of their
// mass on coherent labels (ν = 0) for the first and on the largest nugget for the second.
TEST(PreviewCalibrated, LabelStatisticTellsCoherentFromAlternatingLabels) {
  const auto weights_for = [](bool alternating) {
    test::TempDir dir;
    std::string csv = "x1,x2,y\n";
    for (int i = 0; i < 240; ++i) {
      const int col = i % 16, row = i / 16;
      const bool above = alternating ? (col + row) % 2 == 0 : col < 8;
      csv += fmt::format("{},{},{}\n", (col + 0.5) / 16.0, (row + 0.5) / 15.0, above ? 0.6 : -0.6);
    }
    test::write_text(dir.file("data.csv"), csv);
    const auto r = test::run_cli(fmt::format(
        "preview {} --data {} --dataset d --ledger {} --epsilons 3 --calibrate-epsilon 2 "
        "--insecure-seed 6 --json --out {}",
        kFlags, dir.file("data.csv"), dir.file("ledger.sqlite"), dir.file("out")));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const json j = json::parse(r.out);
    return j.at("calibration")
        .at("summary")
        .at("label_statistic")
        .at("weights")
        .get<std::vector<double>>();
  };
  const std::vector<double> coherent = weights_for(false), alternating = weights_for(true);
  ASSERT_EQ(coherent.size(), 5u);
  ASSERT_EQ(alternating.size(), 5u);
  EXPECT_GT(coherent[0], 0.5);
  EXPECT_LT(alternating[0], 0.05);
  EXPECT_GT(alternating[4], 0.5);
}

}  // namespace
}  // namespace gpdp
