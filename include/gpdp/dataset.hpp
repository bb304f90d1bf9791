#pragma once
// Private training data D = (X, y) (io/load_dataset.hpp reads it from CSV).
#include <Eigen/Core>
#include <string>
#include <vector>

#include "gpdp/kernel.hpp"

namespace gpdp {

struct Dataset {
  Points X;           // n x d covariates
  Eigen::VectorXd y;  // n responses
  std::string source;
  std::vector<std::string> covariate_names;
  std::string response_name;
  std::vector<std::size_t> line_numbers;  // CSV line of each record, for messages
  Eigen::Index n() const { return X.rows(); }
  int dim() const { return static_cast<int>(X.cols()); }
};

}  // namespace gpdp
