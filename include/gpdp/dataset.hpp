#pragma once
// Private training data D = (X, y) read from CSV.
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

// Reads `path`. Covariate columns default to x1, x2, ... (as many as the header has, at least x1);
// the response column defaults to y. An empty data set is an InputError.
Dataset load_dataset(const std::string& path, std::vector<std::string> covariates = {},
                     const std::string& response = "y");

}  // namespace gpdp
