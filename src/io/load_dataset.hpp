#pragma once
// A data set D = (X, y) read from a CSV file (the library's Dataset, dataset.hpp).
#include <string>
#include <vector>

#include "gpdp/dataset.hpp"

namespace gpdp::io {

// Reads `path`. Covariate columns default to x1, x2, ... (as many as the header has, at least x1);
// the response column defaults to y. An empty data set is an InputError.
Dataset load_dataset(const std::string& path, std::vector<std::string> covariates = {},
                     const std::string& response = "y");

}  // namespace gpdp::io
