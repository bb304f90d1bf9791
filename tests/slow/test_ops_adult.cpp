// UCI Adult for the OPS experiments (slow suite: Adult has 32561 training rows, and OPS draws on it
// take seconds each): the prepared design's dimensions and one-hot levels, the sparse storage the
// sampler uses, a `gpdp-lab reproduce ops-adult --quick` smoke run, and the result shape at a fixed
// seed (accuracy rises with ε towards the non-private line for OPS and ObjPert).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gpdp/io/data_dir.hpp"
#include "gpdp/lab/registry.hpp"
#include "gpdp/ops/data_source.hpp"
#include "gpdp/ops/experiment.hpp"
#include "gpdp/ops/logistic.hpp"
#include "gpdp/tasks/executor.hpp"
#include "support/paths.hpp"

namespace {

std::string data_dir() { return gpdp::test::data_dir(); }

// Levels per categorical column in adult_train.csv, counted with Python's csv module
// (len(set(column))), independently of the library: 9+16+7+15+6+5+2+42 = 102.
const std::map<std::string, int> kTrainLevels = {
    {"workclass", 9},   {"education", 16},     {"marital_status", 7},
    {"occupation", 15}, {"relationship", 6},   {"race", 5},
    {"sex", 2},         {"native_country", 42}};

TEST(OpsAdult, PreparedDimensionsAndOneHotLevels) {
  const auto src = gpdp::ops::adult_source(gpdp::io::find_data_file("adult_train.csv", data_dir()),
                                           gpdp::io::find_data_file("adult_test.csv", data_dir()));
  gpdp::SeededRng rng(1);
  const auto d = src.prepare(rng);
  // 102 one-hot levels + 5 continuous (age, education_num, log1p gains/losses, hours) + bias.
  ASSERT_EQ(d.x_train.cols(), 108);
  ASSERT_EQ(d.x_test.cols(), 108);
  ASSERT_EQ(static_cast<int>(d.feature_names.size()), 108);
  std::map<std::string, int> levels;
  std::map<std::string, std::vector<Eigen::Index>> columns;
  for (Eigen::Index j = 0; j < 108; ++j) {
    const std::string& name = d.feature_names[static_cast<std::size_t>(j)];
    const auto eq = name.find('=');
    if (eq == std::string::npos) continue;
    ++levels[name.substr(0, eq)];
    columns[name.substr(0, eq)].push_back(j);
  }
  EXPECT_EQ(levels, kTrainLevels);
  EXPECT_EQ(std::count(d.feature_names.begin(), d.feature_names.end(), "fnlwgt"), 0);
  // Every training row has exactly one non-zero level per categorical column; test rows at most
  // one (a level unseen in training encodes as zeros).
  for (const auto& [column, cols] : columns) {
    for (Eigen::Index i = 0; i < d.x_train.rows(); ++i) {
      int nonzero = 0;
      for (const Eigen::Index j : cols) nonzero += d.x_train(i, j) != 0.0 ? 1 : 0;
      ASSERT_EQ(nonzero, 1) << column << ", training row " << i;
    }
    for (Eigen::Index i = 0; i < d.x_test.rows(); ++i) {
      int nonzero = 0;
      for (const Eigen::Index j : cols) nonzero += d.x_test(i, j) != 0.0 ? 1 : 0;
      ASSERT_LE(nonzero, 1) << column << ", test row " << i;
    }
  }
  // ≤ 14 non-zeros of 108 per row: the model stores the rows sparsely (the fast path).
  const gpdp::ops::LogisticModel model(d.x_train, d.y_train, 2.0);
  EXPECT_TRUE(model.uses_sparse_storage());
}

TEST(OpsAdult, ReproduceQuickWritesCsvAndFigure) {
  gpdp::test::TempDir tmp;
  ::setenv("GPDP_DATA_DIR", data_dir().c_str(), 1);
  const auto r =
      gpdp::test::run_lab_cli("reproduce ops-adult --quick --pairs 2 --out " + tmp.path().string());
  ::unsetenv("GPDP_DATA_DIR");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = gpdp::test::read_text(tmp.file("ops-adult.csv"));
  EXPECT_EQ(csv.substr(0, csv.find('\n')),
            "dataset,method,epsilon,delta,repeats,accuracy_mean,accuracy_se,max_rhat,min_ess");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'),
            1 + 1 + 5 * 3);  // header, non-private, 5 methods × 3 ε
  EXPECT_NE(csv.find("adult,ops,10,0,2,"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(tmp.file("ops-adult.png")));
  EXPECT_TRUE(std::filesystem::exists(tmp.file("ops-adult.md")));
}

// Result shape at seed 1 (deterministic, so no false-alarm rate; the margins are the tolerance).
// Adult's split is fixed, so repeats differ only by the mechanisms' noise. Measured with these
// settings (4 repeats, seed 1, 2 chains × (200 + 50) iterations): ObjPert 0.774 / 0.839 / 0.842 at
// ε = 0.1 / 1 / 10; OPS 0.766 / 0.796 / 0.803 at ε = 0.03 / 0.3 / 10 (OPS with R = 2 is near its
// plateau, 0.802 over 20 repeats in docs/ops.md, already at ε = 0.1, so its rise is checked from
// ε = 0.03); non-private 0.847. Asserted: accuracy never falls by more than 0.01 from one ε to the
// next larger one, rises by at least 0.02 from the smallest to the largest ε, and at ε = 10 is
// within 0.01 (ObjPert) / 0.06 (OPS, capped by the ball R = 2) of the non-private line.
TEST(OpsAdult, AccuracyRisesWithEpsilonTowardsNonPrivate) {
  const gpdp::ops::SourceRef src{"adult", data_dir(), "y"};
  gpdp::tasks::ThreadExecutor threads(0, gpdp::lab::registry());
  gpdp::ops::MethodOptions m;
  m.ops.hmc.chains = 2;
  m.ops.hmc.samples = 50;
  const int repeats = 4;
  const auto nonprivate =
      gpdp::ops::run_experiment(src, gpdp::ops::Method::nonprivate, 1.0, m, 1, 1, threads)
          .accuracy_mean;
  struct Case {
    gpdp::ops::Method method;
    std::vector<double> grid;
    double gap;
  };
  for (const Case& c : {Case{gpdp::ops::Method::objpert, {0.1, 1.0, 10.0}, 0.01},
                        Case{gpdp::ops::Method::ops, {0.03, 0.3, 10.0}, 0.06}}) {
    std::vector<double> acc;
    for (const double eps : c.grid)
      acc.push_back(
          gpdp::ops::run_experiment(src, c.method, eps, m, repeats, 1, threads).accuracy_mean);
    const std::string name = gpdp::ops::to_string(c.method);
    EXPECT_GE(acc[1], acc[0] - 0.01) << name;
    EXPECT_GE(acc[2], acc[1] - 0.01) << name;
    EXPECT_GE(acc[2], acc[0] + 0.02) << name << ": " << acc[0] << " -> " << acc[2];
    EXPECT_GE(acc[2], nonprivate - c.gap) << name << " at eps = 10 vs non-private " << nonprivate;
    EXPECT_LE(acc[2], nonprivate + 0.01) << name;
    std::printf("%s: %.4f %.4f %.4f (non-private %.4f)\n", name.c_str(), acc[0], acc[1], acc[2],
                nonprivate);
  }
}

}  // namespace
