#include "gpdp/ops/tabular.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <numeric>
#include <set>

#include "gpdp/error.hpp"
#include "parse.hpp"

namespace gpdp::ops {

namespace {

std::string where(const io::CsvTable& t, std::size_t row, const std::string& column) {
  return fmt::format("{}:{}: column '{}'", t.source, t.line_numbers[row], column);
}

double numeric_cell(const io::CsvTable& t, std::size_t row, std::size_t col, bool log1p) {
  const double v = parse_double(t.rows[row][col], where(t, row, t.header[col]));
  if (!log1p) return v;
  require(v > -1.0,
          fmt::format("{}: log1p needs values > -1, got {}", where(t, row, t.header[col]), v));
  return std::log1p(v);
}

io::CsvTable subset(const io::CsvTable& t, const std::vector<std::size_t>& rows) {
  io::CsvTable s;
  s.source = t.source;
  s.header = t.header;
  for (const auto r : rows) {
    s.rows.push_back(t.rows[r]);
    s.line_numbers.push_back(t.line_numbers[r]);
  }
  return s;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

}  // namespace

ClassificationData prepare_tables(const io::CsvTable& train, const io::CsvTable& test,
                                  const TabularSpec& spec) {
  require(!train.rows.empty(), fmt::format("{}: no training rows", train.source));
  // Feature layout: continuous, then one-hot levels (sorted, from the training rows), then bias.
  std::vector<std::size_t> cont_cols;
  std::vector<bool> cont_log;
  ClassificationData d;
  for (const auto& c : spec.continuous) {
    cont_cols.push_back(train.column(c));
    cont_log.push_back(contains(spec.log1p_columns, c));
    d.feature_names.push_back(cont_log.back() ? "log1p(" + c + ")" : c);
  }
  std::vector<std::pair<std::size_t, std::map<std::string, Eigen::Index>>> cats;
  Eigen::Index p = static_cast<Eigen::Index>(cont_cols.size());
  for (const auto& c : spec.categorical) {
    const std::size_t col = train.column(c);
    std::set<std::string> levels;
    for (const auto& row : train.rows) levels.insert(row[col]);
    std::map<std::string, Eigen::Index> index;
    for (const auto& l : levels) {
      index[l] = p++;
      d.feature_names.push_back(c + "=" + (l.empty() ? "(missing)" : l));
    }
    cats.emplace_back(col, std::move(index));
  }
  const Eigen::Index bias = p++;
  d.feature_names.emplace_back("bias");

  auto encode = [&](const io::CsvTable& t, Eigen::MatrixXd& x, Eigen::VectorXd& y) {
    const std::size_t label_col = t.column(spec.label_column);
    std::vector<std::size_t> tc, tcat;
    for (const auto c : cont_cols) tc.push_back(t.column(train.header[c]));
    for (const auto& cat : cats) tcat.push_back(t.column(train.header[cat.first]));
    x = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(t.rows.size()), p);
    y.resize(static_cast<Eigen::Index>(t.rows.size()));
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
      const auto i = static_cast<Eigen::Index>(r);
      for (std::size_t k = 0; k < cont_cols.size(); ++k) {
        x(i, static_cast<Eigen::Index>(k)) = numeric_cell(t, r, tc[k], cont_log[k]);
      }
      for (std::size_t k = 0; k < cats.size(); ++k) {
        const auto& index = cats[k].second;
        const auto it = index.find(t.rows[r][tcat[k]]);
        if (it != index.end()) x(i, it->second) = 1.0;
      }
      x(i, bias) = 1.0;
      y(i) = spec.label(t.rows[r][label_col], where(t, r, spec.label_column));
    }
  };
  encode(train, d.x_train, d.y_train);
  encode(test, d.x_test, d.y_test);
  // Standardise continuous columns on training statistics.
  for (Eigen::Index k = 0; k < static_cast<Eigen::Index>(cont_cols.size()); ++k) {
    const double mean = d.x_train.col(k).mean();
    const double sd = std::sqrt((d.x_train.col(k).array() - mean).square().mean());
    const double scale = sd > 0 ? sd : 1.0;
    d.x_train.col(k) = (d.x_train.col(k).array() - mean) / scale;
    d.x_test.col(k) = (d.x_test.col(k).array() - mean) / scale;
  }
  // Row scaling to ‖x‖ ≤ 1.
  for (Eigen::MatrixXd* x : {&d.x_train, &d.x_test}) {
    for (Eigen::Index i = 0; i < x->rows(); ++i) {
      const double norm = x->row(i).norm();
      if (norm > 1.0) x->row(i) /= norm;
    }
  }
  return d;
}

namespace {

std::vector<std::size_t> random_permutation(std::size_t n, Rng& rng) {
  std::vector<std::size_t> perm(n);
  std::iota(perm.begin(), perm.end(), std::size_t{0});
  for (std::size_t k = n - 1; k > 0; --k) {  // Fisher–Yates
    const std::uint64_t m = k + 1;
    const std::uint64_t limit =
        std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % m;
    std::uint64_t v = rng.next_u64();
    while (v >= limit) v = rng.next_u64();
    std::swap(perm[k], perm[static_cast<std::size_t>(v % m)]);
  }
  return perm;
}

}  // namespace

ClassificationData validation_split(const ClassificationData& data, double fraction, Rng& rng) {
  const auto n = static_cast<std::size_t>(data.x_train.rows());
  const auto n_val = static_cast<std::size_t>(std::round(fraction * static_cast<double>(n)));
  require(
      n_val >= 1 && n_val < n,
      fmt::format("validation split: cannot split {} training rows with fraction {}", n, fraction));
  const std::vector<std::size_t> perm = random_permutation(n, rng);
  ClassificationData v;
  v.feature_names = data.feature_names;
  v.x_test.resize(static_cast<Eigen::Index>(n_val), data.x_train.cols());
  v.y_test.resize(static_cast<Eigen::Index>(n_val));
  v.x_train.resize(static_cast<Eigen::Index>(n - n_val), data.x_train.cols());
  v.y_train.resize(static_cast<Eigen::Index>(n - n_val));
  for (std::size_t k = 0; k < n; ++k) {
    const auto src = static_cast<Eigen::Index>(perm[k]);
    if (k < n_val) {
      v.x_test.row(static_cast<Eigen::Index>(k)) = data.x_train.row(src);
      v.y_test(static_cast<Eigen::Index>(k)) = data.y_train(src);
    } else {
      v.x_train.row(static_cast<Eigen::Index>(k - n_val)) = data.x_train.row(src);
      v.y_train(static_cast<Eigen::Index>(k - n_val)) = data.y_train(src);
    }
  }
  return v;
}

ClassificationData TabularSource::prepare(Rng& rng) const {
  if (test) return prepare_tables(train, *test, spec);
  const std::size_t n = train.rows.size();
  const std::vector<std::size_t> perm = random_permutation(n, rng);
  const auto n_test = static_cast<std::size_t>(std::round(test_fraction * static_cast<double>(n)));
  require(n_test >= 1 && n_test < n,
          fmt::format("{}: cannot split {} rows with test fraction {}", name, n, test_fraction));
  const std::vector<std::size_t> test_rows(perm.begin(),
                                           perm.begin() + static_cast<std::ptrdiff_t>(n_test));
  const std::vector<std::size_t> train_rows(perm.begin() + static_cast<std::ptrdiff_t>(n_test),
                                            perm.end());
  return prepare_tables(subset(train, train_rows), subset(train, test_rows), spec);
}

TabularSource abalone_source(const std::string& abalone_csv) {
  TabularSource s;
  s.name = "abalone";
  s.train = io::read_csv(abalone_csv);
  s.spec.label_column = "rings";
  s.spec.label = [](const std::string& v, const std::string& at) {
    return parse_double(v, at) >= 10.0 ? 1.0 : -1.0;
  };
  s.spec.continuous = {"length",         "diameter",       "height",      "whole_weight",
                       "shucked_weight", "viscera_weight", "shell_weight"};
  s.spec.categorical = {"sex"};
  s.description = "UCI Abalone, y=+1 iff rings>=10, random 80/20 split per repeat";
  return s;
}

TabularSource adult_source(const std::string& train_csv, const std::string& test_csv) {
  TabularSource s;
  s.name = "adult";
  s.train = io::read_csv(train_csv);
  s.test = io::read_csv(test_csv);
  s.spec.label_column = "income";
  s.spec.label = [](const std::string& v, const std::string& at) {
    if (v == ">50K") return 1.0;
    if (v == "<=50K") return -1.0;
    throw InputError(fmt::format("{}: income must be '>50K' or '<=50K', got '{}'", at, v));
  };
  s.spec.continuous = {"age", "education_num", "capital_gain", "capital_loss", "hours_per_week"};
  s.spec.log1p_columns = {"capital_gain", "capital_loss"};
  s.spec.categorical = {"workclass", "education", "marital_status", "occupation", "relationship",
                        "race",      "sex",       "native_country"};
  s.description = "UCI Adult, y=+1 iff income>50K, official train/test split";
  return s;
}

TabularSource csv_source(const std::string& path, const std::string& label_column) {
  TabularSource s;
  s.name = std::filesystem::path(path).filename().string();
  s.train = io::read_csv(path);
  const std::size_t label_col = s.train.column(label_column);
  std::set<std::string> values;
  for (const auto& row : s.train.rows) values.insert(row[label_col]);
  require(values.size() == 2,
          fmt::format("{}: label column '{}' must have exactly 2 distinct values, has {}", path,
                      label_column, values.size()));
  std::string positive = *values.rbegin();
  if (values == std::set<std::string>{"-1", "1"} || values == std::set<std::string>{"0", "1"})
    positive = "1";
  s.spec.label_column = label_column;
  s.spec.label = [positive](const std::string& v, const std::string&) {
    return v == positive ? 1.0 : -1.0;
  };
  for (std::size_t c = 0; c < s.train.header.size(); ++c) {
    if (c == label_col) continue;
    bool numeric = true;
    for (const auto& row : s.train.rows) {
      try {
        parse_double(row[c], "");
      } catch (const InputError&) {
        numeric = false;
        break;
      }
    }
    (numeric ? s.spec.continuous : s.spec.categorical).push_back(s.train.header[c]);
  }
  s.description = fmt::format("{}: y=+1 iff {}=='{}', random 80/20 split per repeat", s.name,
                              label_column, positive);
  return s;
}

}  // namespace gpdp::ops
