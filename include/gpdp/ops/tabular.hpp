#pragma once
// Binary-classification data for the OPS experiments (docs/ops-derivations.md §5): one-hot
// categorical columns (levels seen in the training rows; unseen test levels encode as all zeros),
// continuous columns standardised with TRAINING statistics (treated as public), a bias feature,
// then every row scaled to ‖x‖₂ ≤ 1 by x ← x / max(1, ‖x‖) (a per-record map), labels ±1.
#include <Eigen/Core>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "gpdp/io/csv.hpp"
#include "gpdp/rng.hpp"

namespace gpdp::ops {

struct ClassificationData {
  Eigen::MatrixXd x_train, x_test;
  Eigen::VectorXd y_train, y_test;
  std::vector<std::string> feature_names;
};

struct TabularSpec {
  std::string label_column;
  std::function<double(const std::string& value, const std::string& where)> label;  // → ±1
  std::vector<std::string> continuous;
  std::vector<std::string> log1p_columns;  // continuous columns transformed by log1p first
  std::vector<std::string> categorical;
};

// A data set ready to be split: either an official train/test pair or one table split at random.
struct TabularSource {
  std::string name;
  io::CsvTable train;
  std::optional<io::CsvTable> test;
  TabularSpec spec;
  double test_fraction = 0.2;  // used when there is no test table
  std::string description;     // how it was binarised / split (for outputs)

  // With a test table the rng is not used; otherwise a random split (seeded per repeat).
  ClassificationData prepare(Rng& rng) const;
};

// UCI Abalone: y = +1 iff rings ≥ 10 (49.8 % positive; the paper's rule is unknown), Sex one-hot,
// 7 continuous columns; random 80/20 split per repeat. 11 features with the bias.
TabularSource abalone_source(const std::string& abalone_csv);
// UCI Adult: official split (adult_train.csv 32561 / adult_test.csv 16281 rows), y = +1 iff
// income is ">50K"; fnlwgt dropped (a census sampling weight); capital gain/loss log1p'd; missing
// categorical values are their own level.
TabularSource adult_source(const std::string& train_csv, const std::string& test_csv);
// A user CSV: label column `label_column` with two distinct values (−1/+1, 0/1, or two strings:
// the lexicographically larger is +1); other columns numeric → continuous, else categorical.
TabularSource csv_source(const std::string& path, const std::string& label_column);

// Hyper-parameter selection without the test set: a random `fraction` of the TRAINING rows becomes
// the evaluation set (returned as x_test/y_test), the rest the training set; the original test
// rows are dropped.
ClassificationData validation_split(const ClassificationData& data, double fraction, Rng& rng);

// Prepares with explicit train/test tables (exposed for tests).
ClassificationData prepare_tables(const io::CsvTable& train, const io::CsvTable& test,
                                  const TabularSpec& spec);

}  // namespace gpdp::ops
