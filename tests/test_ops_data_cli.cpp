// OPS data preparation (docs/ops-derivations.md §5) and the `gpdp-lab ops` / `gpdp-lab reproduce
// ops-*` commands.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "gpdp/error.hpp"
#include "gpdp/io/data_dir.hpp"
#include "gpdp/ops/data_source.hpp"
#include "gpdp/ops/experiment.hpp"
#include "gpdp/ops/tabular.hpp"
#include "support/paths.hpp"

namespace {

std::string data_dir() { return gpdp::test::data_dir(); }

void expect_scaled(const Eigen::MatrixXd& x, const Eigen::VectorXd& y) {
  for (Eigen::Index i = 0; i < x.rows(); ++i)
    ASSERT_LE(x.row(i).norm(), 1.0 + 1e-12) << "row " << i;
  for (Eigen::Index i = 0; i < y.size(); ++i) ASSERT_TRUE(y(i) == 1.0 || y(i) == -1.0);
}

TEST(OpsData, AbaloneBinarisedSplitAndScaled) {
  const auto src = gpdp::ops::abalone_source(gpdp::io::find_data_file("abalone.csv"));
  gpdp::SeededRng rng(1);
  const auto d = src.prepare(rng);
  EXPECT_EQ(d.x_train.rows(), 3342);
  EXPECT_EQ(d.x_test.rows(), 835);
  EXPECT_EQ(d.x_train.cols(), 11);  // 7 continuous + sex {F, I, M} + bias
  EXPECT_EQ(d.feature_names.back(), "bias");
  expect_scaled(d.x_train, d.y_train);
  expect_scaled(d.x_test, d.y_test);
  // rings >= 10: 2081 of 4177 rows (counted with awk on abalone.csv).
  const auto pos = (d.y_train.array() > 0).count() + (d.y_test.array() > 0).count();
  EXPECT_EQ(pos, 2081);
  // Another seed gives another split.
  gpdp::SeededRng rng2(2);
  EXPECT_NE(src.prepare(rng2).y_test, d.y_test);
}

TEST(OpsData, AdultOfficialSplit) {
  const auto src = gpdp::ops::adult_source(gpdp::io::find_data_file("adult_train.csv"),
                                           gpdp::io::find_data_file("adult_test.csv"));
  gpdp::SeededRng rng(1);
  const auto d = src.prepare(rng);
  EXPECT_EQ(d.x_train.rows(), 32561);
  EXPECT_EQ(d.x_test.rows(), 16281);
  // Class balance from data/README.md: 7841 / 3846 positives.
  EXPECT_EQ((d.y_train.array() > 0).count(), 7841);
  EXPECT_EQ((d.y_test.array() > 0).count(), 3846);
  expect_scaled(d.x_train, d.y_train);
  const std::set<std::string> names(d.feature_names.begin(), d.feature_names.end());
  EXPECT_EQ(names.size(), d.feature_names.size());
  EXPECT_TRUE(names.count("workclass=(missing)"));
  EXPECT_TRUE(names.count("log1p(capital_gain)"));
  EXPECT_GT(d.x_train.cols(), 100);
}

// --validation: 20 % of the training rows become the evaluation set; the test rows are not used.
TEST(OpsData, ValidationSplitUsesTrainingRowsOnly) {
  const auto src = gpdp::ops::abalone_source(gpdp::io::find_data_file("abalone.csv"));
  gpdp::SeededRng rng(1);
  const auto d = src.prepare(rng);
  gpdp::SeededRng rng_v(2);
  const auto v = gpdp::ops::validation_split(d, 0.2, rng_v);
  ASSERT_EQ(v.x_test.rows(), 668);  // round(0.2 · 3342)
  ASSERT_EQ(v.x_train.rows(), 3342 - 668);
  // Every row of the new sets is a training row (matched exactly), none is a test row.
  auto is_row_of = [](const Eigen::RowVectorXd& r, const Eigen::MatrixXd& m) {
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      if (m.row(i) == r) return true;
    return false;
  };
  for (Eigen::Index i = 0; i < v.x_test.rows(); i += 37) {
    EXPECT_TRUE(is_row_of(v.x_test.row(i), d.x_train));
    EXPECT_FALSE(is_row_of(v.x_test.row(i), d.x_test));
  }
  EXPECT_DOUBLE_EQ(v.y_train.sum() + v.y_test.sum(), d.y_train.sum());
}

// Standardisation uses training statistics only: the test rows see the training mean.
TEST(OpsData, StandardisationUsesTrainStatistics) {
  gpdp::test::TempDir tmp;
  gpdp::test::write_text(tmp.file("tr.csv"), "a,c,y\n0,u,1\n2,v,0\n");
  gpdp::test::write_text(tmp.file("te.csv"), "a,c,y\n1,w,1\n");
  gpdp::ops::TabularSpec spec;
  spec.label_column = "y";
  spec.label = [](const std::string& v, const std::string&) { return v == "1" ? 1.0 : -1.0; };
  spec.continuous = {"a"};
  spec.categorical = {"c"};
  const auto d = gpdp::ops::prepare_tables(gpdp::io::read_csv(tmp.file("tr.csv")),
                                           gpdp::io::read_csv(tmp.file("te.csv")), spec);
  ASSERT_EQ(d.x_test.cols(), 4);          // a, c=u, c=v, bias
  EXPECT_DOUBLE_EQ(d.x_test(0, 0), 0.0);  // (1 − mean 1)/sd
  EXPECT_DOUBLE_EQ(d.x_test(0, 1), 0.0);  // unseen level w: all zeros
  EXPECT_DOUBLE_EQ(d.x_test(0, 3), 1.0);
  // Training row 1: a = (0−1)/1 = −1, c=u, bias → norm √3, scaled to 1.
  EXPECT_NEAR(d.x_train.row(0).norm(), 1.0, 1e-15);
  EXPECT_NEAR(d.x_train(0, 0), -1.0 / std::sqrt(3.0), 1e-15);
  EXPECT_EQ(d.y_train(1), -1.0);
}

TEST(OpsData, NamesResolveToTheShippedFilesAndOthersToCsvFiles) {
  EXPECT_EQ(gpdp::ops::load_source("abalone", data_dir(), "y").train.rows.size(), 4177u);
  EXPECT_THROW(gpdp::ops::load_source("abalone", "/nonexistent-folder", "y"), gpdp::InputError);
  EXPECT_THROW(gpdp::ops::load_source("no-such-file.csv", "", "y"), gpdp::InputError);
}

nlohmann::json run_json(const std::string& args) {
  const auto r = gpdp::test::run_lab_cli("ops --data-dir " + data_dir() + " " + args + " --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(OpsCli, JsonHasExactlyTheDocumentedKeys) {
  const auto j =
      run_json("--data abalone --method objpert --epsilon 3 --repeats 4 --seed 5 --threads 2");
  std::set<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.insert(k);
  EXPECT_EQ(keys, (std::set<std::string>{"method", "epsilon", "delta", "accuracy_mean",
                                         "accuracy_se", "repeats"}));
  EXPECT_EQ(j["method"], "objpert");
  EXPECT_EQ(j["epsilon"], 3.0);
  EXPECT_EQ(j["delta"], 0.0);
  EXPECT_EQ(j["repeats"], 4);
  EXPECT_GT(j["accuracy_mean"].get<double>(), 0.6);
  EXPECT_LT(j["accuracy_mean"].get<double>(), 0.9);
  EXPECT_GT(j["accuracy_se"].get<double>(), 0.0);
  // Seeded runs are reproducible, also across thread counts.
  const auto j2 =
      run_json("--data abalone --method objpert --epsilon 3 --repeats 4 --seed 5 --threads 1");
  EXPECT_EQ(j2["accuracy_mean"], j["accuracy_mean"]);
}

TEST(OpsCli, MethodsOnAbalone) {
  const double ref =
      run_json("--data abalone --method nonprivate --repeats 3 --seed 1")["accuracy_mean"];
  EXPECT_GT(ref, 0.72);  // logistic regression on Abalone (rings >= 10) is around 0.78
  const auto ops = run_json(
      "--data abalone --method ops --epsilon 10 --repeats 3 --seed 1 --chains 2 --samples 50");
  EXPECT_GT(ops["accuracy_mean"].get<double>(), 0.7);
  const auto sgld = run_json("--data abalone --method dpsgld --epsilon 10 --repeats 3 --seed 1");
  EXPECT_EQ(sgld["delta"], 1e-5);
  EXPECT_GT(sgld["accuracy_mean"].get<double>(), 0.55);
  const auto hyb = run_json(
      "--data abalone --method hybrid --epsilon 10 --delta 1e-4 --repeats 2 --seed 1 --chains 1 "
      "--samples 20");
  EXPECT_EQ(hyb["delta"], 1e-4);
}

TEST(OpsCli, HumanOutputSaysWhichRng) {
  const auto seeded =
      gpdp::test::run_lab_cli("ops --data-dir " + data_dir() +
                              " --data abalone --method outpert --epsilon 1 --repeats 2 --seed 9");
  ASSERT_EQ(seeded.exit_code, 0) << seeded.err;
  EXPECT_NE(seeded.out.find("NOT private"), std::string::npos) << seeded.out;
  const auto secure = gpdp::test::run_lab_cli(
      "ops --data-dir " + data_dir() +
      " --data abalone --method ops --epsilon 1 --repeats 1 --chains 2 --samples 20");
  ASSERT_EQ(secure.exit_code, 0) << secure.err;
  EXPECT_NE(secure.out.find("secure"), std::string::npos) << secure.out;
  EXPECT_NE(secure.out.find("nominal"), std::string::npos) << secure.out;
}

TEST(OpsCli, UserCsvAndErrors) {
  gpdp::test::TempDir tmp;
  std::string csv = "x1,colour,label\n";
  for (int i = 0; i < 200; ++i) {
    const double x = (i % 20) / 10.0 - 1.0;
    csv += std::to_string(x) + "," + (i % 3 ? "red" : "blue") + "," + (x > 0 ? "yes" : "no") + "\n";
  }
  gpdp::test::write_text(tmp.file("d.csv"), csv);
  const auto r =
      gpdp::test::run_lab_cli("ops --data " + tmp.file("d.csv") +
                              " --label label --method nonprivate --repeats 2 --seed 1 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(nlohmann::json::parse(r.out)["accuracy_mean"].get<double>(), 0.9);

  const auto bad = gpdp::test::run_lab_cli("ops --data abalone --data-dir " + data_dir() +
                                           " --method magic --epsilon 1");
  EXPECT_NE(bad.exit_code, 0);
  EXPECT_TRUE(bad.out.empty());
  EXPECT_NE(bad.err.find("--method"), std::string::npos);
  const auto missing = gpdp::test::run_lab_cli(
      "ops --data abalone --data-dir /nonexistent --method ops --epsilon 1");
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("abalone.csv"), std::string::npos);
  const auto no_eps =
      gpdp::test::run_lab_cli("ops --data abalone --data-dir " + data_dir() + " --method ops");
  EXPECT_NE(no_eps.exit_code, 0);
  EXPECT_NE(no_eps.err.find("--epsilon"), std::string::npos);
}

}  // namespace
